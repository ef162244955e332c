import BackofficeCore
import Fluent
import Foundation
import SQLKit

/// `expenses.match_key`, filled for every existing row, and an index per account: an import
/// looks up the rows it is about to add by this key (see `Expense.matchFields`).
struct M080_AddExpenseMatchKeys: AsyncMigration {
  static let index = "expenses_user_match_key"

  func prepare(on database: any Database) async throws {
    try await database.schema("expenses")
      .field("match_key", .string, .required, .sql(.default("")))
      .update()
    try await MatchKeyBackfill.run(
      table: "expenses",
      columns: ["title", "amount_cents", "category", "spent_at"], on: database
    ) { row in
      let expense = Expense(
        title: try row.decode(column: "title", as: String.self),
        amount: MinorUnits(try row.decode(column: "amount_cents", as: Int64.self)).decimal,
        category: ExpenseCategory(rawValue: try row.decode(column: "category", as: String.self))
          ?? .default,
        date: try row.decode(column: "spent_at", as: Date?.self))
      return MatchKey.make(expense.matchFields)
    }
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: Self.index)
        .on("expenses").column("user_id").column("match_key").run()
    }
  }

  func revert(on database: any Database) async throws {
    if let sql = database as? any SQLDatabase {
      try await sql.drop(index: Self.index).run()
    }
    try await database.schema("expenses").deleteField("match_key").update()
  }
}

/// Fills `match_key` of rows written before the column existed, a few hundred rows per
/// statement and each chunk in its own transaction.
enum MatchKeyBackfill {
  static let chunk = 500

  static func run(
    table: String, columns: [String], on database: any Database,
    key: @escaping @Sendable (any SQLRow) throws -> String
  ) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    var after: UUID?
    while true {
      let query = sql.select().column("id").columns(columns.map { SQLColumn($0) })
        .from(table).orderBy("id").limit(chunk)
      if let after { query.where("id", .greaterThan, after) }
      let rows = try await query.all()
      guard let last = rows.last else { return }
      var cases: [SQLQueryString] = []
      var ids: [UUID] = []
      for row in rows {
        let id = try row.decode(column: "id", as: UUID.self)
        cases.append("WHEN \(bind: id) THEN \(bind: try key(row))")
        ids.append(id)
      }
      let update: SQLQueryString =
        "UPDATE \(ident: table) SET \(ident: "match_key") = CASE \(ident: "id") "
        + cases.joined(separator: " ") + " END WHERE \(ident: "id") IN ("
        + ids.map { "\(bind: $0)" as SQLQueryString }.joined(separator: ", ") + ")"
      try await database.transaction { transaction in
        guard let sql = transaction as? any SQLDatabase else { return }
        try await sql.raw(update).run()
      }
      after = try last.decode(column: "id", as: UUID.self)
    }
  }
}
