import BackofficeCore
import Crypto
import Fluent
import Vapor

/// The fundraiser pages: cards, one fundraiser with its poster and progress, the form with the
/// template picker and live preview, posters, photos, and refreshing jars by hand.
struct FundraisersController: RouteCollection {
  static var saveFailed: String { L("fundraisers.flash.save_failed") }
  /// How far back the progress chart looks.
  static let chartDays = 90.0
  /// Jars asked at once by "Refresh progress" on the list.
  static let refreshConcurrency = 4

  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.fundraisers, use: index)
    routes.on(Routes.fundraiserNew, use: new)
    routes.on(Routes.fundraiserCreate, use: create)
    routes.on(Routes.fundraiserPreview, use: preview)
    routes.on(Routes.fundraiserRefreshAll, use: refreshAll)
    routes.on(Routes.fundraiserPhoto, use: photo)
    routes.on(Routes.fundraiser, use: show)
    routes.on(Routes.fundraiserEdit, use: edit)
    routes.on(Routes.fundraiserUpdate, use: update)
    routes.on(Routes.fundraiserDelete, use: delete)
    routes.on(Routes.fundraiserRefresh, use: refresh)
    routes.on(Routes.fundraiserPoster, use: poster)
    routes.on(Routes.fundraiserPublish, use: publish)
    routes.on(Routes.fundraiserShareImage, use: shareImage)
    routes.on(Routes.fundraiserStage, use: stage)
    routes.on(Routes.fundraiserReportPoster, use: reportPoster)
  }

  func store(_ req: Request) throws -> FundraiserStore {
    FundraiserStore(db: req.db, workspaceID: try req.workspaceID)
  }

  func found(_ req: Request) async throws -> FundraiserRecord {
    guard let record = try await store(req).find(req.parameters.get("fundraiserID")) else {
      throw Abort(.notFound)
    }
    return record
  }

  // MARK: list

  @Sendable func index(req: Request) async throws -> Response {
    let store = try store(req)
    let per = FundraiserIndex.perPage
    let requested = Paging.pageNumber(req)
    var slice = try await store.list(page: requested, per: per)
    let window = PageWindow(requested: requested, perPage: per, total: slice.total)
    if window.page != requested { slice = try await store.list(page: window.page, per: per) }
    let states = try await JarSnapshots.states(for: slice.items, on: req.db)
    let cards = slice.items.map { record in
      FundraiserSummary(record, id: record.id, state: states[record.id] ?? .none)
    }
    return req.page(
      FundraiserIndex(
        cards: cards, page: window.page, pageCount: window.pageCount, total: slice.total))
  }

  // MARK: one fundraiser

  @Sendable func show(req: Request) async throws -> Response {
    let record = try await found(req)
    let id = record.id
    let state = try await JarSnapshots.state(for: record, on: req.db)
    let since = req.now.addingTimeInterval(-Self.chartDays * 86_400)
    let history = try await JarSnapshots.history(for: record, since: since, on: req.db)
    let summary = FundraiserSummary(record, id: id, state: state)
    let chart = FundraiserChart(
      points: history.compactMap { snapshot in
        snapshot.value.map { FundraiserChart.Point(at: snapshot.takenAt, amount: $0.amount) }
      }, goal: summary.progress?.goal)
    let recent = try await JarSnapshots.recent(for: record, limit: 10, on: req.db)
    let report = try await FundraiserReport.load(
      fundraiser: record, workspaceID: try req.workspaceID, state: state, on: req.db)
    return req.page(
      FundraiserShow(
        summary: summary, format: FundraiserPosters.format(req), chart: chart,
        recent: recent.map(JarSnapshotRecordView.init),
        publicPath: record.isPublic ? record.publicSlug.map(FundraiserPublicPage.path) : nil,
        stage: FundraiserShow.StageInfo(record), report: report))
  }

  // MARK: stage

  struct StageInput: Content {
    var stage: String?
    var version: String?
    var format: String?
  }

  /// Moves the fundraiser one step (close, reopen, publish the report, take it down) from the
  /// version its page was opened at; a page opened before another change is told so and
  /// nothing moves.
  @Sendable func stage(req: Request) async throws -> Response {
    let input = try req.content.decode(StageInput.self)
    guard let record = try await store(req).find(req.parameters.get("fundraiserID")) else {
      return Self.gone(req)
    }
    let back = showHref(
      record, format: input.format.flatMap(PosterFormat.init(rawValue:)) ?? .post)
    guard let target = input.stage.flatMap(FundraiserStage.init(rawValue:)) else {
      req.flash(.error, L("fundraisers.stage.unknown"))
      return req.redirect(to: back)
    }
    let from = record.stage
    // A missing or unreadable version is stale, as on the edit form.
    let expected = VersionField.parse(input.version) ?? 0
    switch try await FundraiserStageMove.move(record, to: target, expected: expected, req: req) {
    case .moved:
      req.flash(.success, FundraiserStageMove.movedMessage(to: target, from: from))
      req.noteActivity(.changed, .fundraiser, id: record.id, name: record.purpose)
    case .notAllowed(let from):
      req.flash(.error, FundraiserStageMove.notAllowedMessage(from: from, to: target))
    case .changed:
      req.flash(.error, L("fundraisers.stage.changed"))
    case .gone:
      return Self.gone(req)
    }
    return req.redirect(to: back)
  }

  // MARK: public page

  struct PublishInput: Content {
    var `public`: String?
  }

  /// Switches the public page on (`public=1`, making its address the first time) or off.
  @Sendable func publish(req: Request) async throws -> Response {
    let record = try await found(req)
    let on = try req.content.decode(PublishInput.self).public == "1"
    let saved = try await store(req).setPublic(record, on)
    req.flash(
      .success, on ? L("fundraisers.flash.public_opened") : L("fundraisers.flash.public_closed"))
    return req.redirect(to: showHref(saved, format: FundraiserPosters.format(req)))
  }

  /// Keeps the PNG the owner's browser drew as the picture of link previews. PNG only,
  /// as wide as posters, within the upload limit.
  @Sendable func shareImage(req: Request) async throws -> Response {
    let record = try await found(req)
    let id = record.id
    let bytes = req.body.data.map { Data($0.readableBytesView) }
    let upload: ValidPhoto
    switch ValidPhoto.check(bytes, maxBytes: req.config.maxUploadBytes) {
    case nil: throw Abort(.badRequest, reason: L("fundraisers.share_image.missing"))
    case .failure(let error):
      if case .tooLarge = error.reason { throw Abort(.payloadTooLarge, reason: error.message) }
      throw Abort(.unprocessableEntity, reason: error.message)
    case .success(let valid): upload = valid
    }
    guard upload.info.kind == .png, upload.info.dimensions.width == PosterFormat.post.width,
      PosterFormat.allCases.contains(where: { $0.height == upload.info.dimensions.height })
    else {
      throw Abort(
        .unprocessableEntity,
        reason: L("fundraisers.share_image.wrong_size", ["width": String(PosterFormat.post.width)]))
    }
    try await store(req).saveShareImage(upload, for: id)
    return Response(status: .noContent)
  }

  @Sendable func poster(req: Request) async throws -> Response {
    let record = try await found(req)
    return try await FundraiserPosters.posterResponse(
      record, req: req, download: req.queryValue("download") == "1")
  }

  /// The thank-you poster of a reported fundraiser (`?format=`, `download=1`); 409 saying why
  /// when there is none.
  @Sendable func reportPoster(req: Request) async throws -> Response {
    try await FundraiserReportPoster.response(
      found(req), req: req, download: req.queryValue("download") == "1")
  }

  @Sendable func photo(req: Request) async throws -> Response {
    guard
      let photo = try await FundraiserPhotos.photo(
        id: req.parameters.get("photoID"), workspaceID: try req.workspaceID, on: req.db)
    else { throw Abort(.notFound) }
    return FundraiserPosters.photoResponse(photo, req: req)
  }

  // MARK: form

  struct FormInput: Content {
    var purpose: String?
    var target: String?
    var jarLink: String?
    var template: String?
    var scale: String?
    var offsetX: String?
    var offsetY: String?
    var showProgress: String?
    var showQR: String?
    var callToAction: String?
    var format: String?
    var photo: File?
    var photoDraft: String?
    /// The version the edit form was opened at.
    var version: String?

    enum CodingKeys: String, CodingKey {
      case purpose, target, template, scale, format, photo, version
      case jarLink = "jar_link"
      case offsetX = "offset_x"
      case offsetY = "offset_y"
      case showProgress = "show_progress"
      case showQR = "show_qr"
      case callToAction = "call_to_action"
      case photoDraft = "photo_draft"
    }

    var placement: ImagePlacement {
      ImagePlacement(
        scale: scale.flatMap(Double.init) ?? 1, offsetX: offsetX.flatMap(Double.init) ?? 0,
        offsetY: offsetY.flatMap(Double.init) ?? 0
      ).clamped()
    }

    var chosenTemplate: PosterTemplate? {
      template.flatMap { Int($0) }.flatMap(PosterTemplate.init(number:))
    }

    var posterFormat: PosterFormat { format.flatMap(PosterFormat.init(rawValue:)) ?? .post }

    /// A checkbox's value: sent and not "0" (browsers send "on" or the input's value).
    static func ticked(_ value: String?) -> Bool {
      value.map { !$0.isEmpty && $0 != "0" } ?? false
    }

    func draft(hasPhoto: Bool) -> CampaignDraft {
      CampaignDraft(
        purpose: purpose ?? "", targetText: target ?? "", jarLinkText: jarLink ?? "",
        hasPhoto: hasPhoto, template: chosenTemplate, imagePlacement: placement,
        showProgress: Self.ticked(showProgress), showQR: Self.ticked(showQR),
        callToAction: callToAction ?? "")
    }
  }

  @Sendable func new(req: Request) async throws -> Response {
    req.page(FundraiserForm(mode: .create, maxUploadBytes: req.config.maxUploadBytes))
  }

  @Sendable func edit(req: Request) async throws -> Response {
    let record = try await found(req)
    let id = record.id
    let draft = CampaignDraft(editing: record.campaign)
    return req.page(
      FundraiserForm(
        mode: .edit(id), purpose: draft.purpose, target: draft.targetText,
        jarLink: draft.jarLinkText, template: draft.template, placement: draft.imagePlacement,
        showProgress: draft.showProgress, showQR: draft.showQR, callToAction: draft.callToAction,
        format: FundraiserPosters.format(req),
        photoID: try await FundraiserPhotos.reference(for: id, on: req.db)?.id,
        maxUploadBytes: req.config.maxUploadBytes, version: record.version))
  }

  /// A new upload becomes a draft (so a form that fails keeps it); without one, an earlier
  /// draft named by the form is used. The error is Core's reason for a refused file.
  func photoDraft(_ input: FormInput, req: Request) async throws -> (
    draft: UUID?, error: String?
  ) {
    let workspaceID = try req.workspaceID
    let earlier = try await FundraiserPhotos.draft(
      id: input.photoDraft, workspaceID: workspaceID, on: req.db)
    let bytes = input.photo.map { Data($0.data.readableBytesView) }
    switch ValidPhoto.check(bytes, maxBytes: req.config.maxUploadBytes) {
    case nil:
      return (earlier, nil)
    case .failure(let error)?:
      return (earlier, error.message)
    case .success(let photo)?:
      return (
        try await FundraiserPhotos.saveDraft(
          photo, workspaceID: workspaceID, now: req.now, on: req.db), nil
      )
    }
  }

  func formView(_ mode: FundraiserForm.Mode, _ input: FormInput, req: Request) -> FundraiserForm {
    let draft = input.draft(hasPhoto: true)
    return FundraiserForm(
      mode: mode, purpose: draft.purpose, target: draft.targetText, jarLink: draft.jarLinkText,
      template: draft.template, placement: draft.imagePlacement, showProgress: draft.showProgress,
      showQR: draft.showQR, callToAction: draft.callToAction, format: input.posterFormat,
      maxUploadBytes: req.config.maxUploadBytes)
  }

  @Sendable func create(req: Request) async throws -> Response {
    let store = try store(req)
    let input = try req.content.decode(FormInput.self)
    let photo = try await photoDraft(input, req: req)
    var view = formView(.create, input, req: req)
    view.draftPhotoID = photo.draft
    let campaign: Campaign
    do throws(CampaignValidationErrors) {
      if let error = photo.error { throw photoRefused(error, input, hasPhoto: photo.draft != nil) }
      campaign = try input.draft(hasPhoto: photo.draft != nil).validate()
    } catch {
      view.errors = error.messages
      return req.page(view, status: .unprocessableEntity)
    }
    guard let draftID = photo.draft else { throw Abort(.internalServerError) }
    let record: FundraiserRecord
    do {
      record = try await store.create(campaign, photo: .draft(draftID))
    } catch {
      // A row refused because its workspace is gone: answered as such, not as a failure.
      if WorkspaceDeletion.isMissingParent(error) { throw error }
      req.logger.report(error: error)
      view.formError = Self.saveFailed
      return req.page(view, status: .internalServerError)
    }
    try? await FundraiserPhotos.pruneDrafts(
      olderThan: req.now.addingTimeInterval(-86_400), on: req.db)
    req.flash(.success, L("fundraisers.flash.saved"))
    req.noteActivity(.created, .fundraiser, id: record.id, name: record.purpose)
    return req.redirect(to: showHref(record, format: input.posterFormat))
  }

  /// Saves the edit form only onto the version it was opened at: a fundraiser changed
  /// meanwhile gets the form back (409) with what was typed (a new photo kept as a draft) and
  /// the saved values next to it.
  @Sendable func update(req: Request) async throws -> Response {
    let input = try req.content.decode(FormInput.self)
    guard let record = try await store(req).find(req.parameters.get("fundraiserID")) else {
      return Self.gone(req, typed: input)
    }
    let id = record.id
    let photo = try await photoDraft(input, req: req)
    let saved = try await FundraiserPhotos.reference(for: id, on: req.db)
    let expected = VersionField.parse(input.version)
    var view = formView(.edit(id), input, req: req)
    view.photoID = saved?.id
    view.draftPhotoID = photo.draft
    view.version = expected ?? 0
    let hasPhoto = photo.draft != nil || saved != nil
    let campaign: Campaign
    do throws(CampaignValidationErrors) {
      if let error = photo.error { throw photoRefused(error, input, hasPhoto: hasPhoto) }
      campaign = try input.draft(hasPhoto: hasPhoto).validate()
    } catch {
      view.errors = error.messages
      return req.page(view, status: .unprocessableEntity)
    }
    var written: FundraiserRecord?
    do {
      if let expected, expected == record.version {
        written = try await store(req).update(
          record, to: campaign, photo: photo.draft.map { .draft($0) }, expected: expected)
      }
    } catch {
      // A row refused because its workspace is gone: answered as such, not as a failure.
      if WorkspaceDeletion.isMissingParent(error) { throw error }
      req.logger.report(error: error)
      view.formError = Self.saveFailed
      return req.page(view, status: .internalServerError)
    }
    guard let written else {
      // Opened at another version, or another save got in first.
      guard let current = try await store(req).find(id) else {
        return Self.gone(req, typed: input)
      }
      view.version = current.version
      view.conflict = FundraiserForm.changedMessage
      view.saved = Self.differences(input, current: current.campaign)
      return req.page(view, status: .conflict)
    }
    req.flash(.success, L("fundraisers.flash.saved"))
    req.noteActivity(.changed, .fundraiser, id: written.id, name: written.purpose)
    return req.redirect(to: showHref(written, format: input.posterFormat))
  }

  /// The saved fundraiser's values, in words, where they differ from the form.
  static func differences(_ input: FormInput, current: Campaign) -> [String: String] {
    let saved = CampaignDraft(editing: current)
    let typed = input.draft(hasPhoto: true)
    let yesNo = { (on: Bool) in on ? L("fundraisers.saved.yes") : L("fundraisers.saved.no") }
    var out = SavedValue.differing(
      typed: ["purpose": typed.purpose, "target": typed.targetText, "jar_link": typed.jarLinkText],
      saved: ["purpose": saved.purpose, "target": saved.targetText, "jar_link": saved.jarLinkText]
    ) { name, typed, saved in
      guard name == "target" else { return false }
      let read = { (text: String) in try? Hryvnia.parse(text) }
      return read(typed) != nil && read(typed) == read(saved)
    }
    if typed.template != current.template {
      out["template"] = "\(current.template.number). \(current.template.title)"
    }
    if typed.showProgress != current.showProgress {
      out["show_progress"] = L(
        "fundraisers.saved.show_progress", ["value": yesNo(current.showProgress)])
    }
    if typed.showQR != current.showQR {
      out["show_qr"] = L("fundraisers.saved.show_qr", ["value": yesNo(current.showQR)])
    }
    if typed.callToAction.trimmingCharacters(in: .whitespacesAndNewlines) != current.callToAction {
      out["call_to_action"] = current.callToAction
    }
    if typed.imagePlacement != current.imagePlacement {
      out["placement"] = L("fundraisers.saved.placement")
    }
    return out
  }

  /// A fundraiser deleted since its form was opened (or never this account's): 404, saying
  /// so, with what was typed.
  static func gone(_ req: Request, typed: FormInput? = nil) -> Response {
    let values: [(label: String, value: String)] =
      typed.map {
        [
          (CampaignField.purpose.label, $0.purpose ?? ""),
          (CampaignField.target.label, $0.target ?? ""),
          (CampaignField.jarLink.label, $0.jarLink ?? ""),
        ]
      } ?? []
    return req.page(
      RecordGonePage(
        heading: L("fundraisers.gone.heading"),
        message: typed == nil
          ? L("fundraisers.gone.deleted") : L("fundraisers.gone.deleted_while_editing"),
        typed: values, typedIntro: L("fundraisers.gone.typed_intro"),
        back: (Routes.fundraisers.href(), L("fundraisers.back_to_list")), section: .fundraisers),
      status: .notFound)
  }

  /// Every field's message at once, the refused photo's reason in place of "no photo".
  func photoRefused(_ message: String, _ input: FormInput, hasPhoto: Bool)
    -> CampaignValidationErrors
  {
    var errors: CampaignValidationErrors
    do throws(CampaignValidationErrors) {
      _ = try input.draft(hasPhoto: hasPhoto).validate()
      errors = CampaignValidationErrors()
    } catch {
      errors = error
    }
    errors[.image] = message
    return errors
  }

  func showHref(_ record: FundraiserRecord, format: PosterFormat) -> String {
    Routes.fundraiser.href(
      id: record.id, query: ["format": format == .post ? nil : format.rawValue])
  }

  /// Deletes from the page without a version check: the question is confirmed. A fundraiser
  /// already gone is a clear 404, not an error.
  @Sendable func delete(req: Request) async throws -> Response {
    guard let record = try await store(req).find(req.parameters.get("fundraiserID")),
      try await FundraiserStore.delete(record, expected: nil, on: req.db)
    else { return Self.gone(req) }
    req.flash(.success, L("fundraisers.flash.deleted"))
    req.noteActivity(.deleted, .fundraiser, id: record.id, name: record.purpose)
    return req.redirect(to: Routes.fundraisers.href())
  }

  // MARK: jar progress

  @Sendable func refresh(req: Request) async throws -> Response {
    let record = try await found(req)
    let back = showHref(record, format: FundraiserPosters.format(req))
    guard record.jarID != nil else {
      req.flash(.error, L("fundraisers.flash.no_jar"))
      return req.redirect(to: back)
    }
    // The money is in: a closed fundraiser's jar keeps its last reading.
    guard record.stage.asksJar else {
      req.flash(.info, L("fundraisers.flash.not_asked_closed"))
      return req.redirect(to: back)
    }
    let app = req.application
    let snapshot = try await JarRefresh.refresh(
      record, client: app.jarClient, on: req.db, now: app.clients.now)
    if let value = snapshot?.value {
      req.flash(
        .success,
        L("fundraisers.flash.refreshed", ["amount": FundraiserFormat.amount(value.amount)]))
    } else {
      let error =
        snapshot?.error.map(JarFetchError.describe(stored:)) ?? L("fundraisers.jar_error.unknown")
      req.flash(.error, L("fundraisers.flash.refresh_failed", ["error": error]))
    }
    return req.redirect(to: back)
  }

  @Sendable func refreshAll(req: Request) async throws -> Response {
    // Closed and reported fundraisers keep their last reading.
    let records = try await store(req).all().filter { $0.jarID != nil && $0.stage.asksJar }
    let app = req.application
    let client = app.jarClient
    let db = req.db
    var succeeded = 0
    var failed = 0
    // A few at a time: quick for a volunteer with several jars, gentle with the service.
    for start in stride(from: 0, to: records.count, by: Self.refreshConcurrency) {
      let batch = records[start..<min(start + Self.refreshConcurrency, records.count)]
      try await withThrowingTaskGroup(of: Bool.self) { group in
        for record in batch {
          group.addTask {
            try await JarRefresh.refresh(record, client: client, on: db, now: app.clients.now)?.ok
              ?? false
          }
        }
        for try await ok in group {
          if ok { succeeded += 1 } else { failed += 1 }
        }
      }
    }
    if records.isEmpty {
      req.flash(.info, L("fundraisers.flash.no_jars"))
    } else if failed == 0 {
      req.flash(.success, L("fundraisers.flash.refreshed_all", ["count": String(succeeded)]))
    } else {
      req.flash(
        .error,
        L(
          "fundraisers.flash.refreshed_some",
          ["succeeded": String(succeeded), "failed": String(failed)]))
    }
    return req.redirect(to: Routes.fundraisers.href())
  }

  // MARK: live preview

  /// A poster drawn from form values that are not saved yet: the template picker's thumbnails
  /// (`mode=thumb`), the preview picture without scripts (`mode=image`), and the live preview
  /// the script places into the page (`mode=inline`: no embedded font, since the page's
  /// stylesheet provides it and its policy forbids inline styles; the photo by address).
  @Sendable func preview(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let mode = req.queryValue("mode") ?? "image"
    let template = FundraiserPosters.template(req) ?? .blueLinear
    let format = FundraiserPosters.format(req)
    let purpose = String(
      (req.queryValue("purpose") ?? "").prefix(CampaignDraft.purposeMaxLength))
    let target = (try? Hryvnia.parse(req.queryValue("target") ?? "")).flatMap {
      $0 > 0 ? $0 : nil
    }
    func number(_ name: String, _ fallback: Double) -> Double {
      req.queryValue(name).flatMap(Double.init) ?? fallback
    }
    let placement = ImagePlacement(
      scale: number("scale", 1), offsetX: number("offset_x", 0), offsetY: number("offset_y", 0)
    ).clamped()
    let showProgress = req.queryValue("show_progress") == "1"
    let jar = (try? JarLink.parse(req.queryValue("jar_link") ?? ""))
    let showQR = req.queryValue("show_qr") == "1"
    let callToAction = String(
      (req.queryValue("call_to_action") ?? "").prefix(CampaignDraft.callToActionMaxLength))

    var state = JarState.none
    if let id = req.queryValue("id") {
      guard let record = try await store(req).find(id) else { throw Abort(.notFound) }
      state = try await JarSnapshots.state(for: record, on: req.db)
    }
    var photoHref: String?
    var photoTag = "-"
    if mode != "thumb", let photoID = req.queryValue("photo") {
      if photoID == "local" {
        // The script puts the photo chosen on this device in place of this transparent pixel.
        photoHref = Self.transparentPixel
        photoTag = "local"
      } else {
        guard
          let photo = try await FundraiserPhotos.photo(
            id: photoID, workspaceID: workspaceID, on: req.db)
        else { throw Abort(.notFound) }
        photoHref =
          mode == "inline" ? Routes.fundraiserPhoto.href(id: photo.id) : photo.dataURI
        photoTag = photo.etag
      }
    }
    let campaign = Campaign(
      purpose: purpose, target: target, jar: jar, template: template, imagePlacement: placement,
      showProgress: showProgress, showQR: showQR,
      callToAction: callToAction.trimmingCharacters(in: .whitespacesAndNewlines))
    let progress = state.progress(target: target)
    let input = PosterInput(campaign: campaign, photoHref: photoHref, progress: progress)
    let inline = mode == "inline"
    let parts = [
      "preview-v2", mode, String(template.number), format.rawValue, purpose, "\(target ?? 0)",
      "\(placement.scale)/\(placement.offsetX)/\(placement.offsetY)", photoTag,
      showProgress ? progress.map { "\($0.collected)/\($0.fraction)" } ?? "-" : "-",
      photoHref.map { inline ? $0 : "" } ?? "",
      campaign.posterShare?.cacheKey ?? "-",
    ]
    let etag =
      "\""
      + hexString(SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8)).prefix(16))
      + "\""
    if FundraiserPosters.notModified(req, etag: etag) {
      return FundraiserPosters.notModifiedResponse(etag: etag, svg: true)
    }
    let svg = PosterRenderer.render(
      input, template: template, format: format,
      options: PosterRenderOptions(embedFont: !inline, idPrefix: inline ? "live" : nil))
    return FundraiserPosters.svgResponse(svg, etag: etag)
  }

  /// A 1×1 transparent PNG.
  static let transparentPixel =
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="
}
