import BackofficeCore
import Foundation
import SQLKit

/// A fundraiser (збір) as stored, as plain values: what every read of `FundraiserStore` gives
/// (the only place with the `fundraisers` table's SQL). The photo lives in its own table so
/// lists never load bytes.
struct FundraiserRecord: Sendable, Equatable {
  var id: UUID
  /// The workspace the record belongs to.
  var workspaceID: UUID
  var purpose: String
  /// The goal in kopiykas, exactly; nil when the volunteer set none.
  var targetKopiykas: Int64?
  var jarID: String?
  var template: Int
  var scale: Double
  var offsetX: Double
  var offsetY: Double
  var showProgress: Bool
  var showQR: Bool
  var callToAction: String
  /// The public page's address, `/f/<slug>`; made the first time the page is switched on.
  var publicSlug: String?
  /// Whether `/f/<slug>` answers; off by default and whenever the owner takes it down.
  var isPublic: Bool
  var createdAt: Date?
  var updatedAt: Date?
  /// One more on every change; see `RecordVersion`.
  var version: Int
  /// Active (the jar is asked), closed (no longer asked) or reported (the report is public).
  var stageValue: String
  /// When it was closed; nil while active.
  var closedAt: Date?
  /// When its report was published; nil until then and after it is taken down.
  var reportedAt: Date?

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = """
    id, workspace_id, purpose, target_kopiykas, jar_id, template, scale, offset_x, offset_y, \
    show_progress, show_qr, call_to_action, public_slug, is_public, created_at, updated_at, \
    version, stage, closed_at, reported_at
    """

  /// The stored stage; a value from a newer version reads as active.
  var stage: FundraiserStage {
    get { FundraiserStage(rawValue: stageValue) ?? .active }
    set { stageValue = newValue.rawValue }
  }

  mutating func apply(_ campaign: Campaign) {
    purpose = campaign.purpose
    targetKopiykas = campaign.target.flatMap { MinorUnits(rounding: $0)?.value }
    jarID = campaign.jar?.rawValue
    template = campaign.template.number
    scale = campaign.imagePlacement.scale
    offsetX = campaign.imagePlacement.offsetX
    offsetY = campaign.imagePlacement.offsetY
    showProgress = campaign.showProgress
    showQR = campaign.showQR
    callToAction = campaign.callToAction
  }

  /// The stored values as Core's campaign. Stored rows were validated on the way in; a template
  /// number from a newer version falls back to the first design rather than failing the page.
  var campaign: Campaign {
    Campaign(
      purpose: purpose,
      target: targetKopiykas.map { MinorUnits($0).decimal },
      jar: jarID.flatMap(JarID.init(rawValue:)),
      template: PosterTemplate(number: template) ?? .blueLinear,
      imagePlacement: ImagePlacement(scale: scale, offsetX: offsetX, offsetY: offsetY).clamped(),
      showProgress: showProgress, showQR: showQR, callToAction: callToAction)
  }

  /// The fundraiser as a new row of `fundraisers`: the table's one column list for writes (the
  /// forms, the API and restores).
  var newRow: NewRow {
    NewRow(
      table: FundraiserStore.table,
      columns: [
        "id", "workspace_id", "purpose", "target_kopiykas", "jar_id", "template", "scale",
        "offset_x", "offset_y", "show_progress", "show_qr", "call_to_action", "public_slug",
        "is_public", "created_at", "updated_at", "version", "stage", "closed_at", "reported_at",
      ],
      values: [
        id, workspaceID, purpose, targetKopiykas, jarID, template, scale, offsetX, offsetY,
        showProgress, showQR, callToAction, publicSlug, isPublic, createdAt, updatedAt, version,
        stageValue, closedAt, reportedAt,
      ])
  }
}

extension FundraiserRecord {
  /// A new active fundraiser with its first version, not stored yet (`FundraiserStore.create`).
  init(id: UUID = UUID.random(), workspaceID: UUID, campaign: Campaign) {
    self.init(
      id: id, workspaceID: workspaceID, purpose: "", targetKopiykas: nil, jarID: nil,
      template: 0, scale: 1, offsetX: 0, offsetY: 0, showProgress: false, showQR: true,
      callToAction: "", publicSlug: nil, isPublic: false, createdAt: nil, updatedAt: nil,
      version: RecordVersion.first, stageValue: FundraiserStage.active.rawValue, closedAt: nil,
      reportedAt: nil)
    apply(campaign)
  }

