import BackofficeCore
import Fluent
import FluentSQL
import Foundation
import SQLKit

/// Every ad payment query, always scoped to one account. Pages and the API both go through
/// here, so an entry of another account is simply never found.
struct AdPaymentStore {
  var db: any Database
  var workspaceID: UUID

  /// One page of the list in name order, narrowed by `search` (name or URL, ignoring case and
  /// accents), with the number of matching entries.
  struct Slice {
    var items: [AdPaymentEntry]
    var total: Int
  }

  func list(search: String, page: Int, per: Int) async throws -> Slice {
    let query = filtered(search: search)
    let total = try await query.copy().count()
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return Slice(items: [], total: total) }
    let items = try await sorted(query).offset(offset).limit(per).all()
    return Slice(items: items, total: total)
  }

  /// Every entry in name order (for the CSV export).
  func all() async throws -> [AdPaymentEntry] {
    try await sorted(scoped()).all()
  }

  func count() async throws -> Int {
    try await scoped().count()
  }

  /// The entry with this id in this account; nil for another account's id, an unknown id or
  /// text that is not an id at all.
  func find(_ id: String?) async throws -> AdPaymentEntry? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await scoped().filter(\.$id == id).first()
  }

  /// Other entries whose link is the same as `url` by `AdPaymentURL.duplicateKey`, in name
  /// order. Only valid links are compared: a warning about a link that cannot be saved anyway
  /// would be noise.
  func sameURL(as url: String, excluding id: UUID? = nil, limit: Int = 5) async throws
    -> [AdPaymentEntry]
  {
    guard !AdPaymentDraft(name: "", url: url).errors.contains(.invalidURL) else { return [] }
    var query = scoped().filter(\.$urlKey == AdPaymentURL.duplicateKey(url))
    if let id { query = query.filter(\.$id != id) }
    return try await sorted(query).limit(limit).all()
  }

  /// How many of the account's entries have each of `keys` (`AdPaymentEntry.matchKey`).
  func matchCounts(_ keys: Set<String>) async throws -> [String: Int] {
    try await MatchKey.counts(
      keys, in: AdPaymentEntry.schema, workspaceID: workspaceID, on: ImportJobStore.sql(db))
  }

  // MARK: writes

  /// Adds `payment` to the workspace: the new entry, with its id and first version.
  func create(_ payment: AdPayment) async throws -> AdPaymentEntry {
    let entry = AdPaymentEntry(workspaceID: workspaceID, payment: payment)
    try await entry.create(on: db)
    return entry
  }

  /// `entry` changed to `payment`, only from version `expected` (any version when nil); false
  /// when it was changed or deleted since, and then nothing is written.
  func update(_ entry: AdPaymentEntry, to payment: AdPayment, expected: Int?) async throws -> Bool {
    try await entry.write(expected: expected, on: db) { db in
      entry.apply(payment)
      try await entry.save(on: db)
    }
  }

  /// Deletes `entry` if it is still at version `expected` (any version when nil).
  func delete(_ entry: AdPaymentEntry, expected: Int?) async throws -> Bool {
    try await entry.write(expected: expected, on: db) { db in try await entry.delete(on: db) }
  }

  private func scoped() -> QueryBuilder<AdPaymentEntry> {
    AdPaymentEntry.query(on: db).filter(\.$workspaceID == workspaceID)
  }

  private func filtered(search: String) -> QueryBuilder<AdPaymentEntry> {
    let needle = SearchNormalizer.normalize(search)
    let query = scoped()
    guard !needle.isEmpty else { return query }
    return query.group(.or) { group in
      group.filter(
        .sql(ContainsPattern(column: "sort_key", table: AdPaymentEntry.schema, needle: needle)))
      group.filter(
        .sql(ContainsPattern(column: "url_search", table: AdPaymentEntry.schema, needle: needle)))
    }
  }

  /// The order of `AdPaymentOrdering`: sort key, then the exact name, then input order.
  private func sorted(_ query: QueryBuilder<AdPaymentEntry>) -> QueryBuilder<AdPaymentEntry> {
    query.sort(\.$sortKey).sort(\.$name).sort(\.$createdAt).sort(\.$id)
  }
}
