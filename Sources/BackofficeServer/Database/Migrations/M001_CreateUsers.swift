import Fluent

struct M001_CreateUsers: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(User.schema)
      .id()
      .field("email", .string, .required)
      .field("password_hash", .string, .required)
      .field("locale", .string, .required)
      .field("currency", .string, .required)
      .field("created_at", .datetime)
      .unique(on: "email")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(User.schema).delete()
  }
}
