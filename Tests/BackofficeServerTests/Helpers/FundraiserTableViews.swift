import BackofficeCore
import Fluent
import Foundation

@testable import BackofficeServer

// The fundraiser tables as tests inspect them. The app has no models for them:
// `FundraiserStore`, `FundraiserPhotos` and `JarSnapshots` hold their SQL and read rows into
// plain values (`FundraiserRecord`, `FundraiserPhotoRecord`, `FundraiserShareImageRecord`,
// `JarSnapshotRecord`). Tests look at what was stored (and, to play another writer, change a
// row) through these small Fluent views of the same tables.

final class FundraiserTable: Model, @unchecked Sendable {
  static let schema = "fundraisers"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "purpose") var purpose: String
  @OptionalField(key: "target_kopiykas") var targetKopiykas: Int64?
  @OptionalField(key: "jar_id") var jarID: String?
  @Field(key: "template") var template: Int
  @Field(key: "scale") var scale: Double
  @Field(key: "offset_x") var offsetX: Double
  @Field(key: "offset_y") var offsetY: Double
  @Field(key: "show_progress") var showProgress: Bool
  @Field(key: "show_qr") var showQR: Bool
  @Field(key: "call_to_action") var callToAction: String
  @OptionalField(key: "public_slug") var publicSlug: String?
  @Field(key: "is_public") var isPublic: Bool
  @Timestamp(key: "created_at", on: .none) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .none) var updatedAt: Date?
  @Field(key: "version") var version: Int
  @Field(key: "stage") var stageValue: String
  @OptionalField(key: "closed_at") var closedAt: Date?
  @OptionalField(key: "reported_at") var reportedAt: Date?

  init() {}

  var stage: FundraiserStage {
    get { FundraiserStage(rawValue: stageValue) ?? .active }
    set { stageValue = newValue.rawValue }
  }

  /// The fundraiser `id` as the app reads it (its store's value), whatever its workspace.
  static func stored(_ id: UUID, on db: any Database) async throws -> FundraiserRecord? {
    guard let row = try await find(id, on: db) else { return nil }
    return try await FundraiserStore(db: db, workspaceID: row.workspaceID).find(id)
  }
}

final class FundraiserPhotoTable: Model, @unchecked Sendable {
  static let schema = "fundraiser_photos"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @OptionalField(key: "fundraiser_id") var fundraiserID: UUID?
  @Field(key: "data") var data: Data
  @Field(key: "mime") var mime: String
  @Field(key: "width") var width: Int
  @Field(key: "height") var height: Int
  @Field(key: "etag") var etag: String
  @Timestamp(key: "created_at", on: .none) var createdAt: Date?

  init() {}
}

final class FundraiserShareImageTable: Model, @unchecked Sendable {
  static let schema = "fundraiser_share_images"

  @ID(key: .id) var id: UUID?
  @Field(key: "fundraiser_id") var fundraiserID: UUID
  @Field(key: "data") var data: Data
  @Field(key: "etag") var etag: String
  @Timestamp(key: "updated_at", on: .none) var updatedAt: Date?

  init() {}
}

final class JarSnapshotTable: Model, @unchecked Sendable {
  static let schema = "jar_snapshots"

  @ID(key: .id) var id: UUID?
  @Field(key: "fundraiser_id") var fundraiserID: UUID
  @Field(key: "jar_id") var jarID: String
  @Field(key: "taken_at") var takenAt: Date
  @Field(key: "ok") var ok: Bool
  @OptionalField(key: "amount_kopiykas") var amountKopiykas: Int64?
  @OptionalField(key: "goal_kopiykas") var goalKopiykas: Int64?
  @OptionalField(key: "status") var status: String?
  @OptionalField(key: "error") var error: String?

  init() {}
}

extension JarSnapshots {
  /// Stores `snapshot` as the app does (its row maker).
  static func store(_ snapshot: JarSnapshotRecord, on db: any Database) async throws {
    try await insert([snapshot.newRow], on: db)
  }
}
