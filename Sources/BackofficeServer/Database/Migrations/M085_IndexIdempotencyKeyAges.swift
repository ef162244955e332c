import Fluent
import SQLKit

/// Every product creation with an `Idempotency-Key` drops the account's answers older than the
/// retention period. Without an index on their age that `DELETE` read every answer the account
/// had kept (tens of thousands after a busy day, each creation slower than the last); with it,
/// only the expired ones.
struct M085_IndexIdempotencyKeyAges: AsyncMigration {
  static let index = "idempotency_keys_user_created"

  func prepare(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.create(index: Self.index).on("idempotency_keys")
      .column("user_id").column("created_at").run()
  }

  func revert(on database: any Database) async throws {
    guard let sql = database as? any SQLDatabase else { return }
    try await sql.drop(index: Self.index).run()
  }
}
