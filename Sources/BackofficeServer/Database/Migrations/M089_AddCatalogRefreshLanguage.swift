import Fluent

/// The language a failed catalog refresh's message was written in, so a page in the other
/// language marks it with `lang` instead of passing it off as its own words.
struct M089_AddCatalogRefreshLanguage: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("marketing_catalog").field("refresh_language", .string)
      .update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema("marketing_catalog").deleteField("refresh_language")
      .update()
  }
}
