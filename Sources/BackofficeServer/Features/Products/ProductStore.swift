import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Every product query, always scoped to one account: pages, the native API and the
/// Swipe-compatible API all go through here, so another account's product is never found.
struct ProductStore {
  /// The products table; the others are `product_photos`, `product_favorites` and
  /// `product_counters`, and this store (with `+Writing`) holds all of their SQL.
  static let table = "products"

  var db: any Database
  var workspaceID: UUID
  /// The person reading, whose favourites are the `favorite` marks (their own marks, not the
  /// workspace's); the workspace's creator when a caller has no person (a restore, a command).
  /// Every caller says which, so an answer never carries someone else's stars.
  var viewerID: UUID

  init(db: any Database, workspaceID: UUID, viewerID: UUID?) {
    self.db = db
    self.workspaceID = workspaceID
    self.viewerID = viewerID ?? workspaceID
  }

  enum Sort: String, CaseIterable, Sendable {
    case newest
    case name
    case price
    case priceDesc = "price_desc"

    var label: String {
      switch self {
      case .newest: L("products.sort.newest")
      case .name: L("products.sort.name")
      case .price: L("products.sort.price")
      case .priceDesc: L("products.sort.price_desc")
      }
    }
  }

  /// What the listing shows: a name prefix, one category (a `type_key`), an order.
  struct Filter: Sendable, Hashable {
    var search: String = ""
    var typeKey: String? = nil
    var sort: Sort = .newest

    /// No search and no category: the total is the account's product count.
    var isWholeCatalog: Bool { search.isEmpty && (typeKey ?? "").isEmpty }
  }

  struct Slice {
    var items: [ProductRow]
    var total: Int
  }

  /// One page of the listing as a reader asks for it: the typed arguments the read cache keys
  /// a listing's answers by (the reader is part of it: the favourite marks are theirs).
  struct PageQuery: Hashable, Sendable {
    var workspaceID: UUID
    var viewerID: UUID
    var filter: Filter
    var page: Int
    var per: Int
    var format: AccountFormat
  }

  func query(_ filter: Filter, page: Int, per: Int, format: AccountFormat) -> PageQuery {
    PageQuery(
      workspaceID: workspaceID, viewerID: viewerID, filter: filter, page: page, per: per,
      format: format)
  }

  /// The category chips' arguments (the workspace alone).
  struct ChipsQuery: Hashable, Sendable {
    var workspaceID: UUID
  }

  // MARK: reading

  /// One page of the listing with its total and favourite marks, in one SQL statement: the
  /// catalog's busiest read, so it skips the model layer's per-query work. The total is the
  /// counter row's count for the whole catalog, or a count over the index for a filter.
  func list(_ filter: Filter, page: Int, per: Int) async throws -> Slice {
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow else { return Slice(items: [], total: try await total(filter)) }
    let (items, found): ([ProductRow], total: Int?)
    if let storage = (db as? SQLiteFluentDatabase)?.readsNow {
      let (sql, arguments) = try sqlitePage(filter, per: per, offset: offset)
      (items, found) = try ProductRow.readNow(sql, arguments, withTotal: true, on: storage)
    } else {
      (items, found) = try await rows(
        Self.pageStatement(
          conditions: conditions(filter), whole: filter.isWholeCatalog, sort: filter.sort,
          workspaceID: workspaceID, viewerID: viewerID, per: per, offset: offset),
        withTotal: true)
    }
    guard let found else { return Slice(items: [], total: try await total(filter)) }
    return Slice(items: items, total: found)
  }

