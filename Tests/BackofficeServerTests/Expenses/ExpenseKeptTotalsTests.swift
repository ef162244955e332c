import BackofficeCore
import Fluent
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import BackofficeServer

/// On SQLite, totals for the whole workspace, a month or a category read the sums triggers
/// keep by month and category (M099). After random insertions, changes of amount, category
/// and date, deletions, restores and removals, those sums must give exactly what summing the
/// expenses gives, for every filter they answer.
@Suite("Expenses: kept totals")
struct ExpenseKeptTotalsTests {
  /// Each category's count and the two summed parts, as the database printed them.
  private func lines(_ query: SQLSelectBuilder) async throws -> [String] {
    try await query.all().map { row in
      "\(try row.decode(column: "category", as: String.self)) "
        + "\(try row.decode(column: "line_count", as: Int.self)) "
        + "\(try row.decode(column: "line_high", as: String.self)) "
        + "\(try row.decode(column: "line_low", as: String.self))"
    }.sorted()
  }

  @Test func keptSumsAreTheSummedOnes() async throws {
    try await withApp { t in
      guard !isPostgresRun else { return }  // PostgreSQL sums when asked (M099)
      let sql = try t.db.sql()
      let client = t.client()
      let email = try await client.signUp()
      let workspaceID = try await t.workspaceID(of: email)
      let other = t.client()
      let otherID = try await t.workspaceID(of: try await other.signUp())
      let store = ExpenseStore(db: t.db, workspaceID: workspaceID)

      // 2025-12-01T00:00:00Z and the months around it.
      let december: Double = 1_764_547_200
      let starts = [december - 30 * 86_400, december, december + 31 * 86_400]
      let categories = ExpenseCategory.allCases.map(\.rawValue)
      var random = SeededGenerator(seed: 99)
      var ids: [UUID] = []

      func insert(in workspace: UUID) async throws {
        let id = UUID()
        let start = starts[Int(random.next() % 3)]
        // Dated at midnight, or undated and recorded at some moment of the month, sometimes
        // a fraction of a second before it ends.
        let dated = random.next() % 2 == 0
        let moment =
          random.next() % 5 == 0 ? december - 0.0004 : start + Double(random.next() % 2_000_000)
        let amounts: [Int64] = [1, 99, 12_345, 100_000_000_000_000, 999_999_999]
        try await sql.raw(
          """
          INSERT INTO expenses (id, workspace_id, title, title_key, amount_cents, category,
            spent_at, created_at, updated_at, version, match_key)
          VALUES (\(bind: id), \(bind: workspace), 'T', 't',
            \(bind: amounts[Int(random.next() % 5)]),
            \(bind: categories[Int(random.next() % UInt64(categories.count))]),
            \(bind: dated ? start : nil as Double?), \(bind: moment), \(bind: moment), 1, '')
          """
        ).run()
        if workspace == workspaceID { ids.append(id) }
      }

      for _ in 0..<40 { try await insert(in: workspaceID) }
      for _ in 0..<5 { try await insert(in: otherID) }
      for step in 0..<120 {
        guard !ids.isEmpty else { break }
        let id = ids[Int(random.next() % UInt64(ids.count))]
        switch random.next() % 8 {
        case 0:
          try await sql.raw(
            "UPDATE expenses SET amount_cents = \(bind: Int64(random.next() % 10_000_000)) WHERE id = \(bind: id)"
          ).run()
        case 1:
          let category = categories[Int(random.next() % UInt64(categories.count))]
          try await sql.raw(
            "UPDATE expenses SET category = \(bind: category) WHERE id = \(bind: id)"
          )
          .run()
        case 2:
          let start = starts[Int(random.next() % 3)]
          try await sql.raw("UPDATE expenses SET spent_at = \(bind: start) WHERE id = \(bind: id)")
            .run()
        case 3:
          try await sql.raw("UPDATE expenses SET spent_at = NULL WHERE id = \(bind: id)").run()
        case 4:
          try await sql.raw("UPDATE expenses SET deleted_at = 1 WHERE id = \(bind: id)").run()
        case 5:
          try await sql.raw("UPDATE expenses SET deleted_at = NULL WHERE id = \(bind: id)").run()
        case 6:
          try await sql.raw("DELETE FROM expenses WHERE id = \(bind: id)").run()
          ids.removeAll { $0 == id }
        default:
          try await insert(in: workspaceID)
        }
        guard step % 30 == 29 else { continue }
        var filters = [ExpenseFilter()]
        for month in [(2025, 11), (2025, 12), (2026, 1), (2026, 2)] {
          let month = try #require(ExpenseMonth(year: month.0, month: month.1))
          filters.append(ExpenseFilter(month: month))
          filters.append(ExpenseFilter(category: .food, month: month))
        }
        for category in ExpenseCategory.allCases {
          filters.append(ExpenseFilter(category: category))
        }
        for filter in filters {
          let kept = try await lines(try #require(try store.keptTotalsQuery(filter)))
          let summed = try await lines(try store.totalsQuery(filter))
          #expect(kept == summed, "\(filter)")
        }
      }
      // Other filters are summed from the expenses.
      #expect(try store.keptTotalsQuery(ExpenseFilter(text: "t")) == nil)
    }
  }
}
