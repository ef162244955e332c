import Fluent

/// Leases for background jobs: one row per job name, held by one app instance until it expires.
struct M051_CreateJobLeases: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(JobLease.table)
      .field("name", .string, .identifier(auto: false))
      .field("holder", .string, .required)
      .field("expires_at", .datetime, .required)
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(JobLease.table).delete()
  }
}
