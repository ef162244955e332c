import Fluent
import Foundation

/// A CSV import running (or run) in the background, with its progress. The rows it writes are
/// in `ImportJobPayload`, so reading the progress never reads them.
///
/// `done`, `imported` and `skipped` change in the same transaction as the rows each batch
/// writes, so they always describe what is really in the account.
final class ImportJobRecord: Model, @unchecked Sendable {
  static let schema = "import_jobs"

  @ID(key: .id) var id: UUID?
  /// The workspace the record belongs to.
  @Field(key: "workspace_id") var workspaceID: UUID
  /// `ImportArea.rawValue`.
  @Field(key: "area") var area: String
  /// `ImportJobStatus.rawValue`.
  @Field(key: "status") var status: String
  /// "Import rows that are already present" was ticked.
  @Field(key: "keep_duplicates") var keepDuplicates: Bool
  /// Rows to write (the valid rows of the file).
  @Field(key: "total") var total: Int
  /// Rows looked at so far, in file order.
  @Field(key: "done") var done: Int
  @Field(key: "imported") var imported: Int
  /// Rows left out because the account already had them.
  @Field(key: "skipped") var skipped: Int
  /// Rows with errors left out when the file was read.
  @Field(key: "invalid") var invalid: Int
  /// The first problems of the rows with errors, as a JSON array of strings.
  @Field(key: "problems") var problems: String
  /// Why the import stopped, when it did.
  @OptionalField(key: "message") var message: String?
  /// Which run owns the job; a run that lost it (the job was taken over) writes nothing more.
  @OptionalField(key: "runner") var runner: String?
  /// Set with every batch; a running job that has not moved for a while has lost its server.
  @Field(key: "heartbeat_at") var heartbeatAt: Date
  @Field(key: "created_at") var createdAt: Date
  @OptionalField(key: "finished_at") var finishedAt: Date?

  init() {}
}

/// The rows an import job writes, as JSON, kept until the job has finished so a stopped job can
/// be run again.
final class ImportJobPayload: Model, @unchecked Sendable {
  static let schema = "import_job_payloads"

  @ID(custom: "job_id", generatedBy: .user) var id: UUID?
  @Field(key: "rows") var rows: String

  init() {}

  init(jobID: UUID, rows: String) {
    self.id = jobID
    self.rows = rows
  }
}
