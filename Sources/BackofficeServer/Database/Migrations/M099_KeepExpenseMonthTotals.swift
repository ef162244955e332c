import Fluent
import SQLKit

/// Expense totals without walking the expenses.
///
/// Summed when asked, the totals of 20 000 expenses read 20 000 index entries (about 3 ms on
/// SQLite) and a text filter also fetched every row for its title (about 10 ms). Two changes:
///
/// - On SQLite, triggers keep each workspace's live expenses summed by month and category in
///   `expense_month_totals` (count, and the two parts of the amount `ExpenseStore.totals`
///   sums), in the same transaction as every insert, change, deletion and restore. Totals for
///   the whole workspace, a month and/or a category then read a handful of rows
///   (`ExpenseStore.keptTotalsQuery`). The month is the UTC calendar month of the expense's date,
///   or of the day it was recorded when it has none, the same day `ExpenseFilter.period`
///   compares; seconds are rounded down before the month is taken, so an expense a fraction of
///   a second before midnight stays in its month.
/// - On both databases the index of live amounts also holds the title's search key, so a text
///   filter reads that index alone instead of the table.
///
/// PostgreSQL sums when asked, as it counts product types (M097): rows of totals would be
/// locked by every transaction writing an expense of that month and category.
struct M099_KeepExpenseMonthTotals: AsyncMigration {
  static let table = "expense_month_totals"
  static let index = "expenses_live_amounts"

  /// The month key (`YYYY-MM`, UTC) of an expense row named `row` (`NEW` or `OLD`).
  static func monthKey(_ row: String) -> String {
    let counted = "COALESCE(\(row).spent_at, \(row).created_at)"
    let floor = "(CAST(\(counted) AS INTEGER) - (\(counted) < CAST(\(counted) AS INTEGER)))"
    return "strftime('%Y-%m', \(floor), 'unixepoch')"
  }

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.drop(index: M096_IndexExpenseTotals.index).run()
    try await sql.raw(
      """
      CREATE INDEX \(ident: Self.index) ON expenses
      (workspace_id, category, amount_cents, title_key, deleted_at) WHERE deleted_at IS NULL
      """
    ).run()
    guard sql.dialect.name == "sqlite" else { return }
    let split = ExpenseStore.splitCents
    try await sql.raw(
      """
      CREATE TABLE expense_month_totals (
        workspace_id UUID NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        month TEXT NOT NULL, category TEXT NOT NULL, line_count INTEGER NOT NULL,
        high INTEGER NOT NULL, low INTEGER NOT NULL,
        PRIMARY KEY (workspace_id, month, category)) WITHOUT ROWID
      """
    ).run()
    try await sql.raw(
      """
      INSERT INTO expense_month_totals (workspace_id, month, category, line_count, high, low)
      SELECT workspace_id, \(unsafeRaw: Self.monthKey("expenses")), category, COUNT(*),
        SUM(amount_cents / \(literal: split)), SUM(amount_cents % \(literal: split))
      FROM expenses WHERE deleted_at IS NULL
      GROUP BY 1, 2, 3
      """
    ).run()
    let add = """
      INSERT INTO expense_month_totals (workspace_id, month, category, line_count, high, low)
      SELECT NEW.workspace_id, \(Self.monthKey("NEW")), NEW.category, 1,
        NEW.amount_cents / \(split), NEW.amount_cents % \(split)
      WHERE NEW.deleted_at IS NULL
      ON CONFLICT (workspace_id, month, category) DO UPDATE SET
        line_count = line_count + 1, high = high + excluded.high, low = low + excluded.low;
      """
    let key = """
      workspace_id = OLD.workspace_id AND month = \(Self.monthKey("OLD"))
        AND category = OLD.category
      """
    let remove = """
      UPDATE expense_month_totals SET line_count = line_count - 1,
        high = high - OLD.amount_cents / \(split), low = low - OLD.amount_cents % \(split)
      WHERE \(key) AND OLD.deleted_at IS NULL;
      DELETE FROM expense_month_totals WHERE \(key) AND line_count <= 0;
      """
    try await sql.raw(
      "CREATE TRIGGER expenses_month_totals_insert AFTER INSERT ON expenses BEGIN \(unsafeRaw: add) END"
    ).run()
    try await sql.raw(
      "CREATE TRIGGER expenses_month_totals_delete AFTER DELETE ON expenses BEGIN \(unsafeRaw: remove) END"
    ).run()
    try await sql.raw(
      """
      CREATE TRIGGER expenses_month_totals_update
      AFTER UPDATE OF workspace_id, category, amount_cents, spent_at, created_at, deleted_at
      ON expenses
      BEGIN \(unsafeRaw: remove) \(unsafeRaw: add) END
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    if sql.dialect.name == "sqlite" {
      for event in ["insert", "delete", "update"] {
        try await sql.raw("DROP TRIGGER expenses_month_totals_\(unsafeRaw: event)").run()
      }
      try await sql.raw("DROP TABLE expense_month_totals").run()
    }
    try await sql.drop(index: Self.index).run()
    try await sql.raw(
      """
      CREATE INDEX \(ident: M096_IndexExpenseTotals.index) ON expenses
      (workspace_id, category, amount_cents, deleted_at) WHERE deleted_at IS NULL
      """
    ).run()
  }
}
