import Fluent
import SQLKit

struct M003_CreateLoginAttempts: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema("login_attempts")
      .id()
      .field("key", .string, .required)
      .field("attempted_at", .datetime, .required)
      .create()
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: "login_attempts_key_time")
        .on("login_attempts").column("key").column("attempted_at").run()
    }
  }

  func revert(on database: any Database) async throws {
    try await database.schema("login_attempts").delete()
  }
}
