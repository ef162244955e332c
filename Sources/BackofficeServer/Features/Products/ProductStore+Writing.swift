import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The product store's writes: one column list per table for new rows (`newProduct`,
/// `newPhoto`, `newFavorite`), which every path that adds rows uses — a form, the API's
/// creation on a SQLite file (`DirectProductCreation`), imports and restores — and the
/// versioned changes. Call inside a transaction where several statements must go together;
/// each write here that needs one opens its own (or joins the caller's).
extension ProductStore {
  /// A product's stored values: what it says and what is derived from it (search keys, exact
  /// minor units, the match key of imports).
  struct Values: Sendable, Equatable {
    var name: String
    var nameKey: String
    var type: String
    var typeKey: String
    var priceMinor: Int64
    var taxMinor: Int64
    /// `MatchKey.make(product.matchFields)`: how an import finds the products the account
    /// already has.
    var matchKey: String

    init(_ product: Product) {
      name = product.name
      nameKey = product.searchKey
      type = product.type
      typeKey = SearchNormalizer.normalize(product.type)
      priceMinor = MinorUnits(rounding: product.price)?.value ?? 0
      taxMinor = MinorUnits(rounding: product.tax)?.value ?? 0
      matchKey = MatchKey.make(product.matchFields)
    }
  }

  static let productColumns = [
    "id", "workspace_id", "number", "name", "name_key", "type", "type_key", "price_minor",
    "tax_minor", "match_key", "photo_etag", "version", "created_at", "updated_at",
  ]

  /// A new product row: the only list of the `products` table's columns that writes them.
  static func newProduct(
    id: UUID, workspaceID: UUID, number: Int, _ values: Values, photoETag: String?,
    version: Int = RecordVersion.first, createdAt: Date, updatedAt: Date
  ) -> NewRow {
    NewRow(
      table: table, columns: productColumns,
      values: [
        id, workspaceID, number, values.name, values.nameKey, values.type, values.typeKey,
        values.priceMinor, values.taxMinor, values.matchKey, photoETag, version, createdAt,
        updatedAt,
      ])
  }

  /// A new photo row: the checked bytes as uploaded, with what their header says.
  static func newPhoto(
    id: UUID = UUID.random(), workspaceID: UUID, productID: UUID, _ photo: CheckedPhoto,
    createdAt: Date
  ) -> NewRow {
    NewRow(
      table: "product_photos",
      columns: [
        "id", "workspace_id", "product_id", "data", "mime", "width", "height", "sha256",
        "created_at",
      ],
      values: [
        id, workspaceID, productID, photo.data, photo.info.kind.mimeType,
        photo.info.dimensions.width, photo.info.dimensions.height, photo.sha256, createdAt,
      ])
  }

  /// "This person likes this product": a person's own mark, in the product's workspace.
  static func newFavorite(
    id: UUID = UUID.random(), workspaceID: UUID, userID: UUID, productID: UUID, createdAt: Date
  ) -> NewRow {
    NewRow(
      table: "product_favorites",
      columns: ["id", "workspace_id", "user_id", "product_id", "created_at"],
      values: [id, workspaceID, userID, productID, createdAt])
  }

  /// Inserts rows of one table, `batch` rows per statement (a restore sends photos ten at a
  /// time: their bytes make a statement large).
  func insert(_ rows: [NewRow], batch: Int = BulkInsert.defaultBatch) async throws {
    try await PreparedInsert(rows).run(on: db, batch: batch)
  }

  // MARK: creating, changing, deleting

  /// Saves a new product with the account's next number, and its photo.
  func create(_ product: Product, photo: CheckedPhoto?) async throws -> ProductRow {
    // One transaction (or the caller's), so the counter's product count moves with the row.
    let (owner, viewer) = (workspaceID, viewerID)
    return try await db.transaction { db in
      let store = ProductStore(db: db, workspaceID: owner, viewerID: viewer)
      let (id, now) = (UUID.random(), Date())
      let number = try await store.nextNumber()
      let values = Values(product)
      try await store.insert([
        Self.newProduct(
          id: id, workspaceID: owner, number: number, values, photoETag: photo?.sha256,
          createdAt: now, updatedAt: now)
      ])
      if let photo {
        try await store.insert([
          Self.newPhoto(workspaceID: owner, productID: id, photo, createdAt: now)
        ])
      }
      return ProductRow(new: id, number: number, values, photoETag: photo?.sha256, at: now)
    }
  }

  enum PhotoChange {
    case keep
    case remove
    case replace(CheckedPhoto)
  }

  /// Saves the product's new values if it still has version `expected` (whatever its version
  /// when nil), and gives the product as saved. Nil when it was changed or deleted meanwhile:
  /// nothing is written then.
  func update(
    _ row: ProductRow, expected: Int?, with product: Product, photo: PhotoChange
  ) async throws -> ProductRow? {
    let (owner, viewer, id) = (workspaceID, viewerID, row.id)
    let saved = try await RecordVersion.write(
      Self.table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      let store = ProductStore(db: db, workspaceID: owner, viewerID: viewer)
      let (values, now) = (Values(product), Date())
      var setPhoto: SQLQueryString = ""
      switch photo {
      case .keep: break
      case .remove:
        try await store.deletePhoto(of: id)
        setPhoto = ", photo_etag = NULL"
      case .replace(let checked):
        try await store.deletePhoto(of: id)
        try await store.insert([
          Self.newPhoto(workspaceID: owner, productID: id, checked, createdAt: now)
        ])
        setPhoto = ", photo_etag = \(bind: checked.sha256)"
      }
      try await store.sql.raw(
        """
        UPDATE products SET name = \(bind: values.name), name_key = \(bind: values.nameKey),
          type = \(bind: values.type), type_key = \(bind: values.typeKey),
          price_minor = \(bind: values.priceMinor), tax_minor = \(bind: values.taxMinor),
          match_key = \(bind: values.matchKey), updated_at = \(bind: now)\(setPhoto)
        WHERE id = \(bind: id) AND workspace_id = \(bind: owner)
        """
      ).run()
      return try await store.find(id)
    }
    return saved ?? nil
  }

