import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Every ad payment query, always scoped to one account, and the only place with the
/// `ad_payments` table's SQL (SQLKit, the same on SQLite and PostgreSQL). Pages, the API,
/// imports and restores all go through here, so an entry of another account is simply never
/// found.
struct AdPaymentStore {
  static let table = "ad_payments"

  var db: any Database
  var workspaceID: UUID

  /// One page of the list in name order, narrowed by `search` (name or URL, ignoring case and
  /// accents), with the number of matching entries.
  struct Slice {
    var items: [AdPaymentEntry]
    var total: Int
  }

  func list(search: String, page: Int, per: Int) async throws -> Slice {
    let conditions = conditions(search: search)
    let total =
      try await DirectQuery.first(
        "SELECT COUNT(*) AS total FROM ad_payments WHERE \(conditions)" as SQLQueryString, on: db
      )?.decode(column: "total", as: Int.self) ?? 0
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return Slice(items: [], total: total) }
    let items = try await entries(
      "WHERE \(conditions) \(unsafeRaw: Self.order) LIMIT \(bind: per) OFFSET \(bind: offset)")
    return Slice(items: items, total: total)
  }

  /// Every entry in name order (for the CSV export).
  func all() async throws -> [AdPaymentEntry] {
    try await entries("WHERE workspace_id = \(bind: workspaceID) \(unsafeRaw: Self.order)")
  }

  /// Every entry in the order they were added (the backup).
  func allByAge() async throws -> [AdPaymentEntry] {
    try await entries("WHERE workspace_id = \(bind: workspaceID) ORDER BY created_at, id")
  }

  func count() async throws -> Int {
    try await DirectQuery.first(
      "SELECT COUNT(*) AS total FROM ad_payments WHERE workspace_id = \(bind: workspaceID)"
        as SQLQueryString, on: db
    )?.decode(column: "total", as: Int.self) ?? 0
  }

  /// The entry with this id in this account; nil for another account's id, an unknown id or
  /// text that is not an id at all.
  func find(_ id: String?) async throws -> AdPaymentEntry? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await find(id)
  }

  func find(_ id: UUID) async throws -> AdPaymentEntry? {
    try await entries("WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID)").first
  }

  /// Other entries whose link is the same as `url` by `AdPaymentURL.duplicateKey`, in name
  /// order. Only valid links are compared: a warning about a link that cannot be saved anyway
  /// would be noise.
  func sameURL(as url: String, excluding id: UUID? = nil, limit: Int = 5) async throws
    -> [AdPaymentEntry]
  {
    guard !AdPaymentDraft(name: "", url: url).errors.contains(.invalidURL) else { return [] }
    var conditions: SQLQueryString = """
      workspace_id = \(bind: workspaceID) AND url_key = \(bind: AdPaymentURL.duplicateKey(url))
      """
    if let id { conditions += " AND id <> \(bind: id)" }
    return try await entries(
      "WHERE \(conditions) \(unsafeRaw: Self.order) LIMIT \(bind: max(0, limit))")
  }

  /// How many of the account's entries have each of `keys` (`Values.matchKey`).
  func matchCounts(_ keys: Set<String>) async throws -> [String: Int] {
    try await MatchKey.counts(
      keys, in: Self.table, workspaceID: workspaceID, on: db.sql())
  }

  // MARK: writes

  /// An entry's stored values: what was typed and what is derived from it.
  struct Values: Sendable, Equatable {
    var name: String
    var url: String
    /// `AdPaymentOrdering.sortKey(name)`: the list's order and the name half of the search.
    var sortKey: String
    /// `SearchNormalizer.normalize(url)`: the URL half of the search.
    var urlSearch: String
    /// `AdPaymentURL.duplicateKey(url)`: entries sharing it get the duplicate warning.
    var urlKey: String
    /// `MatchKey.make(payment.matchFields)`: how an import finds the entries the account
    /// already has.
    var matchKey: String

    init(_ payment: AdPayment) {
      name = payment.name
      url = payment.url
      sortKey = AdPaymentOrdering.sortKey(payment.name)
      urlSearch = SearchNormalizer.normalize(payment.url)
      urlKey = AdPaymentURL.duplicateKey(payment.url)
      matchKey = MatchKey.make(payment.matchFields)
    }
  }

  /// A new entry's row: the only list of the table's columns that writes them (the forms, the
  /// API, imports and restores all send it).
  static func newEntry(
    id: UUID, workspaceID: UUID, _ payment: AdPayment, version: Int = RecordVersion.first,
    createdAt: Date, updatedAt: Date
  ) -> NewRow {
    let values = Values(payment)
    return NewRow(
      table: table,
      columns: [
        "id", "workspace_id", "name", "url", "sort_key", "url_search", "url_key", "match_key",
        "created_at", "updated_at", "version",
      ],
      values: [
        id, workspaceID, values.name, values.url, values.sortKey, values.urlSearch,
        values.urlKey, values.matchKey, createdAt, updatedAt, version,
      ])
  }

  /// Inserts new rows (`newEntry`), `BulkInsert.defaultBatch` per statement.
  func insert(_ rows: [NewRow]) async throws {
    try await PreparedInsert(rows).run(on: db)
  }

  /// Adds `payment` to the workspace: the new entry, with its id and first version.
  func create(_ payment: AdPayment) async throws -> AdPaymentEntry {
    let (id, now) = (UUID.random(), Date())
    try await insert([
      Self.newEntry(id: id, workspaceID: workspaceID, payment, createdAt: now, updatedAt: now)
    ])
    // What was written, without reading it back (one statement, as it was with the model).
    return AdPaymentEntry(
      id: id, name: payment.name, url: payment.url, createdAt: now, updatedAt: now,
      version: RecordVersion.first)
  }

  /// `entry` changed to `payment`, only from version `expected` (any version when nil): the
  /// entry as saved, or nil when it was changed or deleted since, and then nothing is written.
  func update(_ entry: AdPaymentEntry, to payment: AdPayment, expected: Int?) async throws
    -> AdPaymentEntry?
  {
    let (owner, id) = (workspaceID, entry.id)
    let saved = try await RecordVersion.write(
      Self.table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      let store = AdPaymentStore(db: db, workspaceID: owner)
      let values = Values(payment)
      try await store.sql.raw(
        """
        UPDATE ad_payments SET name = \(bind: values.name), url = \(bind: values.url),
          sort_key = \(bind: values.sortKey), url_search = \(bind: values.urlSearch),
          url_key = \(bind: values.urlKey), match_key = \(bind: values.matchKey),
          updated_at = \(bind: Date())
        WHERE id = \(bind: id) AND workspace_id = \(bind: owner)
        """
      ).run()
      return try await store.find(id)
    }
    return saved ?? nil
  }

  /// Deletes `entry` if it is still at version `expected` (any version when nil).
  func delete(_ entry: AdPaymentEntry, expected: Int?) async throws -> Bool {
    let (owner, id) = (workspaceID, entry.id)
    let deleted: Void? = try await RecordVersion.write(
      Self.table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      try await AdPaymentStore(db: db, workspaceID: owner).sql.raw(
        "DELETE FROM ad_payments WHERE id = \(bind: id) AND workspace_id = \(bind: owner)"
      ).run()
    }
    return deleted != nil
  }

  // MARK: building queries

  /// The order of `AdPaymentOrdering`: sort key, then the exact name, then input order.
  private static let order = "ORDER BY sort_key, name, created_at, id"

  /// The entries `clause` (what follows `FROM ad_payments`) selects.
  private func entries(_ clause: SQLQueryString) async throws -> [AdPaymentEntry] {
    try await DirectQuery.rows(
      "SELECT \(unsafeRaw: AdPaymentEntry.columns) FROM ad_payments \(clause)" as SQLQueryString,
      on: db
    ).map(AdPaymentEntry.init)
  }

  /// The account's entries matching `search` (name or URL, ignoring case and accents).
  private func conditions(search: String) -> SQLQueryString {
    var conditions: SQLQueryString = "workspace_id = \(bind: workspaceID)"
    let needle = SearchNormalizer.normalize(search)
    guard !needle.isEmpty else { return conditions }
    conditions += """
       AND (\(ContainsPattern(column: "sort_key", table: Self.table, needle: needle))
        OR \(ContainsPattern(column: "url_search", table: Self.table, needle: needle)))
      """
    return conditions
  }

  private var sql: any SQLDatabase {
    get throws { try db.sql() }
  }
}
