import Fluent
import SQLKit

/// What a fundraiser's report is made of: receipts (photos) on expenses, an expense's link to
/// the fundraiser it was bought for, and the fundraiser's stage (active → closed → reported).
///
/// A receipt is hidden from the public report until the volunteer ticks it (`is_public`): a
/// receipt can carry a name, a card number or an address. Deleting an expense deletes its
/// receipts; deleting a fundraiser keeps its expenses and only unlinks them.
struct M095_AddFundraiserReports: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("expense_receipts")
      .id()
      .field(
        "workspace_id", .uuid, .required,
        .references("workspaces", "id", onDelete: .cascade)
      )
      .field(
        "expense_id", .uuid, .required,
        .references("expenses", "id", onDelete: .cascade)
      )
      .field("data", .data, .required)
      .field("mime", .string, .required)
      .field("width", .int, .required)
      .field("height", .int, .required)
      .field("etag", .string, .required)
      .field("is_public", .bool, .required, .sql(.default(false)))
      .field("position", .int, .required)
      .field("created_at", .datetime, .required)
      .create()

    // One column per statement: SQLite adds columns one at a time.
    try await database.schema("expenses")
      .field(
        "fundraiser_id", .uuid,
        .references("fundraisers", "id", onDelete: .setNull)
      )
      .update()
    let fundraisers = "fundraisers"
    try await database.schema(fundraisers)
      .field("stage", .string, .required, .sql(.default("active")))
      .update()
    try await database.schema(fundraisers).field("closed_at", .datetime).update()
    try await database.schema(fundraisers).field("reported_at", .datetime).update()

    guard let sql = database as? any SQLDatabase else { return }
    try await sql.create(index: "expense_receipts_expense").on("expense_receipts")
      .column("expense_id").column("position").run()
    try await sql.create(index: "expenses_fundraiser").on("expenses")
      .column("fundraiser_id").run()
  }

  func revert(on database: any Database) async throws {
    if let sql = database as? any SQLDatabase {
      try await sql.drop(index: "expenses_fundraiser").run()
    }
    try await database.schema("expense_receipts").delete()
    for field in ["reported_at", "closed_at", "stage"] {
      try await database.schema("fundraisers").deleteField(.string(field)).update()
    }
    try await database.schema("expenses").deleteField("fundraiser_id").update()
  }
}
