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
  var userID: UUID

  enum Sort: String, CaseIterable, Sendable {
    case newest
    case name
    case price
    case priceDesc = "price_desc"

    var label: String {
      switch self {
      case .newest: "Newest first"
      case .name: "Name A–Z"
      case .price: "Price: low to high"
      case .priceDesc: "Price: high to low"
      }
    }
  }

  /// What the listing shows: a name prefix, one category (a `type_key`), an order.
  struct Filter: Sendable, Equatable {
    var search: String = ""
    var typeKey: String? = nil
    var sort: Sort = .newest
  }

  struct Slice {
    var items: [ProductRecord]
    var total: Int
  }

  // MARK: reading

  func list(_ filter: Filter, page: Int, per: Int) async throws -> Slice {
    let query = filtered(filter)
    let total = try await query.copy().count()
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return Slice(items: [], total: total) }
    let items = try await sorted(query, by: filter.sort).offset(offset).limit(per).all()
    return Slice(items: items, total: total)
  }

  /// Every product, oldest first (the order Swipe clients got).
  func all() async throws -> [ProductRecord] {
    try await scoped().sort(\.$number).all()
  }

  func count() async throws -> Int {
    try await scoped().count()
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

  /// "Browse Categories": one chip per type (spellings that differ only in case or accents
  /// share one), with counts, from a single grouped query.
  func chips() async throws -> [ProductTypeChip] {
    guard let sql = db as? any SQLDatabase else { return [] }
    struct Row: Decodable {
      var type: String
      var count: Int
    }
    let rows = try await sql.select()
      .column("type")
      .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
      .from(ProductRecord.schema)
      .where("user_id", .equal, SQLBind(userID))
      .groupBy("type")
      .all(decoding: Row.self)
    var counts: [String: Int] = [:]
    for row in rows { counts[row.type, default: 0] += row.count }
    return ProductTypes.chips(fromCounts: counts)
  }

  /// Ids of the products in `ids` this account marked as favourite.
  func favoriteIDs(among ids: [UUID]) async throws -> Set<UUID> {
    guard !ids.isEmpty else { return [] }
    let rows = try await ProductFavorite.query(on: db)
      .filter(\.$userID == userID).filter(\.$productID ~~ ids)
      .all(\.$productID)
    return Set(rows)
  }

  /// The favourites, most recently added first, and how many there are in all.
  func favorites(page: Int = 1, per: Int) async throws -> Slice {
    let query = ProductFavorite.query(on: db).filter(\.$userID == userID)
    let total = try await query.copy().count()
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return Slice(items: [], total: total) }
    let ids = try await query.sort(\.$createdAt, .descending).sort(\.$id)
      .offset(offset).limit(per).all(\.$productID)
    let records = try await scoped().filter(\.$id ~~ ids).all()
    let byID = Dictionary(records.compactMap { record in record.id.map { ($0, record) } }) {
      first, _ in first
    }
    return Slice(items: ids.compactMap { byID[$0] }, total: total)
  }

  func setFavorite(_ productID: UUID, _ on: Bool) async throws {
    let existing = ProductFavorite.query(on: db)
      .filter(\.$userID == userID).filter(\.$productID == productID)
    if on {
      guard try await existing.first() == nil else { return }
      do {
        try await ProductFavorite(userID: userID, productID: productID).create(on: db)
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
      .filter(\.$userID == userID).filter(\.$productID == productID).first()
  }

  // MARK: writing (call inside a transaction; `db` is the transaction's)

  /// Saves a new product with the account's next number, and its photo.
  func create(_ product: Product, photo: CheckedPhoto?) async throws -> ProductRecord {
    let record = ProductRecord(
      userID: userID, number: try await nextNumber(), product: product)
    try await record.create(on: db)
    if let photo { try await replacePhoto(of: record, with: photo) }
    return record
  }

  enum PhotoChange {
    case keep
    case remove
    case replace(CheckedPhoto)
  }

  func update(_ record: ProductRecord, with product: Product, photo: PhotoChange) async throws {
    record.apply(product)
    switch photo {
    case .keep: break
    case .remove: try await removePhoto(of: record)
    case .replace(let checked): try await replacePhoto(of: record, with: checked)
    }
    try await record.save(on: db)
  }

  func delete(_ record: ProductRecord) async throws {
    let id = try record.requireID()
    // Photos and favourites go with the product (foreign keys cascade as well).
    try await ProductPhoto.query(on: db).filter(\.$productID == id).delete()
    try await ProductFavorite.query(on: db).filter(\.$productID == id).delete()
    try await record.delete(on: db)
  }

  private func replacePhoto(of record: ProductRecord, with photo: CheckedPhoto) async throws {
    let id = try record.requireID()
    try await ProductPhoto.query(on: db).filter(\.$productID == id).delete()
    try await ProductPhoto(userID: userID, productID: id, upload: photo).create(on: db)
    record.photoETag = photo.sha256
    try await record.save(on: db)
  }

  private func removePhoto(of record: ProductRecord) async throws {
    let id = try record.requireID()
    try await ProductPhoto.query(on: db).filter(\.$productID == id).delete()
    record.photoETag = nil
  }

  /// Makes sure the account's counter is at least `number` (after products were added with
  /// numbers of their own, by an import). One statement, so it never goes backwards when a
  /// product is created at the same moment.
  func raiseCounter(to number: Int) async throws {
    guard number > 0 else { return }
    guard let sql = db as? any SQLDatabase else {
      throw Abort(.internalServerError, reason: "Products need an SQL database.")
    }
    try await sql.insert(into: ProductCounter.schema)
      .columns("id", "user_id", "last_number")
      .values(SQLBind(UUID()), SQLBind(userID), SQLBind(0))
      .ignoringConflicts(with: ["user_id"])
      .run()
    try await sql.update(ProductCounter.schema)
      .set(SQLIdentifier("last_number"), to: SQLBind(number))
      .where("user_id", .equal, SQLBind(userID))
      .where("last_number", .lessThan, SQLBind(number))
      .run()
  }

  /// The account's next product number: one atomic increment of its counter row, so two
  /// products saved at the same moment (on several app instances) never share a number.
  private func nextNumber() async throws -> Int {
    guard let sql = db as? any SQLDatabase else {
      throw Abort(.internalServerError, reason: "Products need an SQL database.")
    }
    try await sql.insert(into: ProductCounter.schema)
      .columns("id", "user_id", "last_number")
      .values(SQLBind(UUID()), SQLBind(userID), SQLBind(0))
      .ignoringConflicts(with: ["user_id"])
      .run()
    let next = try await sql.update(ProductCounter.schema)
      .set(
        SQLIdentifier("last_number"),
        to: SQLBinaryExpression(SQLIdentifier("last_number"), .add, SQLLiteral.numeric("1"))
      )
      .where("user_id", .equal, SQLBind(userID))
      .returning("last_number")
      .first(decodingColumn: "last_number", as: Int.self)
    guard let next else {
      throw Abort(.internalServerError, reason: "The product counter row is missing.")
    }
    return next
  }

  // MARK: building queries

  private func scoped() -> QueryBuilder<ProductRecord> {
    ProductRecord.query(on: db).filter(\.$user.$id == userID)
  }

  /// The prefix search is a range on the indexed `name_key`:
  /// `key >= prefix AND key < prefixUpperBound(prefix)`.
  private func filtered(_ filter: Filter) -> QueryBuilder<ProductRecord> {
    let query = scoped()
    if let typeKey = filter.typeKey, !typeKey.isEmpty {
      query.filter(\.$typeKey == typeKey)
    }
    let prefix = SearchNormalizer.normalize(filter.search)
    if !prefix.isEmpty {
      query.filter(\.$nameKey >= prefix)
      if let upper = SearchNormalizer.prefixUpperBound(prefix) {
        query.filter(\.$nameKey < upper)
      }
    }
    return query
  }

  private func sorted(_ query: QueryBuilder<ProductRecord>, by sort: Sort)
    -> QueryBuilder<ProductRecord>
  {
    switch sort {
    // Numbers only grow, so the newest product has the highest (and it is indexed).
    case .newest: query.sort(\.$number, .descending)
    case .name: query.sort(\.$nameKey).sort(\.$number)
    case .price: query.sort(\.$priceMinor).sort(\.$nameKey).sort(\.$number)
    case .priceDesc: query.sort(\.$priceMinor, .descending).sort(\.$nameKey).sort(\.$number)
    }
  }
}
