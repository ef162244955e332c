import BackofficeCore
import Foundation
import SQLKit

/// The marketing catalog every account builds plans from, as plain values: one row, holding the
/// catalog as JSON together with where it came from and how the last refresh went.
/// `MarketingCatalogStore` is the only place with the `marketing_catalog` table's SQL.
struct MarketingCatalogRecord: Sendable, Equatable {
  static let table = "marketing_catalog"
  /// The value of `slot` for the one row; the unique index on it keeps concurrent seeding by
  /// several instances from creating a second row.
  static let currentSlot = "current"

  var id: UUID
  var slot: String
  /// `MarketingCatalog` encoded as JSON (prices as decimal strings).
  var catalogJSON: String
  /// "bundled", "refresh" or "upload".
  var source: String
  /// The base URL for a refresh, the file names for an upload.
  var sourceDetail: String?
  /// When the catalog now stored was obtained.
  var fetchedAt: Date
  /// Outcome of the last refresh attempt: "ok", "offline" or "error".
  var refreshState: String
  var refreshMessage: String?
  /// The interface language `refresh_message` was written in ("en", "uk"); nil before M089.
  var refreshLanguage: String?
  var refreshedAt: Date?

  /// The one row with a catalog nobody has refreshed yet, not stored yet.
  init(catalogJSON: String, source: String, sourceDetail: String?, fetchedAt: Date) {
    id = UUID.random()
    slot = Self.currentSlot
    self.catalogJSON = catalogJSON
    self.source = source
    self.sourceDetail = sourceDetail
    self.fetchedAt = fetchedAt
    refreshState = "ok"
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = """
    id, slot, catalog_json, source, source_detail, fetched_at, refresh_state, refresh_message, \
    refresh_language, refreshed_at
    """

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    slot = try row.decode(column: "slot", as: String.self)
    catalogJSON = try row.decode(column: "catalog_json", as: String.self)
    source = try row.decode(column: "source", as: String.self)
    sourceDetail = try row.decode(column: "source_detail", as: String?.self)
    fetchedAt = try row.decode(column: "fetched_at", as: Date.self)
    refreshState = try row.decode(column: "refresh_state", as: String.self)
    refreshMessage = try row.decode(column: "refresh_message", as: String?.self)
    refreshLanguage = try row.decode(column: "refresh_language", as: String?.self)
    refreshedAt = try row.decode(column: "refreshed_at", as: Date?.self)
  }

  /// The catalog as a new row of `marketing_catalog`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(
      table: Self.table,
      columns: [
        "id", "slot", "catalog_json", "source", "source_detail", "fetched_at", "refresh_state",
        "refresh_message", "refresh_language", "refreshed_at",
      ],
      values: [
        id, slot, catalogJSON, source, sourceDetail, fetchedAt, refreshState, refreshMessage,
        refreshLanguage, refreshedAt,
      ])
  }
}

/// JSON for the stored catalog and selections; sorted keys so equal values are equal text.
enum MarketingJSON {
  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding these plain value types cannot fail.
    guard let data = try? encoder.encode(value) else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }

  /// A selection that cannot be read (edited by hand, say) is treated as empty rather than
  /// making the plan unusable.
  static func decodeSelection(_ text: String) -> PlanSelection {
    (try? JSONDecoder().decode(PlanSelection.self, from: Data(text.utf8))) ?? PlanSelection()
  }
}
