import BackofficeCore
import Fluent
import Vapor

/// `/api/v1/fundraisers`: the same fundraisers, rules and messages (in the request's interface
/// language) as the pages, as JSON; posters as SVG; jar snapshots and refreshing.
struct FundraisersAPIController: RouteCollection {

  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.apiFundraisers, use: list)
    routes.on(Routes.apiFundraiserCreate, use: create)
    routes.on(Routes.apiFundraiser, use: get)
    routes.on(Routes.apiFundraiserUpdate, use: update)
    routes.on(Routes.apiFundraiserDelete, use: delete)
    routes.on(Routes.apiFundraiserPoster, use: poster)
    routes.on(Routes.apiFundraiserPhoto, use: photo)
    routes.on(Routes.apiFundraiserSnapshots, use: snapshots)
    routes.on(Routes.apiFundraiserRefresh, use: refresh)
    routes.on(Routes.apiFundraiserReport, use: report)
    routes.on(Routes.apiFundraiserStage, use: stage)
  }

  // MARK: bodies

  struct Progress: Codable, Equatable {
    var percent: Int
    var collected: String
    var goal: String
    /// "target" or "jar_goal".
    var basis: String
  }

  struct Jar: Codable, Equatable {
    var id: String
    var link: String
    /// "active" or "closed", from the last good snapshot.
    var status: String?
    var amount: String?
    var goal: String?
    var takenAt: Date?
    var lastAttemptAt: Date?
    /// Why the last attempt failed, when it did (the good data above is kept).
    var lastError: String?
  }

  struct Item: Codable, Equatable {
    @LowercasedID var id: UUID
    var purpose: String
    var target: String?
    var jar: Jar?
    var template: Int
    var scale: Double
    var offsetX: Double
    var offsetY: Double
    var showProgress: Bool
    var showQr: Bool
    var callToAction: String
    var progress: Progress?
    var posterUrl: String
    /// The public page's address while it is on (`/f/…`), else absent.
    var publicUrl: String?
    var photoUrl: String
    /// "active", "closed" or "reported".
    var stage: String
    var closedAt: Date?
    var reportedAt: Date?
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int
  }

  struct ReportReceipt: Codable, Equatable {
    @LowercasedID var id: UUID
    var `public`: Bool
  }

  struct ReportPurchase: Codable, Equatable {
    @LowercasedID var expenseId: UUID
    var title: String
    var amount: String
    /// The workspace's currency, which `amount` is in.
    var currency: String
    /// When the money was spent, as the expenses API writes it; absent for an undated one.
    var spentAt: Date?
    var receipts: [ReportReceipt]
  }

  struct ReportOther: Codable, Equatable {
    var currency: String
    var amount: String
  }

  /// The money of a fundraiser: raised (the jar's last good amount), spent in hryvnias, spent
  /// in another currency (never converted), remaining (null while unknown).
  struct Report: Codable, Equatable {
    var raised: String?
    var spent: String
    var spentOther: [ReportOther]
    var remaining: String?
    var currency: String
    var purchases: [ReportPurchase]
  }

  struct StageInput: Decodable {
    var stage: String?
  }

  static var recordName: String { L("fundraisers.api.record_name") }

  struct Snapshot: Codable, Equatable {
    @LowercasedID var id: UUID
    var jarId: String
    var takenAt: Date
    var ok: Bool
    var amount: String?
    var goal: String?
    var status: String?
    var error: String?
  }

  struct RefreshResult: Codable {
    var snapshot: Snapshot
    var fundraiser: Item
  }

  /// Missing text fields count as empty, so they get the same messages as blank form fields.
  struct Input: Decodable {
    var purpose: String?
    var target: FlexibleText?
    var jarLink: String?
    var template: Int?
    var scale: Double?
    var offsetX: Double?
    var offsetY: Double?
    var showProgress: Bool?
    /// Defaults to true, as on the form.
    var showQr: Bool?
    var callToAction: String?
    /// The photo's bytes, base64 (a `data:` URL prefix is allowed).
    var photo: String?
  }

  /// An amount as a string ("15000.50") or, leniently, a JSON number.
  struct FlexibleText: Decodable {
    var text: String
    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        self.text = text
      } else if let number = try? container.decode(Decimal.self) {
        self.text = "\(number)"
      } else if container.decodeNil() {
        self.text = ""
      } else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "Expected a decimal string")
      }
    }
  }

  // MARK: handlers

  @Sendable func list(req: Request) async throws -> Response {
    let store = FundraiserStore(db: req.db, workspaceID: try req.workspaceID)
    let paging = try Paging.read(req)
    let slice = try await store.list(page: paging.page, per: paging.perPage)
    let states = try await JarSnapshots.states(for: slice.items, on: req.db)
    let items = slice.items.map { record in
      body(record, id: record.id, state: states[record.id] ?? .none)
    }
    return try ListPage(items: items, paging: paging, total: slice.total).response(for: req)
  }

  @Sendable func get(req: Request) async throws -> Response {
    let record = try await found(req)
    return try APIResponse.json(try await detail(record, db: req.db)).withVersion(record.version)
  }

  @Sendable func create(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let (campaign, photo) = try validated(req, existingPhoto: false)
    guard let photo else { throw APIError.validation(["photo": CampaignMessages.noImage]) }
    let record = try await FundraiserStore(db: req.db, workspaceID: workspaceID).create(
      campaign, photo: .upload(photo, now: req.now))
    req.noteActivity(.created, .fundraiser, id: record.id, name: record.purpose)
    return try APIResponse.created(
      try await detail(record, db: req.db),
      location: Routes.apiFundraiser.href(id: record.id)
    ).withVersion(record.version)
  }

  /// Without `If-Match` the last write wins, as before versions; with it, only onto a version
  /// it names (412 otherwise).
  @Sendable func update(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let record = try await found(req)
    let id = record.id
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: Self.recordName)
    let (campaign, photo) = try validated(req, existingPhoto: true)
    guard
      let saved = try await FundraiserStore(db: req.db, workspaceID: workspaceID).update(
        record, to: campaign, photo: photo.map { .upload($0, now: req.now) }, expected: expected)
    else { throw try await lostWrite(req, id: id) }
    req.noteActivity(.changed, .fundraiser, id: id, name: saved.purpose)
    return try APIResponse.json(try await detail(saved, db: req.db)).withVersion(saved.version)
  }

  @Sendable func delete(req: Request) async throws -> Response {
    let record = try await found(req)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: Self.recordName)
    guard try await FundraiserStore.delete(record, expected: expected, on: req.db) else {
      throw try await lostWrite(req, id: record.id)
    }
    req.noteActivity(.deleted, .fundraiser, id: record.id, name: record.purpose)
    return Response(status: .noContent)
  }

  /// Why a versioned write found nothing to change: deleted meanwhile, or changed.
  func lostWrite(_ req: Request, id: UUID) async throws -> APIError {
    let store = FundraiserStore(db: req.db, workspaceID: try req.workspaceID)
    return APIError.lostWrite(
      stillThere: try await store.find(id) != nil, record: Self.recordName)
  }

  @Sendable func poster(req: Request) async throws -> Response {
    let record = try await found(req)
    if let raw = req.queryValue("format"), PosterFormat(rawValue: raw) == nil {
      throw APIError.validation(["format": L("fundraisers.api.format_invalid")])
    }
    if req.queryValue("template") != nil, FundraiserPosters.template(req) == nil {
      throw APIError.validation(["template": L("fundraisers.api.template_invalid")])
    }
    if let download = req.queryValue("download"), download != "1" {
      throw APIError.validation(["download": L("fundraisers.api.download_invalid")])
    }
    return try await FundraiserPosters.posterResponse(
      record, req: req, download: req.queryValue("download") == "1")
  }

  @Sendable func photo(req: Request) async throws -> Response {
    let record = try await found(req)
    let photo = try owned(await FundraiserPhotos.photo(for: record.id, on: req.db))
    return FundraiserPosters.photoResponse(photo, req: req)
  }

  @Sendable func snapshots(req: Request) async throws -> Response {
    let record = try await found(req)
    let paging = try Paging.read(req)
    let result = try await JarSnapshots.page(
      for: record.id, page: paging.page, per: paging.perPage, on: req.db)
    return try ListPage(
      items: result.items.map(snapshot), paging: paging, total: result.total
    ).response(for: req)
  }

  /// Asks the jar now. A failed fetch is still a stored snapshot (`ok: false` with the reason),
  /// so the answer is 200 either way; the fundraiser keeps its last good figures.
  @Sendable func refresh(req: Request) async throws -> Response {
    let record = try await found(req)
    guard record.jarID != nil else {
      throw APIError(
        .conflict, code: "no_jar", message: L("fundraisers.api.no_jar"))
    }
    guard record.stage.asksJar else {
      throw APIError(
        .conflict, code: "fundraiser_closed", message: L("fundraisers.flash.not_asked_closed"))
    }
    let app = req.application
    guard
      let stored = try await JarRefresh.refresh(
        record, client: app.jarClient, on: req.db, now: app.clients.now)
    else {
      throw APIError(
        .internalServerError, code: "refresh_failed",
        message: L("fundraisers.api.refresh_failed"))
    }
    return try APIResponse.json(
      RefreshResult(snapshot: snapshot(stored), fundraiser: try await detail(record, db: req.db)))
  }

  @Sendable func report(req: Request) async throws -> Response {
    let record = try await found(req)
    let report = try await FundraiserReport.load(
      fundraiser: record, workspaceID: try req.workspaceID, on: req.db)
    return try APIResponse.json(Self.body(report))
  }

  static func body(_ report: FundraiserReport) -> Report {
    Report(
      raised: report.raised.map(FundraiserFormat.apiAmount),
      spent: FundraiserFormat.apiAmount(report.spent),
      spentOther: report.spentOther.map {
        ReportOther(currency: $0.currency, amount: FundraiserFormat.apiAmount($0.amount))
      },
      remaining: report.remaining.map(FundraiserFormat.apiAmount),
      currency: FundraiserReport.jarCurrency,
      purchases: report.purchases.map { purchase in
        ReportPurchase(
          expenseId: purchase.expenseID, title: purchase.title,
          amount: FundraiserFormat.apiAmount(purchase.amount), currency: report.currency,
          spentAt: purchase.spentAt,
          receipts: purchase.receipts.map { ReportReceipt(id: $0.id, public: $0.isPublic) })
      })
  }

  /// Moves the fundraiser one step (`{"stage": "closed"}`), honouring `If-Match`. A stage that
  /// is not one step away is 409 `stage_not_allowed`; an unknown one 422.
  @Sendable func stage(req: Request) async throws -> Response {
    let record = try await found(req)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: Self.recordName)
    let input: StageInput
    do {
      input = try req.content.decode(StageInput.self, using: JSONDecoder.api)
    } catch {
      throw APIError(.badRequest, code: "bad_request", message: L("fundraisers.api.bad_body"))
    }
    guard let target = input.stage.flatMap(FundraiserStage.init(rawValue:)) else {
      throw APIError.validation(["stage": L("fundraisers.stage.unknown")])
    }
    let id = record.id
    switch try await FundraiserStageMove.move(record, to: target, expected: expected, req: req) {
    case .moved(let saved):
      req.noteActivity(.changed, .fundraiser, id: id, name: saved.purpose)
      return try APIResponse.json(try await detail(saved, db: req.db))
        .withVersion(saved.version)
    case .notAllowed(let from):
      throw APIError(
        .conflict, code: "stage_not_allowed",
        message: FundraiserStageMove.notAllowedMessage(from: from, to: target))
    case .changed where expected == nil:
      // Without If-Match only the stage is checked: someone moved it first.
      throw APIError(
        .conflict, code: "stage_changed", message: L("fundraisers.stage.changed"))
    case .changed, .gone:
      throw try await lostWrite(req, id: id)
    }
  }

  // MARK: helpers

  func found(_ req: Request) async throws -> FundraiserRecord {
    let store = FundraiserStore(db: req.db, workspaceID: try req.workspaceID)
    return try owned(await store.find(req.parameters.get("fundraiserID")))
  }

  /// The body as a valid campaign (and photo, when one was sent), or a 422 naming every
  /// failing field with Core's message.
  func validated(_ req: Request, existingPhoto: Bool) throws -> (Campaign, ValidPhoto?) {
    let input: Input
    do {
      input = try req.content.decode(Input.self, using: JSONDecoder.api)
    } catch {
      throw APIError(
        .badRequest, code: "bad_request", message: L("fundraisers.api.bad_body"))
    }
    var photo: ValidPhoto?
    var photoError: String?
    var photoTooLarge = false
    if let encoded = input.photo, !encoded.isEmpty {
      var text = Substring(encoded)
      if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
        text = text[text.index(after: comma)...]
      }
      if let data = Data(base64Encoded: String(text), options: .ignoreUnknownCharacters) {
        switch ValidPhoto.check(data, maxBytes: req.config.maxUploadBytes) {
        case .success(let valid)?: photo = valid
        case .failure(let error)?:
          photoError = error.message
          if case .tooLarge = error.reason { photoTooLarge = true }
        case nil: photoError = CampaignPhotoError(.empty).message
        }
      } else {
        photoError = L("fundraisers.api.photo_not_base64")
      }
    }
    var template: PosterTemplate?
    var templateError: String?
    if let number = input.template {
      template = PosterTemplate(number: number)
      if template == nil { templateError = L("fundraisers.api.template_invalid") }
    }
    let draft = CampaignDraft(
      purpose: input.purpose ?? "", targetText: input.target?.text ?? "",
      jarLinkText: input.jarLink ?? "", hasPhoto: existingPhoto || photo != nil,
      template: template,
      imagePlacement: ImagePlacement(
        scale: input.scale ?? 1, offsetX: input.offsetX ?? 0, offsetY: input.offsetY ?? 0),
      showProgress: input.showProgress ?? false, showQR: input.showQr ?? true,
      callToAction: input.callToAction ?? "")
    var fields: [String: String] = [:]
    var campaign: Campaign?
    do throws(CampaignValidationErrors) {
      campaign = try draft.validate()
    } catch {
      for (field, message) in error.messages { fields[field.rawValue] = message }
    }
    if let photoError { fields[CampaignField.image.rawValue] = photoError }
    if let templateError { fields[CampaignField.template.rawValue] = templateError }
    guard fields.isEmpty, let campaign else {
      // The API names fields as they are sent.
      var renamed = fields
      if let message = renamed.removeValue(forKey: CampaignField.jarLink.rawValue) {
        renamed["jar_link"] = message
      }
      if let message = renamed.removeValue(forKey: CampaignField.image.rawValue) {
        renamed["photo"] = message
      }
      if let message = renamed.removeValue(forKey: CampaignField.callToAction.rawValue) {
        renamed["call_to_action"] = message
      }
      // Like every upload: a photo over the limit is 413, with the other fields' problems too.
      if photoTooLarge {
        throw APIError(
          .payloadTooLarge, code: "payload_too_large",
          message: renamed["photo"] ?? L("fundraisers.api.photo_too_large"), fields: renamed)
      }
      throw APIError.validation(renamed)
    }
    return (campaign, photo)
  }

  func detail(_ record: FundraiserRecord, db: any Database) async throws -> Item {
    body(record, id: record.id, state: try await JarSnapshots.state(for: record, on: db))
  }

  func body(_ record: FundraiserRecord, id: UUID, state: JarState) -> Item {
    let campaign = record.campaign
    let progress = state.progress(target: campaign.target)
    return Item(
      id: id, purpose: campaign.purpose,
      target: campaign.target.map(FundraiserFormat.apiAmount),
      jar: campaign.jar.map { jar in
        Jar(
          id: jar.rawValue, link: jar.link, status: state.lastGood?.status.rawValue,
          amount: state.lastGood.map { FundraiserFormat.apiAmount(kopiykas: $0.amountKopiykas) },
          goal: state.lastGood?.goalKopiykas.map { FundraiserFormat.apiAmount(kopiykas: $0) },
          takenAt: state.lastGoodAt, lastAttemptAt: state.lastAttemptAt,
          lastError: state.lastError)
      },
      template: campaign.template.number, scale: campaign.imagePlacement.scale,
      offsetX: campaign.imagePlacement.offsetX, offsetY: campaign.imagePlacement.offsetY,
      showProgress: campaign.showProgress, showQr: campaign.showQR,
      callToAction: campaign.callToAction,
      progress: progress.map { progress in
        Progress(
          percent: progress.percent, collected: FundraiserFormat.apiAmount(progress.collected),
          goal: FundraiserFormat.apiAmount(progress.goal),
          basis: progress.basis == .target ? "target" : "jar_goal")
      },
      posterUrl: Routes.apiFundraiserPoster.href(id: id),
      publicUrl: record.isPublic ? record.publicSlug.map(FundraiserPublicPage.path) : nil,
      photoUrl: Routes.apiFundraiserPhoto.href(id: id),
      stage: record.stage.rawValue, closedAt: record.closedAt, reportedAt: record.reportedAt,
      createdAt: record.createdAt, updatedAt: record.updatedAt, version: record.version)
  }

  func snapshot(_ record: JarSnapshotRecord) -> Snapshot {
    Snapshot(
      id: record.id, jarId: record.jarID, takenAt: record.takenAt, ok: record.ok,
      amount: record.amountKopiykas.map { FundraiserFormat.apiAmount(kopiykas: $0) },
      goal: record.goalKopiykas.map { FundraiserFormat.apiAmount(kopiykas: $0) },
      status: record.value?.status.rawValue,
      error: record.error.map(JarFetchError.describe(stored:)))
  }

}
