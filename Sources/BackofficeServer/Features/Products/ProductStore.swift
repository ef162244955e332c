import BackofficeCore
import Fluent
import FluentSQL
import Foundation
import SQLKit
import Vapor

/// Every product query, always scoped to one account: pages, the native API and the
/// Swipe-compatible API all go through here, so another account's product is never found.
struct ProductStore {
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
    let statement = Self.pageStatement(
      conditions: conditions(filter), whole: filter.isWholeCatalog, sort: filter.sort,
      workspaceID: workspaceID, viewerID: viewerID, per: per, offset: offset)
    let (items, found) = try await rows(statement, withTotal: true)
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
    var conditions = SQLQueryString("p.workspace_id = \(bind: workspaceID)")
    if let typeKey = filter.typeKey, !typeKey.isEmpty {
      conditions += " AND p.type_key = \(bind: typeKey)"
    }
    let prefix = SearchNormalizer.normalize(filter.search)
    if !prefix.isEmpty {
      conditions += " AND p.name_key >= \(bind: prefix)"
      if let upper = SearchNormalizer.prefixUpperBound(prefix) {
        conditions += " AND p.name_key < \(bind: upper)"
      }
    }
    return conditions
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

  /// Every product, oldest first (the order Swipe clients got).
  func all() async throws -> [ProductRecord] {
    try await scoped().sort(\.$number).all()
  }

  /// The account's number of products, from its counter row (one indexed read).
  func count() async throws -> Int {
    try await ProductCounter.query(on: db).filter(\.$workspaceID == workspaceID).first()?
      .productCount ?? 0
  }

  /// The product with this id in this account; nil for another account's id, an unknown id or
  /// text that is not an id at all.
  func find(_ id: String?) async throws -> ProductRecord? {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await find(id)
  }

  func find(_ id: UUID) async throws -> ProductRecord? {
    try await scoped().filter(\.$id == id).first()
  }

