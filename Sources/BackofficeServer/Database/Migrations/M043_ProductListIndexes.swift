import Fluent
import SQLKit

/// The name and category indexes also carry the product number, so a page of a search or a
/// category is picked from the index alone (numbers sorted in memory, rows read only for the
/// 20 shown) instead of reading every matching row. The category index holds the spelling too,
/// so the category chips (a count per spelling) are counted from the index alone.
struct M043_ProductListIndexes: AsyncMigration {
  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.create(index: ProductIndexes.nameNumber).on("products")
      .column("user_id").column("name_key").column("number").run()
    try await sql.create(index: ProductIndexes.typeNumber).on("products")
      .column("user_id").column("type_key").column("type").column("number").run()
    // The new indexes answer everything the old ones did.
    try await sql.drop(index: ProductIndexes.nameKey).run()
    try await sql.drop(index: ProductIndexes.typeKey).run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.create(index: ProductIndexes.nameKey).on("products")
      .column("user_id").column("name_key").run()
    try await sql.create(index: ProductIndexes.typeKey).on("products")
      .column("user_id").column("type_key").run()
    try await sql.drop(index: ProductIndexes.nameNumber).run()
    try await sql.drop(index: ProductIndexes.typeNumber).run()
  }
}