  init(_ row: any SQLRow) throws {
    self.init(
      id: try row.decode(column: "id", as: UUID.self),
      workspaceID: try row.decode(column: "workspace_id", as: UUID.self),
      purpose: try row.decode(column: "purpose", as: String.self),
      targetKopiykas: try row.decode(column: "target_kopiykas", as: Int64?.self),
      jarID: try row.decode(column: "jar_id", as: String?.self),
      template: try row.decode(column: "template", as: Int.self),
      scale: try row.decode(column: "scale", as: Double.self),
      offsetX: try row.decode(column: "offset_x", as: Double.self),
      offsetY: try row.decode(column: "offset_y", as: Double.self),
      showProgress: try row.decode(column: "show_progress", as: Bool.self),
      showQR: try row.decode(column: "show_qr", as: Bool.self),
      callToAction: try row.decode(column: "call_to_action", as: String.self),
      publicSlug: try row.decode(column: "public_slug", as: String?.self),
      isPublic: try row.decode(column: "is_public", as: Bool.self),
      createdAt: try row.decode(column: "created_at", as: Date?.self),
      updatedAt: try row.decode(column: "updated_at", as: Date?.self),
      version: try row.decode(column: "version", as: Int.self),
      stageValue: try row.decode(column: "stage", as: String.self),
      closedAt: try row.decode(column: "closed_at", as: Date?.self),
      reportedAt: try row.decode(column: "reported_at", as: Date?.self))
  }
}

/// A fundraiser photo: bytes as uploaded, the type read from them, and an ETag. A photo with no
/// fundraiser is a draft: uploaded with a form that did not pass yet, kept so the volunteer
/// does not have to choose it again.
struct FundraiserPhotoRecord: Sendable, Equatable {
  var id: UUID
  /// The workspace the record belongs to.
  var workspaceID: UUID
  var fundraiserID: UUID?
  var data: Data
  var mime: String
  var width: Int
  var height: Int
  /// Hex SHA-256 of the bytes.
  var etag: String
  var createdAt: Date?

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns =
    "id, workspace_id, fundraiser_id, data, mime, width, height, etag, created_at"

  /// `data:image/jpeg;base64,…`, for SVG that must carry its own image.
  var dataURI: String { "data:\(mime);base64,\(data.base64EncodedString())" }

  /// The photo as a new row of `fundraiser_photos`: the table's one column list for writes
  /// (drafts of the forms and the API, restores).
  var newRow: NewRow {
    NewRow(
      table: FundraiserPhotos.table,
      columns: [
        "id", "workspace_id", "fundraiser_id", "data", "mime", "width", "height", "etag",
        "created_at",
      ],
      values: [id, workspaceID, fundraiserID, data, mime, width, height, etag, createdAt])
  }
}

extension FundraiserPhotoRecord {
  init(
    id: UUID = UUID.random(), workspaceID: UUID, fundraiserID: UUID?, data: Data, info: ImageInfo,
    etag: String, createdAt: Date
  ) {
    self.init(
      id: id, workspaceID: workspaceID, fundraiserID: fundraiserID, data: data,
      mime: info.kind.mimeType, width: info.dimensions.width, height: info.dimensions.height,
      etag: etag, createdAt: createdAt)
  }

  init(_ row: any SQLRow) throws {
    self.init(
      id: try row.decode(column: "id", as: UUID.self),
      workspaceID: try row.decode(column: "workspace_id", as: UUID.self),
      fundraiserID: try row.decode(column: "fundraiser_id", as: UUID?.self),
      data: try row.decode(column: "data", as: Data.self),
      mime: try row.decode(column: "mime", as: String.self),
      width: try row.decode(column: "width", as: Int.self),
      height: try row.decode(column: "height", as: Int.self),
      etag: try row.decode(column: "etag", as: String.self),
      createdAt: try row.decode(column: "created_at", as: Date?.self))
  }
}

/// The PNG link previews show for a fundraiser's public page: the poster as the owner's
/// browser last drew it (on download or when the page was switched on).
struct FundraiserShareImageRecord: Sendable, Equatable {
  var id: UUID
  var fundraiserID: UUID
  var data: Data
  /// Hex SHA-256 of the bytes.
  var etag: String
  var updatedAt: Date?

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = "id, fundraiser_id, data, etag, updated_at"