  /// Deletes the product if it still has version `expected` (any version when nil). False
  /// when it was changed or deleted meanwhile, so two deletes at once count it out once. The
  /// account's tombstones older than `ProductChanges.tombstoneRetention` before `now` go too.
  @discardableResult
  func delete(_ row: ProductRow, expected: Int? = nil, now: Date) async throws -> Bool {
    let (owner, viewer, id) = (workspaceID, viewerID, row.id)
    let deleted: Void? = try await RecordVersion.write(
      Self.table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      let store = ProductStore(db: db, workspaceID: owner, viewerID: viewer)
      // Photos and favourites go with the product (foreign keys cascade as well).
      try await store.deletePhoto(of: id)
      try await store.sql.raw("DELETE FROM product_favorites WHERE product_id = \(bind: id)").run()
      try await store.sql.raw(
        "DELETE FROM products WHERE id = \(bind: id) AND workspace_id = \(bind: owner)"
      ).run()
      try await store.adjustCount(by: -1)
      try await ProductChanges.purgeTombstones(workspaceID: owner, now: now, on: db)
    }
    return deleted != nil
  }

  // MARK: favourites and photos

  /// Marks (or unmarks) a product of the workspace as one of the viewer's favourites. Two
  /// taps racing each other leave one mark: the unique index keeps one row.
  func setFavorite(_ productID: UUID, _ on: Bool) async throws {
    if on {
      let row = Self.newFavorite(
        workspaceID: workspaceID, userID: viewerID, productID: productID, createdAt: Date())
      try await sql.insert(into: row.table).columns(row.columns).values(row.binds)
        .ignoringConflicts(with: ["user_id", "product_id"]).run()
    } else {
      try await sql.raw(
        """
        DELETE FROM product_favorites WHERE workspace_id = \(bind: workspaceID)
          AND user_id = \(bind: viewerID) AND product_id = \(bind: productID)
        """
      ).run()
    }
  }

  /// Removes every mark `person` made in the workspace (they left it).
  func removeFavorites(of person: UUID) async throws {
    try await sql.raw(
      """
      DELETE FROM product_favorites
      WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: person)
      """
    ).run()
  }

  /// Deletes the product's photo row (the caller sets `photo_etag` in the same transaction).
  private func deletePhoto(of id: UUID) async throws {
    try await sql.raw(
      """
      DELETE FROM product_photos
      WHERE product_id = \(bind: id) AND workspace_id = \(bind: workspaceID)
      """
    ).run()
  }

  // MARK: numbers and counts

  /// Adds `delta` to the account's product count (after an import added rows in bulk).
  func adjustCount(by delta: Int) async throws {
    guard delta != 0 else { return }
    try await sql.raw(
      """
      UPDATE product_counters SET product_count = product_count + \(bind: delta)
      WHERE workspace_id = \(bind: workspaceID)
      """
    ).run()
  }

  /// The account's counter row, created at zero when it has none yet (several instances may
  /// race here; the unique index keeps one row).
  private func ensureCounterRow() async throws {
    try await sql.insert(into: "product_counters")
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
    try await sql.raw(
      """
      UPDATE product_counters SET last_number = \(bind: number)
      WHERE workspace_id = \(bind: workspaceID) AND last_number < \(bind: number)
      """
    ).run()
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
    let last = try await sql.raw(
      """
      UPDATE product_counters
      SET last_number = last_number + \(bind: count), product_count = product_count + \(bind: count)
      WHERE workspace_id = \(bind: workspaceID) RETURNING last_number
      """
    ).first(decodingColumn: "last_number", as: Int.self)
    guard let last else {
      // Made above, so gone only with its workspace: a deletion that committed while this
      // waited for the row (PostgreSQL).
      if try await WorkspaceStore(db: db).find(workspaceID) == nil { throw WorkspaceDeletion.gone }
      throw Abort(.internalServerError, reason: "The product counter row is missing.")
    }
    return (last - count + 1)...last
  }
}

extension ProductRow {
  /// A product just written with `values`: its first version, not anyone's favourite yet.
  init(new id: UUID, number: Int, _ values: ProductStore.Values, photoETag: String?, at now: Date) {
    self.init(
      id: id, number: number, name: values.name, type: values.type,
      priceMinor: values.priceMinor, taxMinor: values.taxMinor, photoETag: photoETag,
      createdAt: now, updatedAt: now, version: RecordVersion.first, favorite: false)
  }
}

/// A product's photo as stored: its bytes, their type and their SHA-256 (the ETag).
struct StoredPhoto: Sendable {
  var productID: UUID
  var data: Data
  var mime: String
  var sha256: String

  init(_ row: any SQLRow) throws {
    productID = try row.decode(column: "product_id", as: UUID.self)
    data = try row.decode(column: "data", as: Data.self)
    mime = try row.decode(column: "mime", as: String.self)
    sha256 = try row.decode(column: "sha256", as: String.self)
  }
}