  /// The products `statement` selects (`columns`, then `favorite`, then with `withTotal` a
  /// `total`), with the first row's total. On a SQLite file outside a transaction the rows are
  /// read at once on a reader and decoded straight from SQLite's values (`ProductRow`); the
  /// listing is the catalog's busiest read.
  private func rows(_ statement: SQLQueryString, withTotal: Bool) async throws
    -> ([ProductRow], total: Int?)
  {
    if let storage = (db as? SQLiteFluentDatabase)?.readsNow {
      var serializer = SQLSerializer(database: try sql)
      statement.serialize(to: &serializer)
      return try ProductRow.readNow(
        serializer.sql, serializer.binds, withTotal: withTotal, on: storage)
    }
    let rows = try await DirectQuery.rows(statement, on: db)
    let items = try rows.map(ProductRow.init)
    let total = try withTotal ? rows.first?.decode(column: "total", as: Int.self) : nil
    return (items, total)
  }

  /// The page's statement. The inner select picks the page's product numbers from an index
  /// that holds the filter's column and the number (so it never reads the rows it skips); the
  /// outer select reads only those rows, with their favourite mark and the total. `CROSS JOIN`
  /// keeps SQLite from turning the join around and walking the whole catalog to meet the page.
  static func pageStatement(
    conditions: SQLQueryString, whole: Bool, sort: Sort, workspaceID: UUID, viewerID: UUID,
    per: Int, offset: Int
  ) -> SQLQueryString {
    // The count's own `p` hides the outer one, so the same conditions serve both.
    let totalColumn: SQLQueryString =
      whole
      ? "COALESCE((SELECT product_count FROM product_counters WHERE workspace_id = \(bind: workspaceID)), 0)"
      : "(SELECT COUNT(*) FROM products p WHERE \(conditions))"
    let order: String
    switch sort {
    // Numbers only grow, so the newest product has the highest.
    case .newest: order = "p.number DESC"
    case .name: order = "p.name_key, p.number"
    case .price: order = "p.price_minor, p.name_key, p.number"
    case .priceDesc: order = "p.price_minor DESC, p.name_key, p.number"
    }
    return """
      SELECT \(unsafeRaw: columns),
        CASE WHEN f.id IS NULL THEN 0 ELSE 1 END AS favorite, \(totalColumn) AS total
      FROM (
        SELECT p.number FROM products p WHERE \(conditions)
        ORDER BY \(unsafeRaw: order) LIMIT \(bind: per) OFFSET \(bind: offset)
      ) page
      CROSS JOIN products p
      LEFT JOIN product_favorites f ON f.user_id = \(bind: viewerID) AND f.product_id = p.id
      WHERE p.workspace_id = \(bind: workspaceID) AND p.number = page.number
      ORDER BY \(unsafeRaw: order)
      """
  }

  /// The columns every product statement here selects (`p` is the products table), in the
  /// order `ProductRow` reads them.
  static let columns = """
    p.id, p.number, p.name, p.name_key, p.type, p.type_key, p.price_minor, p.tax_minor,
    p.photo_etag, p.created_at, p.updated_at, p.version
    """

  /// The WHERE clause of a listing (`p` is the products table). The prefix search is a range
  /// on the indexed `name_key`: `key >= prefix AND key < prefixUpperBound(prefix)`.
  func conditions(_ filter: Filter) -> SQLQueryString {
    let terms = Terms(filter)
    var conditions = SQLQueryString("p.workspace_id = \(bind: workspaceID)")
    if let typeKey = terms.typeKey {
      conditions += " AND p.type_key = \(bind: typeKey)"
    }
    if let prefix = terms.prefix {
      conditions += " AND p.name_key >= \(bind: prefix)"
      if let upper = terms.upper {
        conditions += " AND p.name_key < \(bind: upper)"
      }
    }
    return conditions
  }

  /// The values a listing's conditions compare with, after the filter's own blanks are gone.
  struct Terms {
    var typeKey: String?
    var prefix: String?
    var upper: String?

    init(_ filter: Filter) {
      if let typeKey = filter.typeKey, !typeKey.isEmpty { self.typeKey = typeKey }
      let prefix = SearchNormalizer.normalize(filter.search)
      if !prefix.isEmpty {
        self.prefix = prefix
        upper = SearchNormalizer.prefixUpperBound(prefix)
      }
    }
  }

