import BackofficeCore
import Fluent
import Foundation
import Vapor

/// Limits and messages for a plan's email details.
enum MarketingPlanRules {
  static let maxSubject = 200

  static func recipientProblem(_ recipient: String) -> String? {
    recipient.isEmpty ? nil : EmailAddress.problem(with: recipient)
  }

  /// Today's default subject, "Marketing Campaign Selection - {date}".
  static func defaultSubject(locale: BackofficeLocale, now: Date) -> String {
    PlanSummary(packages: [], locale: locale, generatedAt: now, timeZone: MarketingFormat.utc)
      .subject
  }

  /// The subject to store: nil when it is empty or today's default, so the default's date
  /// keeps following the day the email is made.
  static func storedSubject(_ subject: String, locale: BackofficeLocale, now: Date) -> String? {
    subject.isEmpty || subject == defaultSubject(locale: locale, now: now) ? nil : subject
  }

  /// A subject is one line, without surrounding spaces.
  static func cleanSubject(_ raw: String) -> String {
    raw.split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingCharacters(in: .whitespaces)
  }

  static func subjectProblem(_ subject: String) -> String? {
    subject.count > maxSubject ? "Use at most \(maxSubject) characters." : nil
  }
}

/// Loading shared by the pages and the API: every plan query is limited to the signed-in
/// account, so another account's plan is simply not found.
enum MarketingPlanQueries {
  static func plan(_ req: Request) async throws -> MarketingPlanRecord? {
    guard let id = req.parameters.get("planID", as: UUID.self) else { return nil }
    return try await MarketingPlanRecord.query(on: req.db)
      .filter(\.$id == id).filter(\.$user.$id == req.userID).first()
  }

  /// The stored catalog, or nil (logged) when it cannot be read: pages then show their
  /// "Failed to Load Data" state instead of an error page.
  static func catalog(_ req: Request) async throws -> StoredMarketingCatalog? {
    do {
      return try await MarketingCatalogStore.current(on: req.db, now: req.now)
    } catch let error as MarketingCatalogUnreadable {
      req.logger.error("marketing catalog: \(error.description)")
      return nil
    }
  }

  /// The plan's selection against `catalog`, saved back when the catalog no longer offers part
  /// of it (a catalog change that happened after the plan was last saved).
  static func selection(
    of plan: MarketingPlanRecord, in catalog: MarketingCatalog?, on db: any Database
  )
    async throws -> PlanSelection
  {
    var selection = plan.selection
    guard let catalog, selection.reconcile(with: catalog) else { return selection }
    // Saved only onto the version that was read, so it never overwrites a change made in the
    // meantime (that change is then reconciled when the plan is next read).
    let reconciled = selection
    _ = try await plan.write(expected: plan.version, on: db) { db in
      plan.selection = reconciled
      try await plan.save(on: db)
    }
    return selection
  }

  static func summary(
    of plan: MarketingPlanRecord, selection: PlanSelection, catalog: MarketingCatalog,
    locale: BackofficeLocale, now: Date
  ) -> PlanSummary {
    PlanSummary(
      selection: selection, catalog: catalog, planName: plan.name, locale: locale, generatedAt: now,
      timeZone: MarketingFormat.utc)
  }

  static func locale(_ req: Request) throws -> BackofficeLocale {
    BackofficeLocale.resolve(try req.user.locale)
  }
}

