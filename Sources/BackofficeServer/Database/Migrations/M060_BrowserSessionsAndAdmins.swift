import Fluent
import SQLKit

/// Server-side sessions for signed-in browsers only (the framework's session table, which kept a
/// row for every anonymous visit and never expired any, goes), and administrators: the oldest
/// account of an existing server becomes one.
struct M060_BrowserSessionsAndAdmins: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(BrowserSessionStore.table)
      .field("id", .string, .identifier(auto: false))
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("csrf", .string, .required)
      .field("data", .string, .required)
      .field("created_at", .datetime, .required)
      .field("last_seen_at", .datetime, .required)
      .create()
    try await database.schema(User.schema)
      .field("is_admin", .bool, .required, .sql(.default(false)))
      .update()
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.create(index: "browser_sessions_user")
      .on(BrowserSessionStore.table).column("user_id").run()
    try await sql.create(index: "browser_sessions_last_seen")
      .on(BrowserSessionStore.table).column("last_seen_at").run()
    try await sql.raw(
      """
      UPDATE users SET is_admin = \(bind: true)
      WHERE id = (SELECT id FROM users ORDER BY created_at, id LIMIT 1)
      """
    ).run()
    try await sql.drop(table: "_fluent_sessions").ifExists().run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(BrowserSessionStore.table).delete()
    try await database.schema(User.schema).deleteField("is_admin").update()
    try await SessionRecord.migration.prepare(on: database).get()
  }
}
