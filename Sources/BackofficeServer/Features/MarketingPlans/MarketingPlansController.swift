import BackofficeCore
import Fluent
import Foundation
import Vapor

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
    routes.on(Routes.marketingPlanEmailSend, use: sendEmail)
    routes.on(Routes.marketingPlanEmailDownload, use: downloadEmail)
    routes.on(Routes.marketingPlanRename, use: rename)
    routes.on(Routes.marketingPlanDuplicate, use: duplicate)
    routes.on(Routes.marketingPlanDelete, use: delete)
    routes.on(Routes.marketingCatalog, use: catalogPage)
    routes.guarded(RequireAdminMiddleware()).on(Routes.marketingCatalogRefresh, use: refreshCatalog)
    routes.guarded(RequireAdminMiddleware()).on(Routes.marketingCatalogImport, use: importCatalog)
    routes.on(Routes.marketingCatalogExport, use: exportCatalog)
  }

  // MARK: plans list

  @Sendable func index(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let stored = try await MarketingPlanQueries.catalog(req)
    let total = try await MarketingPlanQueries.count(in: workspaceID, on: req.db)
    let window = PageWindow(
      requested: Paging.pageNumber(req), perPage: Self.perPage, total: total)
    let page = window.page
    let plans = try await MarketingPlanQueries.page(
      in: workspaceID, offset: (page - 1) * Self.perPage, limit: Self.perPage, on: req.db)
    var rows: [MarketingPlanIndex.Row] = []
    for var plan in plans {
      let selection = try await MarketingPlanQueries.selection(
        of: &plan, in: stored?.catalog, on: req.db)
      let packages = stored.map { selection.chosenPackages(in: $0.catalog) } ?? []
      rows.append(
        MarketingPlanIndex.Row(
          id: plan.id, name: plan.name, updatedAt: plan.updatedAt,
          selection: selection, totals: PlanTotals(packages)))
    }
    return req.page(
      MarketingPlanIndex(
        rows: rows, stored: stored, page: page, pageCount: window.pageCount))
  }

  @Sendable func create(req: Request) async throws -> Response {
    var plan = MarketingPlanRecord(
      workspaceID: try req.workspaceID,
      name: PlanName.defaultName(
        on: req.now, locale: try MarketingPlanQueries.locale(req), timeZone: MarketingFormat.utc),
      selection: PlanSelection())
    try await MarketingPlanQueries.create(&plan, on: req.db)
    req.noteActivity(.created, .marketingPlan, id: plan.id, name: plan.name)
    return req.redirect(to: Routes.marketingPlanTargets.href(id: plan.id))
  }

  // MARK: steps

  func load(_ req: Request) async throws -> (
    MarketingPlanRecord, UUID, StoredMarketingCatalog?, PlanSelection
  ) {
    guard let plan = try await MarketingPlanQueries.plan(req) else { throw Abort(.notFound) }
    return try await load(req, plan: plan)
  }

  func load(_ req: Request, plan: MarketingPlanRecord) async throws -> (
    MarketingPlanRecord, UUID, StoredMarketingCatalog?, PlanSelection
  ) {
    var plan = plan
    let stored = try await MarketingPlanQueries.catalog(req)
    let selection = try await MarketingPlanQueries.selection(
      of: &plan, in: stored?.catalog, on: req.db)
    return (plan, plan.id, stored, selection)
  }

  func header(
    _ plan: MarketingPlanRecord, _ id: UUID, _ step: MarketingStep, _ selection: PlanSelection
  )
    -> MarketingPlanHeader
  {
    MarketingPlanHeader(
      id: id, name: plan.name, step: step, selection: selection, version: plan.version)
  }

  /// Applies `change` to the plan, but only onto the version the form was opened at (its
  /// hidden `version` field). False when the plan changed since: nothing is written then.
  func save(
    _ plan: MarketingPlanRecord, formVersion: String?, on db: any Database,
    _ change: (inout MarketingPlanRecord) -> Void
  ) async throws -> Bool {
    guard let expected = VersionField.parse(formVersion), expected == plan.version else {
      return false
    }
    var plan = plan
    return try await MarketingPlanQueries.save(&plan, expected: expected, on: db, change: change)
  }

  /// The plan as it is now, after a step was refused because it changed meanwhile; nil when
  /// it was deleted.
  func reload(_ req: Request) async throws -> (
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
        heading: L("marketing.gone.heading"),
        message: L("marketing.gone.deleted_since_opened"),
        typed: typed, back: (Routes.marketing.href(), L("marketing.gone.back")),
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
      req.flash(.error, L("marketing.flash.target_gone"))
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
      header.conflict = L("marketing.conflict.target_not_switched", ["target": name])
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

  func channelParameter(_ req: Request, _ stored: StoredMarketingCatalog?) throws
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
      req.flash(.info, L("marketing.flash.channel_not_reached", ["channel": channel.name]))
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

  func channelHref(_ id: UUID, _ channelID: String) -> String {
    Routes.marketingPlanChannel.href(["planID": id.uuidString.lowercased(), "channelID": channelID])
  }

  /// The channel's page as the plan is now, with `notice` (409), after a choice was refused
  /// because the plan changed meanwhile; the channels step when the channel is no longer
  /// reached by the plan's targets.
  func channelConflict(_ req: Request, channelID: String, notice: String) async throws
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
        notice: L("marketing.conflict.package_not_chosen", ["package": name]))
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
        notice: L("marketing.conflict.channel_not_reset", ["channel": channel.name]))
    }
    return req.redirect(to: channelHref(id, channel.id))
  }

  // MARK: plan management

  struct RenameForm: Content {
    var name: String?
    var step: Int?
    var version: String?
  }

  /// The page of `step` with the rename form sent back (`header` says why).
  func renamePage(
    _ req: Request, header: MarketingPlanHeader, plan: MarketingPlanRecord, id: UUID,
    stored: StoredMarketingCatalog?, selection: PlanSelection, status: HTTPResponseStatus
  ) async throws -> Response {
    var header = header
    switch header.step {
    case .targets:
      return req.page(MarketingTargetsPage(header: header, stored: stored), status: status)
    case .channels, .packages:
      header.step = .channels
      return req.page(MarketingChannelsPage(header: header, stored: stored), status: status)
    case .review:
      return try await reviewPage(
        req, plan: plan, id: id, stored: stored, selection: selection, header: header,
        status: status)
    }
  }

  @Sendable func rename(req: Request) async throws -> Response {
    let form = try req.content.decode(RenameForm.self)
    guard let found = try await MarketingPlanQueries.plan(req) else {
      return Self.gone(req, typed: [(L("marketing.rename.label"), form.name ?? "")])
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
      return try await renamePage(
        req, header: header, plan: plan, id: id, stored: stored, selection: selection,
        status: .unprocessableEntity)
    }
    guard try await save(plan, formVersion: form.version, on: req.db, { $0.name = name }) else {
      guard let (plan, id, stored, selection) = try await reload(req) else {
        return Self.gone(req, typed: [(L("marketing.rename.label"), form.name ?? "")])
      }
      var header = header(plan, id, step, selection)
      header.renameValue = form.name ?? ""
      if name != plan.name { header.renameSaved = plan.name }
      header.conflict = L("marketing.conflict.name_not_saved")
      return try await renamePage(
        req, header: header, plan: plan, id: id, stored: stored, selection: selection,
        status: .conflict)
    }
    req.flash(.success, L("marketing.flash.renamed"))
    req.noteActivity(.changed, .marketingPlan, id: id, name: name)
    return req.redirect(to: step.href(plan: id))
  }

  @Sendable func duplicate(req: Request) async throws -> Response {
    let (plan, _, _, selection) = try await load(req)
    var copy = MarketingPlanDuplicate.copy(of: plan, selection: selection)
    try await MarketingPlanQueries.create(&copy, on: req.db)
    req.flash(.success, L("marketing.flash.duplicated", ["name": copy.name]))
    req.noteActivity(.created, .marketingPlan, id: copy.id, name: copy.name)
    return req.redirect(to: Routes.marketing.href())
  }

  /// Deletes from the list without a version check: the question names the plan and is
  /// confirmed. A plan already gone is a clear 404, not an error.
  @Sendable func delete(req: Request) async throws -> Response {
    guard let plan = try await MarketingPlanQueries.plan(req),
      try await MarketingPlanQueries.delete(plan, expected: nil, on: req.db)
    else {
      return req.page(
        RecordGonePage(
          heading: L("marketing.gone.heading"),
          message: L("marketing.gone.already_deleted"),
          back: (Routes.marketing.href(), L("marketing.gone.back")), section: .marketingPlans),
        status: .notFound)
    }
    req.flash(.success, L("marketing.flash.deleted", ["name": plan.name]))
    req.noteActivity(.deleted, .marketingPlan, id: plan.id, name: plan.name)
    return req.redirect(to: Routes.marketing.href())
  }
}