  /// The total for `filter` alone, for a page past the end. `workspace_id` leads every index, so a
  /// filtered count reads an index alone, never the rows.
  private func total(_ filter: Filter) async throws -> Int {
    if filter.isWholeCatalog { return try await count() }
    let row = try await DirectQuery.first(
      "SELECT COUNT(*) AS total FROM products p WHERE \(conditions(filter))" as SQLQueryString,
      on: db)
    return try row?.decode(column: "total", as: Int.self) ?? 0
  }

  /// Every product, oldest first (the order Swipe clients got), with the viewer's marks.
  func all() async throws -> [ProductRow] {
    try await marked("p.workspace_id = \(bind: workspaceID) ORDER BY p.number")
  }

  /// The account's number of products, from its counter row (one indexed read).
  func count() async throws -> Int {
    try await counter().count
  }

  /// The account's counter row: the last number handed out and how many products it has
  /// (zeros before its first product).
  func counter() async throws -> (lastNumber: Int, count: Int) {
    let row = try await DirectQuery.first(
      """
      SELECT last_number, product_count FROM product_counters
      WHERE workspace_id = \(bind: workspaceID)
      """ as SQLQueryString, on: db)
    guard let row else { return (0, 0) }
    return (
      try row.decode(column: "last_number", as: Int.self),
      try row.decode(column: "product_count", as: Int.self)
    )
  }

  /// How many product rows the account has (counted, not read from its counter).
  func storedCount() async throws -> Int {
    let row = try await DirectQuery.first(
      "SELECT COUNT(*) AS total FROM products WHERE workspace_id = \(bind: workspaceID)"
        as SQLQueryString, on: db)
    return try row?.decode(column: "total", as: Int.self) ?? 0
  }

  /// The numbers the account's products have now.
  func numbers() async throws -> Set<Int> {
    let rows = try await DirectQuery.rows(
      "SELECT number FROM products WHERE workspace_id = \(bind: workspaceID)" as SQLQueryString,
      on: db)
    return Set(try rows.map { try $0.decode(column: "number", as: Int.self) })
  }

