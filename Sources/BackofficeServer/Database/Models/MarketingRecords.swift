import BackofficeCore
import Fluent
import Foundation
import Vapor

/// The marketing catalog every account builds plans from: one row, holding the catalog as JSON
/// together with where it came from and how the last refresh went.
final class MarketingCatalogRecord: Model, @unchecked Sendable {
  static let schema = "marketing_catalog"
  /// The value of `slot` for the one row; the unique index on it keeps concurrent seeding by
  /// several instances from creating a second row.
  static let currentSlot = "current"

  @ID(key: .id) var id: UUID?
  @Field(key: "slot") var slot: String
  /// `MarketingCatalog` encoded as JSON (prices as decimal strings).
  @Field(key: "catalog_json") var catalogJSON: String
  /// "bundled", "refresh" or "upload".
  @Field(key: "source") var source: String
  /// The base URL for a refresh, the file names for an upload.
  @OptionalField(key: "source_detail") var sourceDetail: String?
  /// When the catalog now stored was obtained.
  @Field(key: "fetched_at") var fetchedAt: Date
  /// Outcome of the last refresh attempt: "ok", "offline" or "error".
  @Field(key: "refresh_state") var refreshState: String
  @OptionalField(key: "refresh_message") var refreshMessage: String?
  /// The interface language `refresh_message` was written in ("en", "uk"); nil before M089.
  @OptionalField(key: "refresh_language") var refreshLanguage: String?
  @OptionalField(key: "refreshed_at") var refreshedAt: Date?

  init() {}

  init(catalogJSON: String, source: String, sourceDetail: String?, fetchedAt: Date) {
    self.slot = Self.currentSlot
    self.catalogJSON = catalogJSON
    self.source = source
    self.sourceDetail = sourceDetail
    self.fetchedAt = fetchedAt
    self.refreshState = "ok"
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
