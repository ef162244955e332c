import Fluent
import Foundation

@testable import BackofficeServer

/// The `import_jobs` table as tests read it (the app goes through `ImportJobStore`).
final class ImportJobTable: Model, @unchecked Sendable {
  static let schema = "import_jobs"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  /// `ImportArea.rawValue`.
  @Field(key: "area") var area: String
  /// `ImportJobStatus.rawValue`.
  @Field(key: "status") var status: String
  @Field(key: "keep_duplicates") var keepDuplicates: Bool
  @Field(key: "total") var total: Int
  @Field(key: "done") var done: Int
  @Field(key: "imported") var imported: Int
  @Field(key: "skipped") var skipped: Int
  @Field(key: "invalid") var invalid: Int
  /// A JSON array of strings.
  @Field(key: "problems") var problems: String
  @OptionalField(key: "message") var message: String?
  @OptionalField(key: "runner") var runner: String?
  @Field(key: "heartbeat_at") var heartbeatAt: Date
  @Field(key: "created_at") var createdAt: Date
  @OptionalField(key: "finished_at") var finishedAt: Date?

  init() {}
}

/// The `import_job_payloads` table, for tests (the app goes through `ImportJobStore`).
final class ImportJobPayloadTable: Model, @unchecked Sendable {
  static let schema = "import_job_payloads"

  @ID(custom: "job_id", generatedBy: .user) var id: UUID?
  @Field(key: "rows") var rows: String

  init() {}
}

/// The `marketing_catalog` table, for tests (the app goes through `MarketingCatalogStore`).
final class MarketingCatalogTable: Model, @unchecked Sendable {
  static let schema = "marketing_catalog"

  @ID(key: .id) var id: UUID?
  @Field(key: "slot") var slot: String
  /// `MarketingCatalog` encoded as JSON.
  @Field(key: "catalog_json") var catalogJSON: String
  @Field(key: "source") var source: String
  @OptionalField(key: "source_detail") var sourceDetail: String?
  @Field(key: "fetched_at") var fetchedAt: Date
  @Field(key: "refresh_state") var refreshState: String
  @OptionalField(key: "refresh_message") var refreshMessage: String?
  @OptionalField(key: "refresh_language") var refreshLanguage: String?
  @OptionalField(key: "refreshed_at") var refreshedAt: Date?

  init() {}
}
