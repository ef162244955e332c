import Fluent
import SQLKit

/// CSV imports that run in the background: one row per import with its progress, and the rows
/// still to write in a table of their own (read once when a run starts, removed at the end).
struct M082_CreateImportJobs: AsyncMigration {
  static let oneRunning = "import_jobs_one_running"

  func prepare(on database: any Database) async throws {
    try await database.schema("import_jobs")
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, "id", onDelete: .cascade))
      .field("area", .string, .required)
      .field("status", .string, .required)
      .field("keep_duplicates", .bool, .required)
      .field("total", .int, .required)
      .field("done", .int, .required)
      .field("imported", .int, .required)
      .field("skipped", .int, .required)
      .field("invalid", .int, .required)
      .field("problems", .string, .required)
      .field("message", .string)
      .field("runner", .string)
      .field("heartbeat_at", .datetime, .required)
      .field("created_at", .datetime, .required)
      .field("finished_at", .datetime)
      .create()
    try await database.schema("import_job_payloads")
      .field(
        "job_id", .uuid, .identifier(auto: false),
        .references("import_jobs", "id", onDelete: .cascade)
      )
      .field("rows", .string, .required)
      .create()
    if let sql = database as? any SQLDatabase {
      try await sql.create(index: "import_jobs_user_created")
        .on("import_jobs").column("user_id").column("created_at").run()
      // One running import per account and area, so two uploads of the same file (a double
      // click) cannot both add its rows. Both databases know partial indexes.
      try await sql.raw(
        """
        CREATE UNIQUE INDEX \(ident: Self.oneRunning) ON \(ident: "import_jobs")
        (\(ident: "user_id"), \(ident: "area")) WHERE \(ident: "status") = 'running'
        """
      ).run()
    }
  }

  func revert(on database: any Database) async throws {
    try await database.schema("import_job_payloads").delete()
    try await database.schema("import_jobs").delete()
  }
}
