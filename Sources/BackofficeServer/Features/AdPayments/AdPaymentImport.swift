import BackofficeCore
import Fluent
import Foundation

/// The valid rows of an ad payments CSV file as an import job stores and writes them.
struct AdPaymentImportRows: ImportRows {
  let payments: [AdPayment]
  let keys: [String]

  init(_ payments: [AdPayment]) {
    self.payments = payments
    keys = payments.map { MatchKey.make($0.matchFields) }
  }

  init(json: String) throws {
    self.init(try JSONDecoder().decode([AdPayment].self, from: Data(json.utf8)))
  }

  /// The JSON a job keeps for `payments`.
  static func json(_ payments: [AdPayment]) throws -> String {
    String(decoding: try JSONEncoder().encode(payments), as: UTF8.self)
  }

  func present(_ keys: Set<String>, userID: UUID, on db: any Database) async throws
    -> [String: Int]
  {
    try await AdPaymentStore(db: db, userID: userID).matchCounts(keys)
  }

  func insert(_ positions: [Int], userID: UUID, start: Date, on db: any Database) async throws {
    let entries = positions.map { position in
      let entry = AdPaymentEntry(userID: userID, payment: payments[position])
      // A bulk insert writes the values as set; it does not make ids the way `create` does.
      entry.id = UUID()
      // File order, as if added one by one; set here because a bulk insert keeps them.
      entry.createdAt = start.addingTimeInterval(Double(position) / 1000)
      entry.updatedAt = entry.createdAt
      return entry
    }
    try await BulkInsert.insert(entries, on: db)
  }
}