struct MarketingPlansController: RouteCollection {
  static let perPage = 50

  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.marketing, use: index)
    routes.on(Routes.marketingPlanCreate, use: create)
    routes.on(Routes.marketingPlanTargets, use: targets)
    routes.on(Routes.marketingPlanTargetToggle, use: toggleTarget)
    routes.on(Routes.marketingPlanChannels, use: channels)
    routes.on(Routes.marketingPlanChannel, use: channel)
    routes.on(Routes.marketingPlanChoose, use: choose)
    routes.on(Routes.marketingPlanReset, use: reset)
    routes.on(Routes.marketingPlanReview, use: review)
    routes.on(Routes.marketingPlanRemove, use: remove)
    routes.on(Routes.marketingPlanEmail, use: saveEmail)
    routes.on(Routes.marketingPlanEmailDownload, use: downloadEmail)
    routes.on(Routes.marketingPlanRename, use: rename)
    routes.on(Routes.marketingPlanDuplicate, use: duplicate)
    routes.on(Routes.marketingPlanDelete, use: delete)
    routes.on(Routes.marketingCatalog, use: catalogPage)
    routes.grouped(RequireAdminMiddleware()).on(Routes.marketingCatalogRefresh, use: refreshCatalog)
    routes.grouped(RequireAdminMiddleware()).on(Routes.marketingCatalogImport, use: importCatalog)
    routes.on(Routes.marketingCatalogExport, use: exportCatalog)
  }

  // MARK: plans list

  @Sendable func index(req: Request) async throws -> Response {
    let userID = try req.userID
    let stored = try await MarketingPlanQueries.catalog(req)
    let total = try await MarketingPlanRecord.query(on: req.db).filter(\.$user.$id == userID)
      .count()
    // A page past the end (an old link, a hand-typed number) shows the last page.
    let lastPage = max(1, (total + Self.perPage - 1) / Self.perPage)
    let page = min(max(1, req.query[Int.self, at: "page"] ?? 1), lastPage)
    let plans = try await MarketingPlanRecord.query(on: req.db)
      .filter(\.$user.$id == userID)
      .sort(\.$updatedAt, .descending).sort(\.$id)
      .range(((page - 1) * Self.perPage)..<(page * Self.perPage))
      .all()
    var rows: [MarketingPlanIndex.Row] = []
    for plan in plans {
      let selection = try await MarketingPlanQueries.selection(
        of: plan, in: stored?.catalog, on: req.db)
      let packages = stored.map { selection.chosenPackages(in: $0.catalog) } ?? []
      rows.append(
        MarketingPlanIndex.Row(
          id: try plan.requireID(), name: plan.name, updatedAt: plan.updatedAt,
          selection: selection, totals: PlanTotals(packages)))
    }
    return req.page(
      MarketingPlanIndex(
        rows: rows, stored: stored, page: page, hasMore: page * Self.perPage < total, total: total))
  }

  @Sendable func create(req: Request) async throws -> Response {
    let plan = MarketingPlanRecord(
      userID: try req.userID,
      name: PlanName.defaultName(
        on: req.now, locale: try MarketingPlanQueries.locale(req), timeZone: MarketingFormat.utc),
      selection: PlanSelection())
    try await plan.create(on: req.db)
    return req.redirect(to: Routes.marketingPlanTargets.href(id: try plan.requireID()))
  }

  // MARK: steps

  private func load(_ req: Request) async throws -> (
    MarketingPlanRecord, UUID, StoredMarketingCatalog?, PlanSelection
  ) {
    guard let plan = try await MarketingPlanQueries.plan(req) else { throw Abort(.notFound) }
    return try await load(req, plan: plan)
  }

  private func load(_ req: Request, plan: MarketingPlanRecord) async throws -> (
    MarketingPlanRecord, UUID, StoredMarketingCatalog?, PlanSelection
  ) {
    let stored = try await MarketingPlanQueries.catalog(req)
    let selection = try await MarketingPlanQueries.selection(
      of: plan, in: stored?.catalog, on: req.db)
    return (plan, try plan.requireID(), stored, selection)
  }

  private func header(
    _ plan: MarketingPlanRecord, _ id: UUID, _ step: MarketingStep, _ selection: PlanSelection
  )
    -> MarketingPlanHeader
  {
    MarketingPlanHeader(
      id: id, name: plan.name, step: step, selection: selection, version: plan.version)
  }

  /// Applies `change` to the plan, but only onto the version the form was opened at (its
  /// hidden `version` field). False when the plan changed since: nothing is written then.
  private func save(
    _ plan: MarketingPlanRecord, formVersion: String?, on db: any Database,
    _ change: @escaping @Sendable (MarketingPlanRecord) -> Void
  ) async throws -> Bool {
    guard let expected = VersionField.parse(formVersion), expected == plan.version else {
      return false
    }
    return try await plan.write(expected: expected, on: db) { db in
      change(plan)
      try await plan.save(on: db)
    }
  }

  /// The plan as it is now, after a step was refused because it changed meanwhile; nil when
  /// it was deleted.
  private func reload(_ req: Request) async throws -> (
    MarketingPlanRecord, UUID, StoredMarketingCatalog?, PlanSelection
  )? {
    guard let plan = try await MarketingPlanQueries.plan(req) else { return nil }
    return try await load(req, plan: plan)
  }

  /// A plan deleted since its page was opened (or never this account's): 404, saying so,
  /// with what was typed.
  static func gone(_ req: Request, typed: [(label: String, value: String)] = []) -> Response {
    req.page(
      RecordGonePage(
        heading: "This plan no longer exists",
        message: "It was deleted since you opened it, perhaps in another tab or by someone else, "
          + "so the change could not be saved.",
        typed: typed, back: (Routes.marketing.href(), "\u{2190} All plans"),
        section: .marketingPlans),
      status: .notFound)
  }

  @Sendable func targets(req: Request) async throws -> Response {
    let (plan, id, stored, selection) = try await load(req)
    return req.page(
      MarketingTargetsPage(header: header(plan, id, .targets, selection), stored: stored),
      status: stored == nil ? .serviceUnavailable : .ok)
  }

  struct TargetForm: Content {
    var target: String?
    var version: String?
  }

  /// A toggle is relative (on becomes off), so on a plan changed meanwhile it is not applied:
  /// it could undo the other change. The page shows the plan as it is now instead.
  @Sendable func toggleTarget(req: Request) async throws -> Response {
    let form = try req.content.decode(TargetForm.self)
    guard let found = try await MarketingPlanQueries.plan(req) else { return Self.gone(req) }
    let (plan, id, stored, selection) = try await load(req, plan: found)
    let name = form.target ?? ""
    guard let catalog = stored?.catalog,
      let index = catalog.targets.firstIndex(where: { $0.name == name })
    else {
      req.flash(.error, "That target is not in the catalog any more.")
      return req.redirect(to: Routes.marketingPlanTargets.href(id: id))
    }
    var updated = selection
    updated.toggleTarget(name, in: catalog)
    let result = updated
    guard
      try await save(plan, formVersion: form.version, on: req.db, { $0.selection = result })
    else {
      guard let (plan, id, stored, selection) = try await reload(req) else {
        return Self.gone(req)
      }
      var header = header(plan, id, .targets, selection)
      header.conflict =
        MarketingPlanHeader.changed
        + ", so \u{201C}\(name)\u{201D} was not switched. This is the plan as it is now: "
        + "choose again if you still want to."
      return req.page(MarketingTargetsPage(header: header, stored: stored), status: .conflict)
    }
    return req.redirect(to: Routes.marketingPlanTargets.href(id: id) + "#target-\(index)")
  }

  @Sendable func channels(req: Request) async throws -> Response {
    let (plan, id, stored, selection) = try await load(req)
    return req.page(
      MarketingChannelsPage(header: header(plan, id, .channels, selection), stored: stored),
      status: stored == nil ? .serviceUnavailable : .ok)
  }

  private func channelParameter(_ req: Request, _ stored: StoredMarketingCatalog?) throws
    -> MarketingChannel?
  {
    guard let channelID = req.parameters.get("channelID") else { throw Abort(.notFound) }
    return stored?.catalog.channel(id: channelID)
  }

  @Sendable func channel(req: Request) async throws -> Response {
    let (plan, id, stored, selection) = try await load(req)
    guard let stored else {
      return req.page(
        MarketingChannelsPage(header: header(plan, id, .packages, selection), stored: nil),
        status: .serviceUnavailable)
    }
    guard let channel = try channelParameter(req, stored) else { throw Abort(.notFound) }
    guard selection.isAvailable(channelID: channel.id, in: stored.catalog) else {
      req.flash(.info, "\(channel.name) is not reached by the selected targets.")
      return req.redirect(to: Routes.marketingPlanChannels.href(id: id))
    }
    return req.page(
      MarketingChannelPage(
        header: header(plan, id, .packages, selection), stored: stored, channel: channel))
  }

  struct PackageForm: Content {
    var package: String?
    var version: String?
  }

  private func channelHref(_ id: UUID, _ channelID: String) -> String {
    Routes.marketingPlanChannel.href(["planID": id.uuidString.lowercased(), "channelID": channelID])
  }

  /// The channel's page as the plan is now, with `notice` (409), after a choice was refused
  /// because the plan changed meanwhile; the channels step when the channel is no longer
  /// reached by the plan's targets.
  private func channelConflict(_ req: Request, channelID: String, notice: String) async throws
    -> Response
  {
    guard let (plan, id, stored, selection) = try await reload(req) else {
      return Self.gone(req)
    }
    if let stored, let channel = stored.catalog.channel(id: channelID),
      selection.isAvailable(channelID: channel.id, in: stored.catalog)
    {
      var header = header(plan, id, .packages, selection)
      header.conflict = notice
      return req.page(
        MarketingChannelPage(header: header, stored: stored, channel: channel),
        status: .conflict)
    }
    var header = header(plan, id, .channels, selection)
    header.conflict = notice
    return req.page(MarketingChannelsPage(header: header, stored: stored), status: .conflict)
  }

  /// Choosing is not applied onto a plan changed meanwhile either: the other change may have
  /// chosen differently in this channel, or changed the targets that reach it.
  @Sendable func choose(req: Request) async throws -> Response {
    let form = try req.content.decode(PackageForm.self)
    guard let found = try await MarketingPlanQueries.plan(req) else { return Self.gone(req) }
    let (plan, id, stored, selection) = try await load(req, plan: found)
    guard let stored, let channel = try channelParameter(req, stored) else {
      throw Abort(.notFound)
    }
    let packageID = form.package ?? ""
    var updated = selection
    do throws(PlanSelectionError) {
      try updated.choose(packageID: packageID, channelID: channel.id, in: stored.catalog)
    } catch {
      req.flash(.error, error.message)
      let available = selection.isAvailable(channelID: channel.id, in: stored.catalog)
      return req.redirect(
        to: available ? channelHref(id, channel.id) : Routes.marketingPlanChannels.href(id: id))
    }
    let result = updated
    guard
      try await save(plan, formVersion: form.version, on: req.db, { $0.selection = result })
    else {
      let name = channel.packages.first { $0.id == packageID }?.name ?? packageID
      return try await channelConflict(
        req, channelID: channel.id,
        notice: MarketingPlanHeader.changed
          + ", so \u{201C}\(name)\u{201D} was not chosen. This is the plan as it is now: "
          + "choose again if you still want it.")
    }
    let index = channel.packages.firstIndex { $0.id == packageID } ?? 0
    return req.redirect(to: channelHref(id, channel.id) + "#package-\(index)")
  }

  @Sendable func reset(req: Request) async throws -> Response {
    let form = try req.content.decode(PackageForm.self)
    guard let found = try await MarketingPlanQueries.plan(req) else { return Self.gone(req) }
    let (plan, id, stored, selection) = try await load(req, plan: found)
    guard let channel = try channelParameter(req, stored) else { throw Abort(.notFound) }
    var updated = selection
    updated.reset(channelID: channel.id)
    let result = updated
    guard
      try await save(plan, formVersion: form.version, on: req.db, { $0.selection = result })
    else {
      return try await channelConflict(
        req, channelID: channel.id,
        notice: MarketingPlanHeader.changed
          + ", so the choice in \(channel.name) was not reset. This is the plan as it is now: "
          + "reset again if you still want to.")
    }
    return req.redirect(to: channelHref(id, channel.id))
  }

  @Sendable func review(req: Request) async throws -> Response {
    let (plan, id, stored, selection) = try await load(req)
    return try reviewPage(req, plan: plan, id: id, stored: stored, selection: selection)
  }

  private func reviewPage(
    _ req: Request, plan: MarketingPlanRecord, id: UUID, stored: StoredMarketingCatalog?,
    selection: PlanSelection, header override: MarketingPlanHeader? = nil,
    email typed: MarketingReviewPage.Email? = nil, status: HTTPResponseStatus = .ok
  ) throws -> Response {
    let header = override ?? header(plan, id, .review, selection)
    guard let stored else {
      return req.page(
        MarketingReviewPage(header: header, stored: nil, summary: nil, email: nil),
        status: status == .ok ? .serviceUnavailable : status)
    }
    let summary = MarketingPlanQueries.summary(
      of: plan, selection: selection, catalog: stored.catalog,
      locale: try MarketingPlanQueries.locale(req), now: req.now)
    let subject = plan.subject ?? summary.subject
    let email =
      typed
      ?? MarketingReviewPage.Email(
        recipient: plan.recipient, subject: subject,
        mailto: summary.mailtoURL(recipient: plan.recipient, subject: subject))
    return req.page(
      MarketingReviewPage(header: header, stored: stored, summary: summary, email: email),
      status: status)
  }

  /// Removing is not applied onto a plan changed meanwhile: the review shows the plan as it is
  /// now instead.
  @Sendable func remove(req: Request) async throws -> Response {
    let form = try req.content.decode(PackageForm.self)
    guard let found = try await MarketingPlanQueries.plan(req) else { return Self.gone(req) }
    let (plan, id, _, selection) = try await load(req, plan: found)
    let packageID = form.package ?? ""
    var updated = selection
    updated.remove(packageID: packageID)
    let result = updated
    guard
      try await save(plan, formVersion: form.version, on: req.db, { $0.selection = result })
    else {
      guard let (plan, id, stored, selection) = try await reload(req) else {
        return Self.gone(req)
      }
      let name =
        stored?.catalog.channels.lazy.flatMap(\.packages).first { $0.id == packageID }?.name
        ?? packageID
      var header = header(plan, id, .review, selection)
      header.conflict =
        MarketingPlanHeader.changed
        + ", so \u{201C}\(name)\u{201D} was not removed. This is the plan as it is now: "
        + "remove it again if you still want to."
      return try reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        status: .conflict)
    }
    return req.redirect(to: Routes.marketingPlanReview.href(id: id))
  }

  struct EmailForm: Content {
    var recipient: String?
    var subject: String?
    var version: String?
  }

  @Sendable func saveEmail(req: Request) async throws -> Response {
    let form = try req.content.decode(EmailForm.self)
    let recipient = (form.recipient ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    let subject = MarketingPlanRules.cleanSubject(form.subject ?? "")
    guard let found = try await MarketingPlanQueries.plan(req) else {
      return Self.gone(req, typed: [("Recipient", recipient), ("Subject", subject)])
    }
    let (plan, id, stored, selection) = try await load(req, plan: found)
    let recipientError = MarketingPlanRules.recipientProblem(recipient)
    let subjectError = MarketingPlanRules.subjectProblem(subject)
    if recipientError != nil || subjectError != nil {
      var header = header(plan, id, .review, selection)
      // A form sent back for its errors keeps the version it was opened at.
      header.version = VersionField.parse(form.version) ?? 0
      return try reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        email: MarketingReviewPage.Email(
          recipient: recipient, subject: subject, recipientError: recipientError,
          subjectError: subjectError, mailto: mailto(req, plan, selection, stored)),
        status: .unprocessableEntity)
    }
    let storedSubject = MarketingPlanRules.storedSubject(
      subject, locale: try MarketingPlanQueries.locale(req), now: req.now)
    guard
      try await save(
        plan, formVersion: form.version, on: req.db,
        {
          $0.recipient = recipient
          $0.subject = storedSubject
        })
    else {
      guard let (plan, id, stored, selection) = try await reload(req) else {
        return Self.gone(req, typed: [("Recipient", recipient), ("Subject", subject)])
      }
      var header = header(plan, id, .review, selection)
      header.conflict =
        MarketingPlanHeader.changed
        + ", so the email details are not saved yet. Nothing you typed is lost: where the saved "
        + "details now differ, they are shown under yours. Save again to keep yours."
      let locale = try MarketingPlanQueries.locale(req)
      let savedSubject =
        plan.subject ?? MarketingPlanRules.defaultSubject(locale: locale, now: req.now)
      let differing = SavedValue.differing(
        typed: ["recipient": recipient, "subject": subject],
        saved: ["recipient": plan.recipient, "subject": savedSubject])
      var email = MarketingReviewPage.Email(
        recipient: recipient, subject: subject, mailto: mailto(req, plan, selection, stored))
      email.recipientSaved = differing["recipient"]
      email.subjectSaved = differing["subject"]
      return try reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        email: email, status: .conflict)
    }
    req.flash(.success, "Email details saved.")
    return req.redirect(to: Routes.marketingPlanReview.href(id: id) + "#send-email")
  }

  /// The mail app link for the plan's saved details.
  private func mailto(
    _ req: Request, _ plan: MarketingPlanRecord, _ selection: PlanSelection,
    _ stored: StoredMarketingCatalog?
  ) -> MailtoLink {
    stored.map {
      MarketingPlanQueries.summary(
        of: plan, selection: selection, catalog: $0.catalog,
        locale: (try? MarketingPlanQueries.locale(req)) ?? .enUS, now: req.now
      ).mailtoURL(recipient: plan.recipient, subject: plan.subject)
    } ?? MailtoLink(string: "mailto:", wasShortened: false, omittedEntries: 0)
  }

  @Sendable func downloadEmail(req: Request) async throws -> Response {
    let (plan, _, stored, selection) = try await load(req)
    guard let stored else {
      throw Abort(.serviceUnavailable, reason: "The catalog cannot be read.")
    }
    let recipient = (req.query[String.self, at: "recipient"] ?? plan.recipient)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if let problem = MarketingPlanRules.recipientProblem(recipient) {
      throw Abort(.unprocessableEntity, reason: "Recipient: \(problem)")
    }
    let summary = MarketingPlanQueries.summary(
      of: plan, selection: selection, catalog: stored.catalog,
      locale: try MarketingPlanQueries.locale(req), now: req.now)
    let querySubject = req.query[String.self, at: "subject"].map(MarketingPlanRules.cleanSubject)
    let subject =
      (querySubject?.isEmpty == false ? querySubject : nil) ?? plan.subject ?? summary.subject
    let message = summary.emailMessage(
      from: try req.user.email, to: recipient, subject: subject, date: req.now)
    return MarketingEmailDetails.emlResponse(message, planName: plan.name)
  }

  // MARK: plan management

  struct RenameForm: Content {
    var name: String?
    var step: Int?
    var version: String?
  }

  /// The page of `step` with the rename form sent back (`header` says why).
  private func renamePage(
    _ req: Request, header: MarketingPlanHeader, plan: MarketingPlanRecord, id: UUID,
    stored: StoredMarketingCatalog?, selection: PlanSelection, status: HTTPResponseStatus
  ) throws -> Response {
    var header = header
    switch header.step {
    case .targets:
      return req.page(MarketingTargetsPage(header: header, stored: stored), status: status)
    case .channels, .packages:
      header.step = .channels
      return req.page(MarketingChannelsPage(header: header, stored: stored), status: status)
    case .review:
      return try reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        status: status)
    }
  }

  @Sendable func rename(req: Request) async throws -> Response {
    let form = try req.content.decode(RenameForm.self)
    guard let found = try await MarketingPlanQueries.plan(req) else {
      return Self.gone(req, typed: [("Plan name", form.name ?? "")])
    }
    let (plan, id, stored, selection) = try await load(req, plan: found)
    let step = form.step.flatMap(MarketingStep.init(rawValue:)) ?? .targets
    let name = PlanName.normalize(form.name ?? "")
    if let problem = PlanName.problem(with: name) {
      var header = header(plan, id, step, selection)
      header.renameValue = form.name ?? ""
      header.renameError = problem
      // A form sent back for its errors keeps the version it was opened at.
      header.version = VersionField.parse(form.version) ?? 0
      return try renamePage(
        req, header: header, plan: plan, id: id, stored: stored, selection: selection,
        status: .unprocessableEntity)
    }
    guard try await save(plan, formVersion: form.version, on: req.db, { $0.name = name }) else {
      guard let (plan, id, stored, selection) = try await reload(req) else {
        return Self.gone(req, typed: [("Plan name", form.name ?? "")])
      }
      var header = header(plan, id, step, selection)
      header.renameValue = form.name ?? ""
      if name != plan.name { header.renameSaved = plan.name }
      header.conflict =
        MarketingPlanHeader.changed
        + ", so the new name is not saved yet. Nothing you typed is lost: check the plan as it "
        + "is now and save the name again to keep it."
      return try renamePage(
        req, header: header, plan: plan, id: id, stored: stored, selection: selection,
        status: .conflict)
    }
    req.flash(.success, "Plan renamed.")
    return req.redirect(to: step.href(plan: id))
  }

  @Sendable func duplicate(req: Request) async throws -> Response {
    let (plan, _, _, selection) = try await load(req)
    let copy = MarketingPlanDuplicate.copy(of: plan, selection: selection)
    try await copy.create(on: req.db)
    req.flash(.success, "Plan duplicated as \u{201C}\(copy.name)\u{201D}.")
    return req.redirect(to: Routes.marketing.href())
  }

  /// Deletes from the list without a version check: the question names the plan and is
  /// confirmed. A plan already gone is a clear 404, not an error.
  @Sendable func delete(req: Request) async throws -> Response {
    guard let plan = try await MarketingPlanQueries.plan(req),
      try await plan.write(expected: nil, on: req.db, { db in try await plan.delete(on: db) })
    else {
      return req.page(
        RecordGonePage(
          heading: "This plan no longer exists",
          message: "It was already deleted, perhaps in another tab or by someone else.",
          back: (Routes.marketing.href(), "\u{2190} All plans"), section: .marketingPlans),
        status: .notFound)
    }
    req.flash(.success, "Plan \u{201C}\(plan.name)\u{201D} deleted.")
    return req.redirect(to: Routes.marketing.href())
  }

  // MARK: catalog

  @Sendable func catalogPage(req: Request) async throws -> Response {
    let stored = try await MarketingPlanQueries.catalog(req)
    return req.page(
      MarketingCatalogPage(stored: stored, baseURL: req.config.catalogBaseURL),
      status: stored == nil ? .serviceUnavailable : .ok)
  }

  @Sendable func refreshCatalog(req: Request) async throws -> Response {
    let update = try await MarketingCatalogRefresh.run(app: req.application)
    let locale = try MarketingPlanQueries.locale(req)
    req.flash(update.succeeded ? .success : .error, update.message(locale: locale))
    return req.redirect(to: Routes.marketingCatalog.href())
  }

  struct ImportForm: Content {
    var files: [File]?
  }

  @Sendable func importCatalog(req: Request) async throws -> Response {
    let form = try req.content.decode(ImportForm.self)
    let uploads = (form.files ?? []).map {
      MarketingCatalogImport.Upload(filename: $0.filename, data: Data(buffer: $0.data))
    }
    switch MarketingCatalogImport.read(uploads) {
    case .failure(let failure):
      let problems = failure.problems
      let stored = try await MarketingPlanQueries.catalog(req)
      return req.page(
        MarketingCatalogPage(
          stored: stored, baseURL: req.config.catalogBaseURL, importProblems: problems),
        status: .unprocessableEntity)
    case .success(let catalog):
      let names = uploads.map(\.filename).joined(separator: ", ")
      let changed = try await MarketingCatalogStore.replace(
        with: catalog, source: .upload, detail: String(names.prefix(500)), on: req.db,
        now: req.now)
      let stored = try await MarketingCatalogStore.current(on: req.db, now: req.now)
      let update = MarketingCatalogUpdate(outcome: .updated(plansChanged: changed), stored: stored)
      req.flash(
        .success, update.message(locale: try MarketingPlanQueries.locale(req), verb: "imported"))
      return req.redirect(to: Routes.marketingCatalog.href())
    }
  }

  @Sendable func exportCatalog(req: Request) async throws -> Response {
    guard let stored = try await MarketingPlanQueries.catalog(req) else {
      throw Abort(.serviceUnavailable, reason: "The catalog cannot be read.")
    }
    let response = Response(
      status: .ok, body: .init(data: MarketingCatalogImport.export(stored.catalog)))
    response.headers.contentType = .json
    response.headers.replaceOrAdd(
      name: .contentDisposition, value: "attachment; filename=\"marketing-catalog.json\"")
    return response
  }
}

