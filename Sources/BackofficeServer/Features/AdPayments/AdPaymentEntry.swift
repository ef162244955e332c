import BackofficeCore
import Foundation
import SQLKit

/// A stored ad payment entry, as plain values: what every read of `AdPaymentStore` gives
/// (the only place with the `ad_payments` table's SQL). `name` and `url` are kept as typed
/// (trimmed); the table's other text columns are derived from them on every write
/// (`AdPaymentStore.Values`) so the database can sort, search and find duplicates with plain
/// indexed comparisons.
struct AdPaymentEntry: Sendable, Equatable {
  var id: UUID
  var name: String
  var url: String
  var createdAt: Date?
  var updatedAt: Date?
  /// One more on every change; see `RecordVersion`.
  var version: Int

  /// The columns every read selects, in the order `init(_:)` reads them.
  static let columns = "id, name, url, created_at, updated_at, version"

  init(
    id: UUID, name: String, url: String, createdAt: Date?, updatedAt: Date?, version: Int
  ) {
    self.id = id
    self.name = name
    self.url = url
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.version = version
  }

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    name = try row.decode(column: "name", as: String.self)
    url = try row.decode(column: "url", as: String.self)
    createdAt = try row.decode(column: "created_at", as: Date?.self)
    updatedAt = try row.decode(column: "updated_at", as: Date?.self)
    version = try row.decode(column: "version", as: Int.self)
  }

  var payment: AdPayment { AdPayment(name: name, url: url) }
}
