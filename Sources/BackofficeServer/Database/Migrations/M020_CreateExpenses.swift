import Fluent
import SQLKit

struct M020_CreateExpenses: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("expenses")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("title", .string, .required)
      .field("title_key", .string, .required)
      .field("amount_cents", .int64, .required)
      .field("category", .string, .required)
      .field("spent_at", .datetime)
      .field("created_at", .datetime, .required)
      .field("updated_at", .datetime, .required)
      .field("deleted_at", .datetime)
      .create()
    if let sql = database as? any SQLDatabase {
      // The list sorts and filters by date, the category filter by category, always per account.
      try await sql.create(index: "expenses_user_spent_at")
        .on("expenses").column("user_id").column("spent_at").run()
      try await sql.create(index: "expenses_user_category")
        .on("expenses").column("user_id").column("category").run()
    }
  }

  func revert(on database: any Database) async throws {
    try await database.schema("expenses").delete()
  }
}
