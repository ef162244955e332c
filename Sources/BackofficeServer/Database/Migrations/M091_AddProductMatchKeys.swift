import BackofficeCore
import Fluent
import SQLKit

/// `products.match_key`, filled for every existing product, and an index per account: a CSV
/// import looks up the products it is about to add by this key (see `Product.matchFields`).
///
/// The fill is an UPDATE of each existing row, so the catalog's triggers count it as a change:
/// the change feed lists every existing product once more (a device fetches them again, with
/// nothing new in them) and the read cache starts afresh. Their versions and `updated_at` stay
/// as they were.
struct M091_AddProductMatchKeys: AsyncMigration {
  static let index = "products_user_match_key"

  func prepare(on database: any Database) async throws {
    try await database.schema("products")
      .field("match_key", .string, .required, .sql(.default("")))
      .update()
    try await MatchKeyBackfill.run(
      table: "products", columns: ["name", "type", "price_minor", "tax_minor"],
      on: database
    ) { row in
      let product = Product(
        name: try row.decode(column: "name", as: String.self),
        type: try row.decode(column: "type", as: String.self),
        price: MinorUnits(try row.decode(column: "price_minor", as: Int64.self)).decimal,
        tax: MinorUnits(try row.decode(column: "tax_minor", as: Int64.self)).decimal)
      return MatchKey.make(product.matchFields)
    }
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: Self.index)
        .on("products").column("user_id").column("match_key").run()
    }
  }

  func revert(on database: any Database) async throws {
    if let sql = database as? any SQLDatabase {
      try await sql.drop(index: Self.index).run()
    }
    try await database.schema("products").deleteField("match_key").update()
  }
}
