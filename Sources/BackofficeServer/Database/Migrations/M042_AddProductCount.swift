import Fluent
import SQLKit

/// Each account's number of products, kept next to its last product number, so the catalog's
/// first page does not count 100 000 rows on every request.
struct M042_AddProductCount: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("product_counters")
      .field("product_count", .int64, .required, .sql(.default(0)))
      .update()
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.raw(
      """
      UPDATE product_counters SET product_count =
        (SELECT COUNT(*) FROM products WHERE products.user_id = product_counters.user_id)
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema("product_counters").deleteField("product_count").update()
  }
}
