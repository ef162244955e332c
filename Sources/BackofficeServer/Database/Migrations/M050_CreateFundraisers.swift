import Fluent
import SQLKit

/// Fundraisers, their photos (and photo drafts: no fundraiser yet) and their jar snapshots.
struct M050_CreateFundraisers: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("fundraisers")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("purpose", .string, .required)
      .field("target_kopiykas", .int64)
      .field("jar_id", .string)
      .field("template", .int, .required)
      .field("scale", .double, .required)
      .field("offset_x", .double, .required)
      .field("offset_y", .double, .required)
      .field("show_progress", .bool, .required)
      .field("created_at", .datetime)
      .field("updated_at", .datetime)
      .create()

    try await database.schema("fundraiser_photos")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field(
        "fundraiser_id", .uuid, .references("fundraisers", "id", onDelete: .cascade)
      )
      .field("data", .data, .required)
      .field("mime", .string, .required)
      .field("width", .int, .required)
      .field("height", .int, .required)
      .field("etag", .string, .required)
      .field("created_at", .datetime)
      .unique(on: "fundraiser_id")
      .create()

    try await database.schema("jar_snapshots")
      .id()
      .field(
        "fundraiser_id", .uuid, .required,
        .references("fundraisers", "id", onDelete: .cascade)
      )
      .field("jar_id", .string, .required)
      .field("taken_at", .datetime, .required)
      .field("ok", .bool, .required)
      .field("amount_kopiykas", .int64)
      .field("goal_kopiykas", .int64)
      .field("status", .string)
      .field("error", .string)
      .create()

    if let sql = database as? any SQLDatabase {
      try await sql.create(index: "fundraisers_user_created")
        .on("fundraisers").column("user_id").column("created_at").run()
      try await sql.create(index: "jar_snapshots_fundraiser_taken")
        .on("jar_snapshots").column("fundraiser_id").column("taken_at").run()
    }
  }

  func revert(on database: any Database) async throws {
    try await database.schema("jar_snapshots").delete()
    try await database.schema("fundraiser_photos").delete()
    try await database.schema("fundraisers").delete()
  }
}
