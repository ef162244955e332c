import BackofficeCore
import Fluent
import Foundation
import SQLKit

/// The valid rows of an expenses CSV file as an import job stores and writes them.
struct ExpenseImportRows: ImportRows {
  /// One row in the job's JSON: exact values, nothing left to parse or round.
  struct Stored: Codable, Sendable {
    var title: String
    var cents: Int64
    var category: String
    /// Seconds since 1970 (a `Double` keeps a `Date` exactly); nil for an undated expense.
    var date: Double?
  }

  let expenses: [Expense]
  let keys: [String]

  init(_ expenses: [Expense]) {
    self.expenses = expenses
    keys = expenses.map { MatchKey.make($0.matchFields) }
  }

  init(json: String) throws {
    let stored = try JSONDecoder().decode([Stored].self, from: Data(json.utf8))
    self.init(
      stored.map { row in
        Expense(
          title: row.title, amount: MinorUnits(row.cents).decimal,
          category: ExpenseCategory(rawValue: row.category) ?? .default,
          date: row.date.map(Date.init(timeIntervalSince1970:)))
      })
  }

  /// The JSON a job keeps for `expenses`.
  static func json(_ expenses: [Expense]) throws -> String {
    let stored = try expenses.map { expense in
      guard let cents = MinorUnits(exactly: expense.amount)?.value else {
        throw ExpenseImportError.notExact
      }
      return Stored(
        title: expense.title, cents: cents, category: expense.category.rawValue,
        date: expense.date?.timeIntervalSince1970)
    }
    return String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
  }

  func present(_ keys: Set<String>, workspaceID: UUID, on db: any Database) async throws
    -> [String: Int]
  {
    try await ExpenseStore(db: db, workspaceID: workspaceID).matchCounts(keys)
  }

  func prepare(_ positions: [Int], workspaceID: UUID, start: Date) throws -> PreparedInsert {
    try PreparedInsert(
      positions.map { position in
        try ExpenseStore.newRow(
          expenses[position], workspaceID: workspaceID, position: position, start: start,
          matchKey: keys[position])
      })
  }
}

enum ExpenseImportError: Error {
  /// Cannot happen for validated rows: their amounts have at most two decimals.
  case notExact
}