  /// The product with this id in this account, with the viewer's mark; nil for another
  /// account's id, an unknown id or text that is not an id at all.
  func find(_ id: String?) async throws -> ProductRow? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await find(id)
  }

  func find(_ id: UUID) async throws -> ProductRow? {
    try await marked("p.id = \(bind: id) AND p.workspace_id = \(bind: workspaceID)").first
  }

  /// The products `condition` (and what follows it) selects, with the viewer's marks.
  private func marked(_ condition: SQLQueryString) async throws -> [ProductRow] {
    try await rows(
      """
      SELECT \(unsafeRaw: Self.columns),
        CASE WHEN f.id IS NULL THEN 0 ELSE 1 END AS favorite
      FROM products p
      LEFT JOIN product_favorites f ON f.user_id = \(bind: viewerID) AND f.product_id = p.id
      WHERE \(condition)
      """, withTotal: false
    ).0
  }

  /// A count per stored spelling, grouped in the order of the (workspace_id, type_key, type,
  /// number) index, which holds everything this reads.
  static func chipsQuery(_ sql: any SQLDatabase, workspaceID: UUID) -> SQLSelectBuilder {
    sql.select()
      .column("type")
      .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
      .from(Self.table)
      .where("workspace_id", .equal, SQLBind(workspaceID))
      .groupBy("type_key").groupBy("type")
  }

  /// "Browse Categories": one chip per type (spellings that differ only in case or accents
  /// share one), with counts, from a single grouped query.
  func chips() async throws -> [ProductTypeChip] {
    struct Row: Decodable {
      var type: String
      var count: Int
    }
    let sql = try sql
    // On SQLite the counts are kept by triggers (M097); PostgreSQL counts when asked.
    let query: any SQLExpression =
      sql.dialect.name == "sqlite"
      ? sql.select().column("type").column("count").from(M097_CountProductTypes.table)
        .where("workspace_id", .equal, SQLBind(workspaceID)).query
      : Self.chipsQuery(sql, workspaceID: workspaceID).query
    let rows = try await DirectQuery.rows(query, on: db).map { try $0.decode(model: Row.self) }
    var counts: [String: Int] = [:]
    for row in rows { counts[row.type, default: 0] += row.count }
    return ProductTypes.chips(fromCounts: counts)
  }

  /// How many of the account's products have each of `keys` (`Values.matchKey`).
  func matchCounts(_ keys: Set<String>) async throws -> [String: Int] {
    try await MatchKey.counts(
      keys, in: Self.table, workspaceID: workspaceID, on: db.sql())
  }

  /// How many products the viewer marked as favourite (`COUNT(*)` reads the index alone;
  /// counting a column the index does not hold would fetch every favourite's row).
  func favoriteCount() async throws -> Int {
    let statement = Self.favoriteCountStatement(workspaceID: workspaceID, viewerID: viewerID)
    let row = try await DirectQuery.first(statement, on: db)
    return try row?.decode(column: "total", as: Int.self) ?? 0
  }

  static func favoriteCountStatement(workspaceID: UUID, viewerID: UUID) -> SQLQueryString {
    """
    SELECT COUNT(*) AS total FROM product_favorites
    WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: viewerID)
    """
  }

  /// When the viewer marked each of their favourites here (the backup keeps the dates).
  func favoriteDates() async throws -> [UUID: Date] {
    let rows = try await DirectQuery.rows(
      """
      SELECT product_id, created_at FROM product_favorites
      WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: viewerID)
      """ as SQLQueryString, on: db)
    var dates: [UUID: Date] = [:]
    for row in rows {
      dates[try row.decode(column: "product_id", as: UUID.self)] =
        try row.decode(column: "created_at", as: Date?.self) ?? Date(timeIntervalSince1970: 0)
    }
    return dates
  }

  /// The viewer's favourites, most recently added first, and how many there are in all.
  func favorites(page: Int = 1, per: Int) async throws -> Slice {
    let total = try await favoriteCount()
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return Slice(items: [], total: total) }
    let (items, _) = try await rows(
      Self.favoritesStatement(
        workspaceID: workspaceID, viewerID: viewerID, per: per, offset: offset),
      withTotal: false)
    return Slice(items: items, total: total)
  }

  /// The page of favourites first, then each product by its id (`CROSS JOIN` keeps that
  /// order; left to itself SQLite may walk the whole catalog looking for the ids).
  static func favoritesStatement(workspaceID: UUID, viewerID: UUID, per: Int, offset: Int)
    -> SQLQueryString
  {
    """
    SELECT \(unsafeRaw: columns), 1 AS favorite
    FROM (
      SELECT product_id, created_at, id FROM product_favorites
      WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: viewerID)
      ORDER BY created_at DESC, id LIMIT \(bind: per) OFFSET \(bind: offset)
    ) f
    CROSS JOIN products p
    WHERE p.id = f.product_id AND p.workspace_id = \(bind: workspaceID)
    ORDER BY f.created_at DESC, f.id
    """
  }

  /// Photo of a product of this account (with its bytes).
  func photo(productID: UUID) async throws -> StoredPhoto? {
    try await DirectQuery.first(
      """
      SELECT product_id, data, mime, sha256 FROM product_photos
      WHERE workspace_id = \(bind: workspaceID) AND product_id = \(bind: productID)
      """ as SQLQueryString, on: db
    ).map(StoredPhoto.init)
  }

  /// Every photo of the account by its product (the backup).
  func photos() async throws -> [UUID: StoredPhoto] {
    let rows = try await DirectQuery.rows(
      """
      SELECT product_id, data, mime, sha256 FROM product_photos
      WHERE workspace_id = \(bind: workspaceID)
      """ as SQLQueryString, on: db)
    var photos: [UUID: StoredPhoto] = [:]
    for row in rows {
      let photo = try StoredPhoto(row)
      photos[photo.productID] = photo
    }
    return photos
  }

  // MARK: building queries

  var sql: any SQLDatabase {
    get throws { try db.sql() }
  }
}