  /// The picture as a new row of `fundraiser_share_images`: the table's one column list for
  /// writes.
  var newRow: NewRow {
    NewRow(
      table: FundraiserStore.shareImageTable,
      columns: ["id", "fundraiser_id", "data", "etag", "updated_at"],
      values: [id, fundraiserID, data, etag, updatedAt])
  }
}

extension FundraiserShareImageRecord {
  init(_ row: any SQLRow) throws {
    self.init(
      id: try row.decode(column: "id", as: UUID.self),
      fundraiserID: try row.decode(column: "fundraiser_id", as: UUID.self),
      data: try row.decode(column: "data", as: Data.self),
      etag: try row.decode(column: "etag", as: String.self),
      updatedAt: try row.decode(column: "updated_at", as: Date?.self))
  }
}

/// One fetch of a fundraiser's jar: what it said, or why it failed.
struct JarSnapshotRecord: Sendable, Equatable {
  var id: UUID
  var fundraiserID: UUID
  /// The jar that was asked; the fundraiser's jar may change later.
  var jarID: String
  var takenAt: Date
  var ok: Bool
  var amountKopiykas: Int64?
  var goalKopiykas: Int64?
  /// The service's own status text, e.g. "ACTIVE".
  var status: String?
  /// Why the fetch failed, as `JarFetchError.storedForm` (a code turned into words in the
  /// reader's language when shown; rows from before hold Ukrainian words, shown as they are).
  var error: String?

  static let columnNames = [
    "id", "fundraiser_id", "jar_id", "taken_at", "ok", "amount_kopiykas", "goal_kopiykas",
    "status", "error",
  ]

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = columnNames.joined(separator: ", ")

  /// The same columns of the table named `alias` in a query.
  static func columns(of alias: String) -> String {
    columnNames.map { "\(alias).\($0)" }.joined(separator: ", ")
  }

  /// The jar's answer, for a successful fetch.
  var value: JarSnapshotValue? {
    guard ok, let amountKopiykas else { return nil }
    let serviceStatus = status ?? "ACTIVE"
    return JarSnapshotValue(
      amountKopiykas: amountKopiykas, goalKopiykas: goalKopiykas,
      status: JarStatus(serviceValue: serviceStatus), serviceStatus: serviceStatus)
  }

  /// The snapshot as a new row of `jar_snapshots`: the table's one column list for writes (the
  /// refreshes by hand and by the job, restores).
  var newRow: NewRow {
    NewRow(
      table: JarSnapshots.table, columns: Self.columnNames,
      values: [
        id, fundraiserID, jarID, takenAt, ok, amountKopiykas, goalKopiykas, status, error,
      ])
  }
}

extension JarSnapshotRecord {
  init(
    id: UUID = UUID.random(), fundraiserID: UUID, jarID: JarID, takenAt: Date,
    result: Result<JarSnapshotValue, JarFetchError>
  ) {
    self.init(
      id: id, fundraiserID: fundraiserID, jarID: jarID.rawValue, takenAt: takenAt, ok: false,
      amountKopiykas: nil, goalKopiykas: nil, status: nil, error: nil)
    switch result {
    case .success(let value):
      ok = true
      amountKopiykas = value.amountKopiykas
      goalKopiykas = value.goalKopiykas
      status = value.serviceStatus
    case .failure(let failure):
      error = failure.storedForm
    }
  }

  init(_ row: any SQLRow) throws {
    self.init(
      id: try row.decode(column: "id", as: UUID.self),
      fundraiserID: try row.decode(column: "fundraiser_id", as: UUID.self),
      jarID: try row.decode(column: "jar_id", as: String.self),
      takenAt: try row.decode(column: "taken_at", as: Date.self),
      ok: try row.decode(column: "ok", as: Bool.self),
      amountKopiykas: try row.decode(column: "amount_kopiykas", as: Int64?.self),
      goalKopiykas: try row.decode(column: "goal_kopiykas", as: Int64?.self),
      status: try row.decode(column: "status", as: String?.self),
      error: try row.decode(column: "error", as: String?.self))
  }
}
