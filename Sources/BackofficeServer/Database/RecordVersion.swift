import Fluent
import Foundation
import SQLKit
import Vapor

/// The version every editable record carries (products, expenses, ad payments, fundraisers and
/// marketing plans): 1 when it is created, one more on every change, whichever path made it.
///
/// A change first *claims* the record with one statement,
/// `UPDATE … SET version = version + 1 WHERE id = ? AND workspace_id = ? AND version = ? RETURNING
/// version`, inside the transaction that then writes the new values. Of two saves that read the
/// same version exactly one gets a row back: PostgreSQL keeps the first one's row locked until it
/// commits and then finds the version moved on; SQLite runs one writer at a time.
enum RecordVersion {
  static let column = "version"
  static let first = 1

  /// Moves the version of the account's row `id` in `table` on by one, if the row is there,
  /// meets `condition`, and still has version `expected` (any version when nil). The new
  /// version, or nil when nothing matched: the row was changed or deleted in the meantime.
  static func claim(
    _ table: String, id: UUID, workspaceID: UUID, expected: Int?,
    condition: (any SQLExpression)? = nil, on db: any Database
  ) async throws -> Int? {
    let sql = try db.sql()
    let update = sql.update(table)
      .set(
        SQLIdentifier(column),
        to: SQLBinaryExpression(SQLIdentifier(column), .add, SQLLiteral.numeric("1"))
      )
      .where("id", .equal, SQLBind(id))
      .where("workspace_id", .equal, SQLBind(workspaceID))
    if let expected { update.where(SQLIdentifier(column), .equal, SQLBind(expected)) }
    if let condition { update.where(condition) }
    return try await update.returning(SQLIdentifier(column))
      .first(decodingColumn: column, as: Int.self)
  }
}

extension RecordVersion {
  /// Claims the account's row `id` of `table` at version `expected` (any version when nil)
  /// and runs `write` in the same transaction: what `write` gives, or nil when the row was
  /// changed or deleted since (or does not meet `condition`), and then nothing is written.
  static func write<T: Sendable>(
    _ table: String, id: UUID, workspaceID: UUID, expected: Int?,
    condition: (any SQLExpression)? = nil, on db: any Database,
    _ write: @escaping @Sendable (any Database) async throws -> T
  ) async throws -> T? {
    try await db.transaction { db in
      guard
        try await claim(
          table, id: id, workspaceID: workspaceID, expected: expected, condition: condition,
          on: db) != nil
      else { return nil }
      return try await write(db)
    }
  }
}
