import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Where the stored catalog came from.
enum MarketingCatalogSource: String, Sendable, Codable {
  case bundled, refresh, upload
}

/// How the last refresh went. Anything but `.ok` keeps the previous catalog and is shown to
/// people as a banner until a later refresh or upload succeeds.
enum MarketingRefreshStatus: Hashable, Sendable {
  case ok
  /// The host could not be reached in time (no connection, DNS, timeout); `reason` says which.
  case offline(reason: String)
  /// The host answered with something unusable (HTTP error, bad JSON): the real message.
  case error(message: String)

  var state: String {
    switch self {
    case .ok: "ok"
    case .offline: "offline"
    case .error: "error"
    }
  }

  var message: String? {
    switch self {
    case .ok: nil
    case .offline(let reason): reason
    case .error(let message): message
    }
  }

  init(state: String, message: String?) {
    switch state {
    case "offline": self = .offline(reason: message ?? "")
    case "error": self = .error(message: message ?? "")
    default: self = .ok
    }
  }
}

/// The stored catalog with its provenance, read once per request.
struct StoredMarketingCatalog: Sendable {
  var catalog: MarketingCatalog
  var source: MarketingCatalogSource
  var sourceDetail: String?
  var fetchedAt: Date
  var status: MarketingRefreshStatus
  var refreshedAt: Date?
  /// The language the failure's words were recorded in (by whoever ran the refresh; the
  /// command line writes English): a page in another language marks them with it.
  var statusLanguage: UILanguage? = nil

  var packageCount: Int { catalog.channels.reduce(0) { $0 + $1.packages.count } }
}

/// The stored catalog could not be read back (for example the row was edited by hand).
struct MarketingCatalogUnreadable: Error, CustomStringConvertible {
  var description: String
}

/// Reads and replaces the one shared catalog, and keeps plans in step with it.
enum MarketingCatalogStore {
  /// Inserts the bundled catalog when there is none. Safe to run from several instances at
  /// once: the second insert trips the unique slot and is ignored once the row is there.
  static func seedIfEmpty(on db: any Database, now: Date) async throws {
    if try await record(on: db) != nil { return }
    let row = MarketingCatalogRecord(
      catalogJSON: MarketingJSON.encode(MarketingCatalog.bundledDefault),
      source: MarketingCatalogSource.bundled.rawValue, sourceDetail: nil, fetchedAt: now)
    do {
      try await PreparedInsert([row.newRow]).run(on: db)
    } catch {
      if try await record(on: db) == nil { throw error }
    }
  }

  /// The one row, if there is one.
  static func record(on db: any Database) async throws -> MarketingCatalogRecord? {
    try await db.sql().raw(
      """
      SELECT \(unsafeRaw: MarketingCatalogRecord.columns) FROM marketing_catalog
      WHERE slot = \(bind: MarketingCatalogRecord.currentSlot)
      """
    ).first().map(MarketingCatalogRecord.init)
  }

  /// The current catalog, seeding the bundled one if the row is missing.
  static func current(on db: any Database, now: Date) async throws -> StoredMarketingCatalog {
    var row = try await record(on: db)
    if row == nil {
      try await seedIfEmpty(on: db, now: now)
      row = try await record(on: db)
    }
    guard let row else { throw MarketingCatalogUnreadable(description: "no catalog row") }
    return try stored(from: row)
  }

  static func stored(from row: MarketingCatalogRecord) throws -> StoredMarketingCatalog {
    let catalog: MarketingCatalog
    do {
      catalog = try JSONDecoder().decode(MarketingCatalog.self, from: Data(row.catalogJSON.utf8))
    } catch {
      throw MarketingCatalogUnreadable(description: "stored catalog is not readable: \(error)")
    }
    return StoredMarketingCatalog(
      catalog: catalog,
      source: MarketingCatalogSource(rawValue: row.source) ?? .bundled,
      sourceDetail: row.sourceDetail,
      fetchedAt: row.fetchedAt,
      status: MarketingRefreshStatus(state: row.refreshState, message: row.refreshMessage),
      refreshedAt: row.refreshedAt,
      statusLanguage: row.refreshLanguage.flatMap(UILanguage.init(code:)))
  }

  /// Stores a new catalog and drops from every plan what it no longer offers. Returns how many
  /// plans changed.
  @discardableResult
  static func replace(
    with catalog: MarketingCatalog, source: MarketingCatalogSource, detail: String?,
    on db: any Database, now: Date
  ) async throws -> Int {
    try await seedIfEmpty(on: db, now: now)
    try await db.transaction { db in
      guard let row = try await record(on: db) else { return }
      try await db.sql().raw(
        """
        UPDATE marketing_catalog SET catalog_json = \(bind: MarketingJSON.encode(catalog)),
          source = \(bind: source.rawValue), source_detail = \(bind: detail),
          fetched_at = \(bind: now), refresh_state = \(bind: MarketingRefreshStatus.ok.state),
          refresh_message = NULL, refresh_language = NULL, refreshed_at = \(bind: now)
        WHERE id = \(bind: row.id)
        """
      ).run()
    }
    return try await reconcilePlans(with: catalog, on: db)
  }

  /// Records a failed refresh; the stored catalog stays as it is.
  static func recordFailure(_ status: MarketingRefreshStatus, on db: any Database, now: Date)
    async throws
  {
    try await seedIfEmpty(on: db, now: now)
    guard let row = try await record(on: db) else { return }
    let language = status.message == nil ? nil : UILanguage.current.rawValue
    try await db.sql().raw(
      """
      UPDATE marketing_catalog SET refresh_state = \(bind: status.state),
        refresh_message = \(bind: status.message), refresh_language = \(bind: language),
        refreshed_at = \(bind: now)
      WHERE id = \(bind: row.id)
      """
    ).run()
  }

  /// Runs `PlanSelection.reconcile` over every plan of every account, a page at a time.
  static func reconcilePlans(with catalog: MarketingCatalog, on db: any Database) async throws
    -> Int
  {
    var changed = 0
    var lastID: UUID?
    while true {
      let plans = try await MarketingPlanQueries.plans(after: lastID, limit: 200, on: db)
      guard let last = plans.last else { break }
      for plan in plans {
        if try await reconcile(plan, with: catalog, on: db) { changed += 1 }
      }
      lastID = last.id
    }
    return changed
  }

  /// Drops from one plan what `catalog` no longer offers, as a versioned change; a plan
  /// changed at the same moment is read again and reconciled once more. True when it changed.
  private static func reconcile(
    _ plan: MarketingPlanRecord, with catalog: MarketingCatalog, on db: any Database
  ) async throws -> Bool {
    var current = plan
    for _ in 0..<3 {
      var selection = current.selection
      guard selection.reconcile(with: catalog) else { return false }
      let reconciled = selection
      let written = try await MarketingPlanQueries.save(
        &current, expected: current.version, on: db
      ) { $0.selection = reconciled }
      if written { return true }
      guard
        let fresh = try await MarketingPlanQueries.plan(
          current.id, in: current.workspaceID, on: db)
      else { return false }
      current = fresh
    }
    return false
  }
}
