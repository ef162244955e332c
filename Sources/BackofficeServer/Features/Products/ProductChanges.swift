import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The catalog's change feed: what a device needs to keep its own copy of the catalog up to
/// date without downloading it whole each time (`GET /api/v1/product-changes`). Changes are
/// numbered per account by database triggers (`M090_CreateProductChanges`); a device keeps the
/// number of the last change it applied (the cursor) and asks for the ones after it.
enum ProductChanges {
  /// How long a deleted product's tombstone is kept. A device that was away longer gets the
  /// whole catalog again instead of the changes (`reset`).
  static let tombstoneRetention: TimeInterval = 90 * 24 * 60 * 60
  static let defaultLimit = 500
  static let maxLimit = 1000

  /// One change: a product as it is now (added, edited, starred or unstarred), or the id of
  /// one that was deleted.
  struct Change: Sendable {
    var seq: Int64
    var id: UUID
    var deleted: Bool
    /// The product as the API shows it; absent for a deletion.
    var product: ProductRow?
    /// The product's search key (`SearchNormalizer`): a device searches its copy by prefix
    /// on these, exactly as the server does.
    var nameKey: String?
    var typeKey: String?
    /// When the product was starred by the reader, for the favourites row's order.
    var favoritedAt: Date?
  }

  /// One page of the feed.
  struct Feed: Sendable {
    var changes: [Change]
    /// Ask for the changes after this next time.
    var cursor: Int64
    /// More changes are waiting: ask again with `cursor` at once.
    var hasMore: Bool
    /// The changes start from nothing: the device drops its copy before applying them (a
    /// first sync, a cursor from before the oldest tombstone, or one this server never gave).
    var reset: Bool
    /// The account's formatting of the `*_display` texts (locale, currency, language); when
    /// it differs from the one a copy was made with, the copy is fetched anew.
    var format: String
    /// The account the products' texts are formatted for (not written itself).
    var account: AccountFormat
  }

  /// The changes after `since`, at most `limit`, in the workspace `workspaceID` read by `viewer`
  /// (whose stars are the `favorite` marks).
  static func feed(
    since requested: Int64, limit: Int, workspaceID: UUID, viewer: UUID, account: AccountFormat,
    format: String, on db: any Database
  ) async throws -> Feed {
    let counter = try await DirectQuery.first(
      """
      SELECT last_change, purged_through FROM product_change_counters
      WHERE workspace_id = \(bind: workspaceID)
      """ as SQLQueryString, on: db)
    let last = try counter?.decode(column: "last_change", as: Int64.self) ?? 0
    let purged = try counter?.decode(column: "purged_through", as: Int64.self) ?? 0
    // A cursor past the last change (a database restored from an older backup) or before the
    // oldest tombstone cannot be continued from: start again from nothing.
    let since = requested > last || requested < purged ? 0 : requested

    let productRows = try await DirectQuery.rows(
      """
      SELECT \(unsafeRaw: ProductStore.columns),
        CASE WHEN f.id IS NULL THEN 0 ELSE 1 END AS favorite, p.change_seq,
        f.created_at AS favorited_at
      FROM products p
      LEFT JOIN product_favorites f ON f.user_id = \(bind: viewer) AND f.product_id = p.id
      WHERE p.workspace_id = \(bind: workspaceID) AND p.change_seq > \(bind: since)
      ORDER BY p.change_seq LIMIT \(bind: limit)
      """ as SQLQueryString, on: db)
    var changes: [Change] = try productRows.map { row in
      let product = try ProductRow(row)
      return Change(
        seq: try row.decode(column: "change_seq", as: Int64.self), id: product.id,
        deleted: false, product: product,
        nameKey: try row.decode(column: "name_key", as: String.self),
        typeKey: try row.decode(column: "type_key", as: String.self),
        favoritedAt: try row.decode(column: "favorited_at", as: Date?.self))
    }
    var full = productRows.count == limit
    // A copy made from nothing has nothing to delete.
    if since > 0 {
      let tombstones = try await DirectQuery.rows(
        """
        SELECT product_id, change_seq FROM product_tombstones
        WHERE workspace_id = \(bind: workspaceID) AND change_seq > \(bind: since)
        ORDER BY change_seq LIMIT \(bind: limit)
        """ as SQLQueryString, on: db)
      full = full || tombstones.count == limit
      changes += try tombstones.map { row in
        Change(
          seq: try row.decode(column: "change_seq", as: Int64.self),
          id: try row.decode(column: "product_id", as: UUID.self), deleted: true)
      }
      changes.sort { $0.seq < $1.seq }
    }
    let more = full || changes.count > limit
    if changes.count > limit { changes.removeLast(changes.count - limit) }
    // On the last page every change up to `last` has been sent or is one the copy does not
    // need (a deletion of a product a fresh copy never had), so the cursor moves there.
    let cursor = max(changes.last?.seq ?? since, more ? since : max(last, since))
    return Feed(
      changes: changes, cursor: cursor, hasMore: more, reset: since == 0, format: format,
      account: account)
  }

  /// Drops the account's tombstones older than the retention period, oldest first, a hundred
  /// at a time (called on each delete, so an account's tombstones never pile up), and moves
  /// the point before which cursors are refused.
  static func purgeTombstones(workspaceID: UUID, now: Date, on db: any Database) async throws {
    let sql = try db.sql()
    let cutoff = Int64(now.addingTimeInterval(-tombstoneRetention).timeIntervalSince1970)
    let oldest = try await sql.raw(
      """
      SELECT change_seq, deleted_at FROM product_tombstones WHERE workspace_id = \(bind: workspaceID)
      ORDER BY change_seq LIMIT 100
      """
    ).all()
    var through: Int64?
    for row in oldest {
      guard try row.decode(column: "deleted_at", as: Int64.self) < cutoff else { break }
      through = try row.decode(column: "change_seq", as: Int64.self)
    }
    guard let through else { return }
    try await sql.raw(
      """
      DELETE FROM product_tombstones
      WHERE workspace_id = \(bind: workspaceID) AND change_seq <= \(bind: through)
      """
    ).run()
    try await sql.raw(
      """
      UPDATE product_change_counters SET purged_through = \(bind: through)
      WHERE workspace_id = \(bind: workspaceID) AND purged_through < \(bind: through)
      """
    ).run()
  }
}

extension ProductsAPIController {
  /// `GET /api/v1/product-changes?since=&limit=`: see `ProductChanges`.
  @Sendable func changes(req: Request) async throws -> Response {
    let user = try req.user
    let account = AccountFormat(user)
    var problems: [String: String] = [:]
    var since: Int64 = 0
    if let raw = req.queryValue("since") {
      if let value = Int64(raw), value >= 0 {
        since = value
      } else {
        problems["since"] = L("products.changes.since_invalid")
      }
    }
    var limit = ProductChanges.defaultLimit
    if let raw = req.queryValue("limit") {
      if let value = Int(raw), (1...ProductChanges.maxLimit).contains(value) {
        limit = value
      } else {
        problems["limit"] = L("api.paging.range", ["max": String(ProductChanges.maxLimit)])
      }
    }
    guard problems.isEmpty else { throw APIError.validation(problems) }
    let workspaceID = try req.workspaceID
    let feed = try await ProductChanges.feed(
      since: since, limit: limit, workspaceID: workspaceID, viewer: try req.userID,
      account: account,
      format: PageContext.catalogFormat(
        locale: account.locale, currency: account.currency, language: req.uiLanguage),
      on: req.db)
    let response = APIResponse.json(bytes: ProductJSON.feed(feed))
    response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-store")
    return response
  }
}
