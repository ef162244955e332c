import Fluent
import SQLKit

/// A period of expenses takes dated ones by their date and undated ones by the day they were
/// recorded: `COALESCE(spent_at, created_at)` (`ExpenseStore.countedOn`). Indexed by that
/// expression, a month's list and totals search a range of the index (SQLite and PostgreSQL
/// both use an index on the same expression) instead of walking every expense of the account.
struct M087_IndexExpenseDays: AsyncMigration {
  static let index = "expenses_user_counted_on"

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.raw(
      """
      CREATE INDEX \(ident: Self.index) ON expenses
      (user_id, COALESCE(spent_at, created_at))
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.drop(index: Self.index).run()
  }
}
