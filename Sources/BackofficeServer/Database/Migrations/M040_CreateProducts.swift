import Fluent
import SQLKit

/// The product catalog: products, their photos (bytes in the database, so a backup holds
/// everything), favourites, and the per-account counter behind the Swipe-compatible integer ids.
struct M040_CreateProducts: AsyncMigration {
  func prepare(on database: any Database) async throws {
    // Prefix search compares `name_key` with `>=` and `<` by code point (SQLite's default BINARY
    // order); on PostgreSQL the column needs the "C" collation for an index to answer that.
    let byteOrder: [DatabaseSchema.FieldConstraint] =
      Self.isPostgres(database) ? [.sql(unsafeRaw: #"COLLATE "C""#)] : []

    try await database.schema("product_counters")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("last_number", .int64, .required)
      .unique(on: "user_id")
      .create()

    try await database.schema("products")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("number", .int64, .required)
      .field("name", .string, .required)
      .field(
        .definition(name: .key("name_key"), dataType: .string, constraints: byteOrder + [.required])
      )
      .field("type", .string, .required)
      .field(
        .definition(name: .key("type_key"), dataType: .string, constraints: byteOrder + [.required])
      )
      .field("price_minor", .int64, .required)
      .field("tax_minor", .int64, .required)
      .field("photo_etag", .string)
      .field("created_at", .datetime)
      .field("updated_at", .datetime)
      .unique(on: "user_id", "number")
      .create()

    try await database.schema("product_photos")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field(
        "product_id", .uuid, .required, .references("products", "id", onDelete: .cascade)
      )
      .field("data", .data, .required)
      .field("mime", .string, .required)
      .field("width", .int64, .required)
      .field("height", .int64, .required)
      .field("sha256", .string, .required)
      .field("created_at", .datetime)
      .unique(on: "product_id")
      .create()

    try await database.schema("product_favorites")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field(
        "product_id", .uuid, .required, .references("products", "id", onDelete: .cascade)
      )
      .field("created_at", .datetime)
      .unique(on: "user_id", "product_id")
      .create()

    guard let sql = database as? any SQLDatabase else { return }
    // One index per filter and sort the listing uses, each led by the account; "newest first"
    // is the unique (user_id, number) index.
    for (name, column) in [
      (ProductIndexes.nameKey, "name_key"), (ProductIndexes.typeKey, "type_key"),
      (ProductIndexes.price, "price_minor"),
    ] {
      try await sql.create(index: name).on("products")
        .column("user_id").column(column).run()
    }
  }

  func revert(on database: any Database) async throws {
    try await database.schema("product_favorites").delete()
    try await database.schema("product_photos").delete()
    try await database.schema("products").delete()
    try await database.schema("product_counters").delete()
  }

  static func isPostgres(_ database: any Database) -> Bool {
    (database as? any SQLDatabase)?.dialect.name == "postgresql"
  }
}

/// Index names, shared with the test that reads the query plan.
enum ProductIndexes {
  static let nameKey = "products_user_name_key"
  static let typeKey = "products_user_type_key"
  static let price = "products_user_price"
  /// Since M043, in place of `nameKey` and `typeKey`.
  static let nameNumber = "products_user_name_number"
  static let typeNumber = "products_user_type_number"
}