  /// A count per stored spelling, grouped in the order of the (workspace_id, type_key, type,
  /// number) index, which holds everything this reads.
  static func chipsQuery(_ sql: any SQLDatabase, workspaceID: UUID) -> SQLSelectBuilder {
    sql.select()
      .column("type")
      .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
      .from(ProductRecord.schema)
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

  /// How many of the account's products have each of `keys` (`ProductRecord.matchKey`).
  func matchCounts(_ keys: Set<String>) async throws -> [String: Int] {
    try await MatchKey.counts(
      keys, in: ProductRecord.schema, workspaceID: workspaceID, on: ImportJobStore.sql(db))
  }

  /// The viewer's favourites in this workspace.
  private var viewersFavorites: QueryBuilder<ProductFavorite> {
    ProductFavorite.query(on: db).filter(\.$workspaceID == workspaceID)
      .filter(\.$userID == viewerID)
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

  /// Ids of every product the viewer marked as favourite here.
  func favoriteIDs() async throws -> Set<UUID> {
    Set(try await viewersFavorites.all(\.$productID))
  }

  /// Ids of the products in `ids` the viewer marked as favourite.
  func favoriteIDs(among ids: [UUID]) async throws -> Set<UUID> {
    guard !ids.isEmpty else { return [] }
    return Set(try await viewersFavorites.filter(\.$productID ~~ ids).all(\.$productID))
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

  /// Marks (or unmarks) a product of the workspace as one of the viewer's favourites.
  func setFavorite(_ productID: UUID, _ on: Bool) async throws {
    let existing = viewersFavorites.filter(\.$productID == productID)
    if on {
      guard try await existing.first() == nil else { return }
      do {
        try await ProductFavorite(workspaceID: workspaceID, userID: viewerID, productID: productID)
          .create(on: db)
      } catch {
        // Two taps racing each other: the unique index kept one row, which is what was asked.
        if try await existing.first() == nil { throw error }
      }
    } else {
      try await existing.delete()
    }
  }

  /// Photo row of a product of this account (with its bytes).
  func photo(productID: UUID) async throws -> ProductPhoto? {
    try await ProductPhoto.query(on: db)
      .filter(\.$workspaceID == workspaceID).filter(\.$productID == productID).first()
  }

  // MARK: writing (call inside a transaction; `db` is the transaction's)

  /// Saves a new product with the account's next number, and its photo.
  func create(_ product: Product, photo: CheckedPhoto?) async throws -> ProductRecord {
    // One transaction (or the caller's), so the counter's product count moves with the row.
    let owner = workspaceID
    return try await db.transaction { db in
      let store = ProductStore(db: db, workspaceID: owner, viewerID: viewerID)
      let record = ProductRecord(
        workspaceID: owner, number: try await store.nextNumber(), product: product)
      try await record.create(on: db)
      if let photo { try await store.replacePhoto(of: record, with: photo) }
      return record
    }
  }

  enum PhotoChange {
    case keep
    case remove
    case replace(CheckedPhoto)
  }

  /// Saves the product's new values if it still has version `expected` (whatever its version
  /// when nil). False when it was changed or deleted meanwhile: nothing is written then.
  func update(
    _ record: ProductRecord, expected: Int?, with product: Product, photo: PhotoChange
  ) async throws -> Bool {
    let owner = workspaceID
    return try await record.write(expected: expected, on: db) { db in
      let store = ProductStore(db: db, workspaceID: owner, viewerID: viewerID)
      record.apply(product)
      switch photo {
      case .keep: break
      case .remove: try await store.removePhoto(of: record)
      case .replace(let checked): try await store.replacePhoto(of: record, with: checked)
      }
      try await record.save(on: db)
    }
  }

  /// Deletes the product if it still has version `expected` (any version when nil). False
  /// when it was changed or deleted meanwhile, so two deletes at once count it out once. The
  /// account's tombstones older than `ProductChanges.tombstoneRetention` before `now` go too.
  @discardableResult
  func delete(_ record: ProductRecord, expected: Int? = nil, now: Date) async throws -> Bool {
    let id = try record.requireID()
    let owner = workspaceID
    return try await record.write(expected: expected, on: db) { db in
      // Photos and favourites go with the product (foreign keys cascade as well).
      try await ProductPhoto.query(on: db).filter(\.$productID == id).delete()
      try await ProductFavorite.query(on: db).filter(\.$productID == id).delete()
      try await record.delete(on: db)
      try await ProductStore(db: db, workspaceID: owner, viewerID: viewerID).adjustCount(by: -1)
      try await ProductChanges.purgeTombstones(workspaceID: owner, now: now, on: db)
    }
  }

  /// Adds `delta` to the account's product count (after an import added rows in bulk).
  func adjustCount(by delta: Int) async throws {
    guard delta != 0 else { return }
    try await sql.update(ProductCounter.schema)
      .set(
        SQLIdentifier("product_count"),
        to: SQLBinaryExpression(SQLIdentifier("product_count"), .add, SQLBind(delta))
      )
      .where("workspace_id", .equal, SQLBind(workspaceID))
      .run()
  }

  fileprivate func replacePhoto(of record: ProductRecord, with photo: CheckedPhoto) async throws {
    let id = try record.requireID()
    try await ProductPhoto.query(on: db).filter(\.$productID == id).delete()
    try await ProductPhoto(workspaceID: workspaceID, productID: id, upload: photo).create(on: db)
    record.photoETag = photo.sha256
    try await record.save(on: db)
  }

  private func removePhoto(of record: ProductRecord) async throws {
    let id = try record.requireID()
    try await ProductPhoto.query(on: db).filter(\.$productID == id).delete()
    record.photoETag = nil
  }

  /// The account's counter row, created at zero when it has none yet (several instances may
  /// race here; the unique index keeps one row).
  private func ensureCounterRow() async throws {
    try await sql.insert(into: ProductCounter.schema)
      .columns("id", "workspace_id", "last_number")
      .values(SQLBind(UUID.random()), SQLBind(workspaceID), SQLBind(0))
      .ignoringConflicts(with: ["workspace_id"])
      .run()
  }

  /// Makes sure the account's counter is at least `number` (after products were added with
  /// numbers of their own, by an import). One statement, so it never goes backwards when a
  /// product is created at the same moment.
  func raiseCounter(to number: Int) async throws {
    guard number > 0 else { return }
    try await ensureCounterRow()
    try await sql.update(ProductCounter.schema)
      .set(SQLIdentifier("last_number"), to: SQLBind(number))
      .where("workspace_id", .equal, SQLBind(workspaceID))
      .where("last_number", .lessThan, SQLBind(number))
      .run()
  }

  /// The account's next product number: one atomic increment of its counter row, so two
  /// products saved at the same moment (on several app instances) never share a number.
  fileprivate func nextNumber() async throws -> Int {
    try await reserveNumbers(1).lowerBound
  }

  /// The account's next `count` product numbers, counted as `count` more products: one atomic
  /// increment of its counter row, so products saved at the same moment (on several app
  /// instances) never share a number. The caller inserts the products in the same transaction,
  /// which holds the counter row until it commits.
  func reserveNumbers(_ count: Int) async throws -> ClosedRange<Int> {
    guard count > 0 else {
      throw Abort(.internalServerError, reason: "At least one product number must be asked for.")
    }
    try await ensureCounterRow()
    let last = try await sql.update(ProductCounter.schema)
      .set(
        SQLIdentifier("last_number"),
        to: SQLBinaryExpression(SQLIdentifier("last_number"), .add, SQLBind(count))
      )
      .set(
        SQLIdentifier("product_count"),
        to: SQLBinaryExpression(SQLIdentifier("product_count"), .add, SQLBind(count))
      )
      .where("workspace_id", .equal, SQLBind(workspaceID))
      .returning("last_number")
      .first(decodingColumn: "last_number", as: Int.self)
    guard let last else {
      // Made above, so gone only with its workspace: a deletion that committed while this
      // waited for the row (PostgreSQL).
      if try await Workspace.find(workspaceID, on: db) == nil { throw WorkspaceDeletion.gone }
      throw Abort(.internalServerError, reason: "The product counter row is missing.")
    }
    return (last - count + 1)...last
  }

  // MARK: building queries

  private var sql: any SQLDatabase {
    get throws {
      guard let sql = db as? any SQLDatabase else {
        throw Abort(.internalServerError, reason: "Products need an SQL database.")
      }
      return sql
    }
  }

  private func scoped() -> QueryBuilder<ProductRecord> {
    ProductRecord.query(on: db).filter(\.$workspaceID == workspaceID)
  }
}
