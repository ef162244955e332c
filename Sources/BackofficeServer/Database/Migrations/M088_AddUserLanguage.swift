import Fluent

/// The interface language of an account. Existing accounts keep NULL, which follows the
/// browser's `Accept-Language` until the owner picks a language in Settings.
struct M088_AddUserLanguage: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(User.schema).field("ui_language", .string).update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(User.schema).deleteField("ui_language").update()
  }
}
