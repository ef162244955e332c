import Fluent

/// Results of requests sent with an `Idempotency-Key`, so a retry gets the first answer instead
/// of a second product.
struct M041_CreateIdempotencyKeys: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("idempotency_keys")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("key", .string, .required)
      .field("request_hash", .string, .required)
      .field("status", .int64, .required)
      .field("content_type", .string, .required)
      .field("location", .string)
      .field("body", .data, .required)
      .field("created_at", .datetime, .required)
      .unique(on: "user_id", "key")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema("idempotency_keys").delete()
  }
}
