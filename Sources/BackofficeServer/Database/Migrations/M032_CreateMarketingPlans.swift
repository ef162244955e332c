import Fluent
import SQLKit

struct M032_CreateMarketingPlans: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("marketing_plans")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("name", .string, .required)
      .field("selection_json", .string, .required)
      .field("recipient", .string, .required)
      .field("subject", .string)
      .field("created_at", .datetime)
      .field("updated_at", .datetime)
      .create()
    // The plans list is one account's plans, newest change first.
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: "marketing_plans_user_updated")
        .on("marketing_plans").column("user_id").column("updated_at").run()
    }
  }

  func revert(on database: any Database) async throws {
    try await database.schema("marketing_plans").delete()
  }
}
