import BackofficeCore
import Fluent
import Foundation

/// A stored ad payment entry. `name` and `url` are kept as typed (trimmed); the other text
/// columns are derived from them on every write so the database can sort, search and find
/// duplicates with plain indexed comparisons.
final class AdPaymentEntry: Model, @unchecked Sendable {
  static let schema = "ad_payments"

  @ID(key: .id) var id: UUID?
  /// The workspace the record belongs to.
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "name") var name: String
  @Field(key: "url") var url: String
  /// `AdPaymentOrdering.sortKey(name)`: the list's order and the name half of the search.
  @Field(key: "sort_key") var sortKey: String
  /// `SearchNormalizer.normalize(url)`: the URL half of the search.
  @Field(key: "url_search") var urlSearch: String
  /// `AdPaymentURL.duplicateKey(url)`: entries sharing it get the duplicate warning.
  @Field(key: "url_key") var urlKey: String
  /// `MatchKey.make(payment.matchFields)`: how an import finds the entries the account already
  /// has.
  @Field(key: "match_key") var matchKey: String
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?
  /// One more on every change; see `RecordVersion`.
  @Field(key: "version") var version: Int

  init() {}

  init(workspaceID: UUID, payment: AdPayment) {
    self.workspaceID = workspaceID
    self.version = RecordVersion.first
    apply(payment)
  }

  /// Sets the entry's values and everything derived from them.
  func apply(_ payment: AdPayment) {
    name = payment.name
    url = payment.url
    sortKey = AdPaymentOrdering.sortKey(payment.name)
    urlSearch = SearchNormalizer.normalize(payment.url)
    urlKey = AdPaymentURL.duplicateKey(payment.url)
    matchKey = MatchKey.make(payment.matchFields)
  }

  var payment: AdPayment { AdPayment(name: name, url: url) }
}

extension AdPaymentEntry: VersionedRecord {
  var ownerID: UUID { workspaceID }
}
