import Fluent
import SQLKit

/// The QR card on posters (on for every fundraiser, shown when it has a jar), its call to
/// action, and the opt-in public page: its address (unique, kept when the page is switched off
/// so a shared link comes back with it) and the picture link previews show.
struct M086_AddFundraiserSharing: AsyncMigration {
  func prepare(on database: any Database) async throws {
    let table = "fundraisers"
    // One column per statement: SQLite adds columns one at a time.
    try await database.schema(table).field("show_qr", .bool, .required, .sql(.default(true)))
      .update()
    try await database.schema(table)
      .field("call_to_action", .string, .required, .sql(.default(""))).update()
    try await database.schema(table).field("public_slug", .string).update()
    try await database.schema(table)
      .field("is_public", .bool, .required, .sql(.default(false))).update()
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: "fundraisers_public_slug").unique().on(table)
        .column("public_slug").run()
    }

    try await database.schema("fundraiser_share_images")
      .id()
      .field(
        "fundraiser_id", .uuid, .required,
        .references("fundraisers", "id", onDelete: .cascade)
      )
      .field("data", .data, .required)
      .field("etag", .string, .required)
      .field("updated_at", .datetime)
      .unique(on: "fundraiser_id")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema("fundraiser_share_images").delete()
    if let sql = database as? any SQLDatabase {
      try await sql.drop(index: "fundraisers_public_slug").run()
    }
    for field in ["is_public", "public_slug", "call_to_action", "show_qr"] {
      try await database.schema("fundraisers").deleteField(.string(field)).update()
    }
  }
}
