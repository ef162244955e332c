import BackofficeCore
import Fluent
import Foundation
import GRDB
import SQLKit
import Testing

@testable import BackofficeServer

@Suite("Expenses storage")
struct ExpenseMigrationTests {
  /// The list and its filters read by account and date or category; both need their index.
  @Test func tableHasTheIndexesTheQueriesUse() async throws {
    try await withApp { t in
      let sql = try t.db.sql()
      let names: [String]
      if isPostgresRun {
        names = try await sql.raw(
          "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'expenses'"
        ).all().map { try $0.decode(column: "name", as: String.self) }
      } else {
        names = try await sql.raw(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'expenses'"
        ).all().map { try $0.decode(column: "name", as: String.self) }
      }
      #expect(names.contains("expenses_user_spent_at"))
      #expect(names.contains("expenses_user_counted_on"))
      #expect(names.contains("expenses_user_category"))
    }
  }

  /// A month takes dated expenses by date and undated ones by the day they were recorded; it
  /// must search a range of the index on that day, not walk every expense of the account.
  @Test func aMonthsTotalsSearchARangeOfTheIndex() async throws {
    try await withApp { t in
      guard !isPostgresRun else { return }  // PostgreSQL plans by its statistics
      let sql = try t.db.sql()
      let store = ExpenseStore(db: t.db, workspaceID: UUID())
      let query = try store.totalsQuery(ExpenseFilter(month: ExpenseMonth(year: 2026, month: 1)))
      let explain = SQLList([SQLRaw("EXPLAIN QUERY PLAN"), query.query], separator: SQLRaw(" "))
      let rows = try await sql.raw("\(explain)").all()
      let plan = try rows.map { try $0.decode(column: "detail", as: String.self) }
        .joined(separator: "\n")
      #expect(
        plan.contains(
          "USING INDEX expenses_user_counted_on (workspace_id=? AND <expr>>? AND <expr><?)"),
        "\(plan)")
    }
  }

  /// The totals of every live expense, or of one category, read one index and never the
  /// table (the index holds the category, the amount and only live rows).
  @Test func totalsAreAnsweredFromTheirIndexAlone() async throws {
    try await withApp { t in
      let sql = try t.db.sql()
      if isPostgresRun {
        let names = try await sql.raw(
          "SELECT indexname AS name FROM pg_indexes WHERE tablename = 'expenses'"
        ).all().map { try $0.decode(column: "name", as: String.self) }
        #expect(names.contains(M099_KeepExpenseMonthTotals.index))
        return  // PostgreSQL plans by its statistics
      }
      // On the writer, which made the index: a reader opened before it was made keeps the
      // schema it read for EXPLAIN (a real statement is prepared again when it runs).
      let storage = try #require(t.app.sqliteStorage)
      let store = ExpenseStore(db: t.db, workspaceID: UUID())
      for filter in [ExpenseFilter(), ExpenseFilter(category: .food), ExpenseFilter(text: "amber")]
      {
        var serializer = SQLSerializer(database: sql)
        try store.totalsQuery(filter).query.serialize(to: &serializer)
        let statement = "EXPLAIN QUERY PLAN " + serializer.sql
        let arguments = try SQLiteStorage.arguments(serializer.binds)
        let plan = try await storage.writer.writeWithoutTransaction { db in
          try Row.fetchAll(db, sql: statement, arguments: arguments).map { $0["detail"] as String }
        }.joined(separator: "\n")
        #expect(
          plan.contains("USING COVERING INDEX \(M099_KeepExpenseMonthTotals.index)"), "\(plan)")
      }
    }
  }

  @Test func migrationRevertsAndAppliesAgain() async throws {
    try await withApp { t in
      let migration = M020_CreateExpenses()
      // Receipts reference expenses: M095 goes first and comes back last.
      try await M095_AddFundraiserReports().revert(on: t.db)
      try await migration.revert(on: t.db)
      await #expect(throws: (any Error).self) {
        _ = try await ExpenseTable.query(on: t.db).count()
      }
      try await migration.prepare(on: t.db)
      try await M095_AddFundraiserReports().prepare(on: t.db)
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }

  /// Deleting an account deletes its expenses with it.
  @Test func expensesGoWithTheirAccount() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      try await client.addExpense(title: "Tea", amount: "2", db: t.db)
      let user = try #require(try await Accounts.find(email: email, on: t.db))
      if !isPostgresRun, let sql = t.db as? any SQLDatabase {
        // SQLite enforces foreign keys only when asked.
        try await sql.raw("PRAGMA foreign_keys = ON").run()
      }
      let sql = try t.db.sql()
      try await sql.raw("DELETE FROM users WHERE id = \(bind: user.id)").run()
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }
}