/// The `.eml` download.
enum MarketingEmailDetails {
  static func emlResponse(_ message: EmailMessage, planName: String) -> Response {
    let response = Response(status: .ok, body: .init(data: message.data))
    response.headers.replaceOrAdd(name: .contentType, value: "message/rfc822")
    response.headers.replaceOrAdd(
      name: .contentDisposition, value: "attachment; filename=\"\(fileName(planName)).eml\"")
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    return response
  }

  /// A file name made of the plan name's ASCII letters and digits ("Spring push" →
  /// "spring-push"), so the header needs no encoding.
  static func fileName(_ name: String) -> String {
    var slug = ""
    for scalar in name.lowercased().unicodeScalars {
      if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
        slug.unicodeScalars.append(scalar)
      } else if !slug.hasSuffix("-"), !slug.isEmpty {
        slug += "-"
      }
    }
    while slug.hasSuffix("-") { slug.removeLast() }
    return slug.isEmpty ? "marketing-plan" : String(slug.prefix(60))
  }
}

enum MarketingPlanDuplicate {
  static func copy(of plan: MarketingPlanRecord, selection: PlanSelection) -> MarketingPlanRecord {
    let copy = MarketingPlanRecord(
      userID: plan.$user.id, name: PlanName.copyName(of: plan.name), selection: selection,
      recipient: plan.recipient)
    copy.subject = plan.subject
    return copy
  }
}

extension MarketingHomeCard {
  static func load(_ req: Request) async throws -> Model {
    Model(
      planCount: try await MarketingPlanRecord.query(on: req.db)
        .filter(\.$user.$id == req.userID).count())
  }
}
