import Fluent

struct M030_CreateMarketingCatalog: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("marketing_catalog")
      .id()
      .field("slot", .string, .required)
      .field("catalog_json", .string, .required)
      .field("source", .string, .required)
      .field("source_detail", .string)
      .field("fetched_at", .datetime, .required)
      .field("refresh_state", .string, .required)
      .field("refresh_message", .string)
      .field("refreshed_at", .datetime)
      .unique(on: "slot")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema("marketing_catalog").delete()
  }
}
