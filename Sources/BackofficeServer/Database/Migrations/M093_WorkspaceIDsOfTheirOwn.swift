import Fluent
import Foundation
import SQLKit

/// Workspaces stop borrowing their creator's account id. Until now a workspace's id was the id
/// of the account that made it, and the records' `workspace_id` columns still pointed at the
/// `users` table: a deleted workspace came back under the same id when its creator next worked,
/// so a write that raced the deletion (its token read before, its row written after) landed in
/// the creator's new, "empty" workspace.
///
/// Existing workspaces keep their ids (nothing is rewritten, devices' copies stay valid); from
/// now on a workspace is made with a random id of its own (`WorkspaceStore.createOwn`), so a
/// deleted id is never handed out again. The creator is kept in `workspaces.creator_id`
/// (at most one live workspace per creator: two requests making a person's new workspace at
/// the same moment make one). Every record table's `workspace_id` now references
/// `workspaces(id)` with `ON DELETE CASCADE`, so a row written for a workspace that is gone is
/// refused by the database itself, on SQLite and PostgreSQL alike, whatever path wrote it.
///
/// Rows left without a workspace (written by such a race before this migration, out of every
/// workspace's reach) are deleted first, or the new references could not hold.
///
/// SQLite cannot alter a column's reference; its documented way for a change that leaves the
/// stored rows as they are (dropping or changing a constraint) is to edit the table's
/// statement in `sqlite_schema` with `writable_schema` and bump `schema_version`, then check
/// with `foreign_key_check`. PostgreSQL drops the old constraint and adds the new one.
struct M093_WorkspaceIDsOfTheirOwn: AsyncMigration {
  /// The tables whose `workspace_id` referenced `users(id)` (M092 renamed their `user_id`).
  static let referencing = [
    "ad_payments", "expenses", "marketing_plans", "product_counters", "products",
    "product_photos", "idempotency_keys", "fundraisers", "fundraiser_photos", "import_jobs",
  ]

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    let postgres = sql.dialect.name == "postgresql"
    try await sql.raw(
      """
      ALTER TABLE workspaces ADD COLUMN creator_id \(unsafeRaw: postgres ? "UUID" : "BLOB")
        REFERENCES users (id) ON DELETE CASCADE
      """
    ).run()
    try await sql.raw("UPDATE workspaces SET creator_id = id").run()
    try await sql.raw("CREATE UNIQUE INDEX workspaces_creator ON workspaces (creator_id)").run()

    for table in Self.referencing {
      try await sql.raw(
        """
        DELETE FROM \(ident: table)
        WHERE workspace_id NOT IN (SELECT id FROM workspaces)
        """
      ).run()
    }
    if postgres {
      try await Self.postgresReferences(sql, to: "workspaces")
    } else {
      try await Self.sqliteReferences(database, from: "users", to: "workspaces")
    }
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    if sql.dialect.name == "postgresql" {
      try await Self.postgresReferences(sql, to: "users")
    } else {
      try await Self.sqliteReferences(database, from: "workspaces", to: "users")
    }
    try await sql.raw("DROP INDEX workspaces_creator").run()
    try await sql.raw("ALTER TABLE workspaces DROP COLUMN creator_id").run()
  }

  /// Replaces each table's reference of `workspace_id` by one to `target(id)`.
  private static func postgresReferences(_ sql: any SQLDatabase, to target: String) async throws {
    for table in referencing {
      let constraints = try await sql.raw(
        """
        SELECT c.conname AS name FROM pg_constraint c
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
        WHERE c.contype = 'f' AND c.conrelid = to_regclass(\(bind: table))
          AND a.attname = 'workspace_id'
        """
      ).all()
      for row in constraints {
        let name = try row.decode(column: "name", as: String.self)
        try await sql.raw("ALTER TABLE \(ident: table) DROP CONSTRAINT \(ident: name)").run()
      }
      try await sql.raw(
        """
        ALTER TABLE \(ident: table) ADD CONSTRAINT \(ident: "\(table)_workspace_fk")
        FOREIGN KEY (workspace_id) REFERENCES \(ident: target) (id) ON DELETE CASCADE
        """
      ).run()
    }
  }

  /// Points each table's `workspace_id` reference from `source` to `target` by editing the
  /// table's statement (see the type's comment), then checks every row against it.
  /// All on one connection: `writable_schema` is a setting of the connection.
  private static func sqliteReferences(
    _ database: any Database, from source: String, to target: String
  ) async throws {
    try await database.withConnection { connection in
      guard let sql = connection as? any SQLDatabase else { return }
      try await sqliteReferences(sql, from: source, to: target)
    }
  }

  private static func sqliteReferences(
    _ sql: any SQLDatabase, from source: String, to target: String
  ) async throws {
    let version =
      try await sql.raw("PRAGMA schema_version").first()?
      .decode(column: "schema_version", as: Int.self) ?? 0
    try await sql.raw("PRAGMA writable_schema = ON").run()
    do {
      for table in referencing {
        guard
          let statement = try await sql.raw(
            "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = \(bind: table)"
          ).first()?.decode(column: "sql", as: String.self)
        else { throw StartupError("\(table) has no statement in sqlite_schema") }
        guard let edited = retarget(statement, column: "workspace_id", from: source, to: target)
        else { throw StartupError("\(table): workspace_id does not reference \(source)") }
        try await sql.raw(
          "UPDATE sqlite_schema SET sql = \(bind: edited) WHERE type = 'table' AND name = \(bind: table)"
        ).run()
      }
      try await sql.raw("PRAGMA schema_version = \(unsafeRaw: String(version + 1))").run()
    } catch {
      try? await sql.raw("PRAGMA writable_schema = OFF").run()
      throw error
    }
    try await sql.raw("PRAGMA writable_schema = OFF").run()
    for table in referencing {
      let targets = try await sql.raw("PRAGMA foreign_key_list(\(ident: table))").all()
        .filter { try $0.decode(column: "from", as: String.self) == "workspace_id" }
        .map { try $0.decode(column: "table", as: String.self) }
      guard targets == [target] else {
        throw StartupError("\(table): workspace_id references \(targets), not \(target)")
      }
      let broken = try await sql.raw("PRAGMA foreign_key_check(\(ident: table))").all()
      guard broken.isEmpty else {
        throw StartupError("\(table): \(broken.count) rows without their \(target) row")
      }
    }
  }

  /// `statement` (a `CREATE TABLE`) with the reference of column `column` to `source` changed
  /// to `target`; nil when the column's definition has no such reference. Only the column's
  /// own definition (up to its comma) is touched: other columns may reference `source` too.
  static func retarget(_ statement: String, column: String, from source: String, to target: String)
    -> String?
  {
    guard let start = statement.range(of: "\"\(column)\"") else { return nil }
    let rest = statement[start.upperBound...]
    let end = rest.firstIndex(of: ",") ?? rest.endIndex
    let definition = rest[..<end]
    for spelling in ["REFERENCES \"\(source)\"", "REFERENCES \(source)"] {
      if let found = definition.range(of: spelling) {
        var edited = statement
        edited.replaceSubrange(found, with: "REFERENCES \"\(target)\"")
        return edited
      }
    }
    return nil
  }
}
