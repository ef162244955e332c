import BackofficeCore
import Fluent
import Foundation
import Vapor

/// A fundraiser (збір) as stored. The photo lives in its own table so lists never load bytes.
final class FundraiserRecord: Model, @unchecked Sendable {
  static let schema = "fundraisers"

  @ID(key: .id) var id: UUID?
  /// The workspace the record belongs to.
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "purpose") var purpose: String
  /// The goal in kopiykas, exactly; nil when the volunteer set none.
  @OptionalField(key: "target_kopiykas") var targetKopiykas: Int64?
  @OptionalField(key: "jar_id") var jarID: String?
  @Field(key: "template") var template: Int
  @Field(key: "scale") var scale: Double
  @Field(key: "offset_x") var offsetX: Double
  @Field(key: "offset_y") var offsetY: Double
  @Field(key: "show_progress") var showProgress: Bool
  @Field(key: "show_qr") var showQR: Bool
  @Field(key: "call_to_action") var callToAction: String
  /// The public page's address, `/f/<slug>`; made the first time the page is switched on.
  @OptionalField(key: "public_slug") var publicSlug: String?
  /// Whether `/f/<slug>` answers; off by default and whenever the owner takes it down.
  @Field(key: "is_public") var isPublic: Bool
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?
  /// One more on every change; see `RecordVersion`.
  @Field(key: "version") var version: Int
  /// Active (the jar is asked), closed (no longer asked) or reported (the report is public).
  @Field(key: "stage") var stageValue: String
  /// When it was closed; nil while active.
  @OptionalField(key: "closed_at") var closedAt: Date?
  /// When its report was published; nil until then and after it is taken down.
  @OptionalField(key: "reported_at") var reportedAt: Date?

  init() {}

  init(workspaceID: UUID, campaign: Campaign) {
    self.workspaceID = workspaceID
    self.version = RecordVersion.first
    self.isPublic = false
    self.stageValue = FundraiserStage.active.rawValue
    apply(campaign)
  }

  /// The stored stage; a value from a newer version reads as active.
  var stage: FundraiserStage {
    get { FundraiserStage(rawValue: stageValue) ?? .active }
    set { stageValue = newValue.rawValue }
  }

  func apply(_ campaign: Campaign) {
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

  func requireID() throws -> UUID {
    guard let id else { throw Abort(.internalServerError, reason: "Fundraiser without id") }
    return id
  }
}

extension FundraiserRecord: VersionedRecord {
  var ownerID: UUID { workspaceID }
}

/// A fundraiser photo: bytes as uploaded, the type read from them, and an ETag. A photo with no
/// fundraiser is a draft: uploaded with a form that did not pass yet, kept so the volunteer
/// does not have to choose it again.
final class FundraiserPhotoRecord: Model, @unchecked Sendable {
  static let schema = "fundraiser_photos"

  @ID(key: .id) var id: UUID?
  /// The workspace the record belongs to.
  @Field(key: "workspace_id") var workspaceID: UUID
  @OptionalParent(key: "fundraiser_id") var fundraiser: FundraiserRecord?
  @Field(key: "data") var data: Data
  @Field(key: "mime") var mime: String
  @Field(key: "width") var width: Int
  @Field(key: "height") var height: Int
  /// Hex SHA-256 of the bytes.
  @Field(key: "etag") var etag: String
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(workspaceID: UUID, fundraiserID: UUID?, data: Data, info: ImageInfo, etag: String) {
    self.workspaceID = workspaceID
    self.$fundraiser.id = fundraiserID
    self.data = data
    self.mime = info.kind.mimeType
    self.width = info.dimensions.width
    self.height = info.dimensions.height
    self.etag = etag
  }

  /// `data:image/jpeg;base64,…`, for SVG that must carry its own image.
  var dataURI: String { "data:\(mime);base64,\(data.base64EncodedString())" }
}

/// The PNG link previews show for a fundraiser's public page: the poster as the owner's
/// browser last drew it (on download or when the page was switched on).
final class FundraiserShareImageRecord: Model, @unchecked Sendable {
  static let schema = "fundraiser_share_images"

  @ID(key: .id) var id: UUID?
  @Parent(key: "fundraiser_id") var fundraiser: FundraiserRecord
  @Field(key: "data") var data: Data
  /// Hex SHA-256 of the bytes.
  @Field(key: "etag") var etag: String
  @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

  init() {}
}

/// One fetch of a fundraiser's jar: what it said, or why it failed.
final class JarSnapshotRecord: Model, @unchecked Sendable {
  static let schema = "jar_snapshots"

  @ID(key: .id) var id: UUID?
  @Parent(key: "fundraiser_id") var fundraiser: FundraiserRecord
  /// The jar that was asked; the fundraiser's jar may change later.
  @Field(key: "jar_id") var jarID: String
  @Field(key: "taken_at") var takenAt: Date
  @Field(key: "ok") var ok: Bool
  @OptionalField(key: "amount_kopiykas") var amountKopiykas: Int64?
  @OptionalField(key: "goal_kopiykas") var goalKopiykas: Int64?
  /// The service's own status text, e.g. "ACTIVE".
  @OptionalField(key: "status") var status: String?
  /// Why the fetch failed, as `JarFetchError.storedForm` (a code turned into words in the
  /// reader's language when shown; rows from before hold Ukrainian words, shown as they are).
  @OptionalField(key: "error") var error: String?

  init() {}

  init(
    fundraiserID: UUID, jarID: JarID, takenAt: Date, result: Result<JarSnapshotValue, JarFetchError>
  ) {
    self.$fundraiser.id = fundraiserID
    self.jarID = jarID.rawValue
    self.takenAt = takenAt
    switch result {
    case .success(let value):
      ok = true
      amountKopiykas = value.amountKopiykas
      goalKopiykas = value.goalKopiykas
      status = value.serviceStatus
    case .failure(let failure):
      ok = false
      error = failure.storedForm
    }
  }

  /// The jar's answer, for a successful fetch.
  var value: JarSnapshotValue? {
    guard ok, let amountKopiykas else { return nil }
    let serviceStatus = status ?? "ACTIVE"
    return JarSnapshotValue(
      amountKopiykas: amountKopiykas, goalKopiykas: goalKopiykas,
      status: JarStatus(serviceValue: serviceStatus), serviceStatus: serviceStatus)
  }
}

extension FundraiserPhotoRecord {
  func requireID() throws -> UUID {
    guard let id else { throw Abort(.internalServerError, reason: "Photo without id") }
    return id
  }
}
