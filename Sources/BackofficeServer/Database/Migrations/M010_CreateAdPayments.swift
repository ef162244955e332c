import Fluent
import SQLKit

/// Ad payment entries, with the derived columns the list sorts, searches and checks
/// duplicates by.
struct M010_CreateAdPayments: AsyncMigration {
  func prepare(on database: any Database) async throws {
    // PostgreSQL would sort by the database's locale (which ignores spaces and punctuation and
    // varies between servers); "C" compares code points like SQLite's default and like
    // AdPaymentOrdering, so every database lists the same order.
    let byteOrder: [DatabaseSchema.FieldConstraint] =
      Self.isPostgres(database) ? [.sql(unsafeRaw: #"COLLATE "C""#)] : []
    try await database.schema("ad_payments")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field(
        .definition(name: .key("name"), dataType: .string, constraints: byteOrder + [.required])
      )
      .field("url", .string, .required)
      .field(
        .definition(name: .key("sort_key"), dataType: .string, constraints: byteOrder + [.required])
      )
      .field("url_search", .string, .required)
      .field("url_key", .string, .required)
      .field("created_at", .datetime)
      .field("updated_at", .datetime)
      .create()
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: "ad_payments_user_sort")
        .on("ad_payments").column("user_id").column("sort_key").column("name").run()
      try await sql.create(index: "ad_payments_user_url_key")
        .on("ad_payments").column("user_id").column("url_key").run()
    }
  }

  func revert(on database: any Database) async throws {
    try await database.schema("ad_payments").delete()
  }

  static func isPostgres(_ database: any Database) -> Bool {
    (database as? any SQLDatabase)?.dialect.name == "postgresql"
  }
}
