import Foundation
import SQLKit

/// A CSV import running (or run) in the background, with its progress, as plain values. The
/// rows it writes are in `ImportJobPayload`, so reading the progress never reads them.
/// `ImportJobStore` is the only place with the `import_jobs` table's SQL.
///
/// `done`, `imported` and `skipped` change in the same transaction as the rows each batch
/// writes, so they always describe what is really in the account.
struct ImportJobRecord: Sendable, Equatable {
  static let table = "import_jobs"

  var id: UUID
  /// The workspace the record belongs to.
  var workspaceID: UUID
  /// `ImportArea.rawValue`.
  var area: String
  /// `ImportJobStatus.rawValue`.
  var status: String
  /// "Import rows that are already present" was ticked.
  var keepDuplicates: Bool
  /// Rows to write (the valid rows of the file).
  var total: Int
  /// Rows looked at so far, in file order.
  var done: Int
  var imported: Int
  /// Rows left out because the account already had them.
  var skipped: Int
  /// Rows with errors left out when the file was read.
  var invalid: Int
  /// The first problems of the rows with errors, as a JSON array of strings.
  var problems: String
  /// Why the import stopped, when it did.
  var message: String?
  /// Which run owns the job; a run that lost it (the job was taken over) writes nothing more.
  var runner: String?
  /// Set with every batch; a running job that has not moved for a while has lost its server.
  var heartbeatAt: Date
  var createdAt: Date
  var finishedAt: Date?

  /// A new running job of `workspaceID` owned by `runner`, not stored yet: nothing looked at.
  init(
    workspaceID: UUID, area: ImportArea, keepDuplicates: Bool, total: Int, invalid: Int,
    problems: String, runner: String, now: Date
  ) {
    id = UUID.random()
    self.workspaceID = workspaceID
    self.area = area.rawValue
    status = ImportJobStatus.running.rawValue
    self.keepDuplicates = keepDuplicates
    self.total = total
    done = 0
    imported = 0
    skipped = 0
    self.invalid = invalid
    self.problems = problems
    self.runner = runner
    heartbeatAt = now
    createdAt = now
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = """
    id, workspace_id, area, status, keep_duplicates, total, done, imported, skipped, invalid, \
    problems, message, runner, heartbeat_at, created_at, finished_at
    """

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    workspaceID = try row.decode(column: "workspace_id", as: UUID.self)
    area = try row.decode(column: "area", as: String.self)
    status = try row.decode(column: "status", as: String.self)
    keepDuplicates = try row.decode(column: "keep_duplicates", as: Bool.self)
    total = try row.decode(column: "total", as: Int.self)
    done = try row.decode(column: "done", as: Int.self)
    imported = try row.decode(column: "imported", as: Int.self)
    skipped = try row.decode(column: "skipped", as: Int.self)
    invalid = try row.decode(column: "invalid", as: Int.self)
    problems = try row.decode(column: "problems", as: String.self)
    message = try row.decode(column: "message", as: String?.self)
    runner = try row.decode(column: "runner", as: String?.self)
    heartbeatAt = try row.decode(column: "heartbeat_at", as: Date.self)
    createdAt = try row.decode(column: "created_at", as: Date.self)
    finishedAt = try row.decode(column: "finished_at", as: Date?.self)
  }

  /// The job as a new row of `import_jobs`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(
      table: Self.table,
      columns: [
        "id", "workspace_id", "area", "status", "keep_duplicates", "total", "done", "imported",
        "skipped", "invalid", "problems", "message", "runner", "heartbeat_at", "created_at",
        "finished_at",
      ],
      values: [
        id, workspaceID, area, status, keepDuplicates, total, done, imported, skipped, invalid,
        problems, message, runner, heartbeatAt, createdAt, finishedAt,
      ])
  }
}

/// The rows an import job writes, as JSON, kept until the job has finished so a stopped job can
/// be run again. `ImportJobStore` is the only place with the `import_job_payloads` table's SQL.
struct ImportJobPayload: Sendable, Equatable {
  static let table = "import_job_payloads"

  /// The job the rows are for (the table's key).
  var jobID: UUID
  var rows: String

  /// The payload as a new row of `import_job_payloads`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(table: Self.table, columns: ["job_id", "rows"], values: [jobID, rows])
  }
}
