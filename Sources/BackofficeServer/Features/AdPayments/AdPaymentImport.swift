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

  func present(_ keys: Set<String>, workspaceID: UUID, on db: any Database) async throws
    -> [String: Int]
  {
    try await AdPaymentStore(db: db, workspaceID: workspaceID).matchCounts(keys)
  }

  func prepare(_ positions: [Int], workspaceID: UUID, start: Date) throws -> PreparedInsert {
    try PreparedInsert(
      positions.map { position in
        let created = start.addingTimeInterval(Double(position) / 1000)
        return AdPaymentStore.newEntry(
          id: UUID.random(), workspaceID: workspaceID, payments[position], createdAt: created,
          updatedAt: created)
      })
  }
}
