import Fluent
import SQLKit

/// One row, at most, that says the server's first administrator has been chosen. Its primary
/// key is fixed, so of two accounts created at the same moment only one can insert it: the
/// database's uniqueness check decides, on SQLite and on PostgreSQL alike (a conditional
/// `UPDATE` does not: under PostgreSQL's default isolation two of them may both see no
/// administrator). A server that already has an administrator gets the row at once.
struct M083_CreateAdministratorClaim: AsyncMigration {
  static let table = "administrator_claim"

  func prepare(on database: any Database) async throws {
    try await database.schema(Self.table)
      .field("slot", .int, .identifier(auto: false))
      .field("user_id", .uuid, .references(User.schema, "id", onDelete: .setNull))
      .create()
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.raw(
      """
      INSERT INTO \(ident: Self.table) (slot, user_id)
      SELECT 1, id FROM users WHERE is_admin = \(bind: true) ORDER BY created_at, id LIMIT 1
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(Self.table).delete()
  }
}
