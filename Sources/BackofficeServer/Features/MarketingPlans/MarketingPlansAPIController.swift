import BackofficeCore
import Fluent
import Foundation
import Vapor

/// `/api/v1/marketing/…`: the catalog, plans CRUD and a plan's email summary.
struct MarketingPlansAPIController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.apiMarketingCatalog, use: catalog)
    routes.guarded(RequireAdminMiddleware()).on(Routes.apiMarketingCatalogRefresh, use: refresh)
    routes.on(Routes.apiMarketingPlans, use: list)
    routes.on(Routes.apiMarketingPlanCreate, use: create)
    routes.on(Routes.apiMarketingPlan, use: show)
    routes.on(Routes.apiMarketingPlanUpdate, use: update)
    routes.on(Routes.apiMarketingPlanDelete, use: delete)
    routes.on(Routes.apiMarketingPlanDuplicate, use: duplicate)
    routes.on(Routes.apiMarketingPlanSummary, use: summary)
  }

  // MARK: DTOs

  struct Package: Content {
    var id: String
    var channelId: String
    var name: String
    var description: String
    var price: String
    var currency: String
    var details: [String]

    init(_ package: MarketingPackage) {
      id = package.id
      channelId = package.channelID
      name = package.name
      description = package.description
      price = package.money.decimalString
      currency = package.currency
      details = package.details
    }
  }

  struct Catalog: Content {
    struct Refresh: Content {
      var state: String
      var message: String?
      var checkedAt: Date?
    }
    struct Target: Content {
      var name: String
      var channelIds: [String]
    }
    struct Channel: Content {
      var id: String
      var name: String
      var packages: [Package]
    }

    var source: String
    var sourceDetail: String?
    var fetchedAt: Date
    var refresh: Refresh
    var targets: [Target]
    var channels: [Channel]

    init(_ stored: StoredMarketingCatalog) {
      source = stored.source.rawValue
      sourceDetail = stored.sourceDetail
      fetchedAt = stored.fetchedAt
      refresh = Refresh(
        state: stored.status.state, message: stored.status.message, checkedAt: stored.refreshedAt)
      targets = stored.catalog.targets.map {
        Target(name: $0.name, channelIds: $0.channels.map(\.id))
      }
      channels = stored.catalog.channels.map {
        Channel(id: $0.id, name: $0.name, packages: $0.packages.map(Package.init))
      }
    }
  }

  struct Item: Content {
    struct Choice: Content {
      var channelId: String
      var packageId: String
      var channelName: String
      var packageName: String
      var price: String
      var currency: String
    }

    @LowercasedID var id: UUID
    var name: String
    var targets: [String]
    var packages: [Choice]
    var totals: [Money]
    var totalDisplay: String
    var packageCount: Int
    var channelCount: Int
    var recipient: String
    var subject: String?
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int

    init(
      _ plan: MarketingPlanRecord, selection: PlanSelection, catalog: MarketingCatalog,
      locale: BackofficeLocale
    ) throws {
      let chosen = selection.chosenPackages(in: catalog)
      let totals = PlanTotals(chosen)
      id = plan.id
      name = plan.name
      targets = selection.targetNames
      packages = chosen.map {
        Choice(
          channelId: $0.channel.id, packageId: $0.package.id, channelName: $0.channel.name,
          packageName: $0.package.name, price: $0.package.money.decimalString,
          currency: $0.package.currency)
      }
      self.totals = totals.sums
      totalDisplay = totals.formatted(locale: locale)
      packageCount = totals.packageCount
      channelCount = totals.channelCount
      recipient = plan.recipient
      subject = plan.subject
      createdAt = plan.createdAt
      updatedAt = plan.updatedAt
      version = plan.version
    }
  }

  static var recordName: String { L("marketing.api.record_name") }

  struct Input: Content {
    struct Choice: Content {
      var channelId: String?
      var packageId: String?
    }
    var name: String?
    var targets: [String]?
    var packages: [Choice]?
    var recipient: String?
    var subject: String?
  }

  struct Summary: Content {
    struct Mailto: Content {
      var url: String
      var shortened: Bool
      var omittedPackages: Int
    }
    var subject: String
    var recipient: String
    var text: String
    var html: String
    var totalDisplay: String
    var countsDisplay: String
    var mailto: Mailto
  }

  // MARK: catalog

  private func storedCatalog(_ req: Request) async throws -> StoredMarketingCatalog {
    guard let stored = try await MarketingPlanQueries.catalog(req) else {
      throw APIError(
        .serviceUnavailable, code: "catalog_unavailable",
        message: L("marketing.api.catalog_unavailable"))
    }
    return stored
  }

  @Sendable func catalog(req: Request) async throws -> Response {
    try APIResponse.json(Catalog(try await storedCatalog(req)))
  }

  /// What a refresh did. A failed refresh is still a 200: the request was carried out, the
  /// stored catalog was kept, and `outcome` says why it was not replaced.
  struct RefreshResult: Content {
    var outcome: String
    var message: String
    var plansChanged: Int
    var catalog: Catalog
  }

  @Sendable func refresh(req: Request) async throws -> Response {
    let update = try await MarketingCatalogRefresh.run(app: req.application)
    let message = update.message(locale: try MarketingPlanQueries.locale(req))
    let (outcome, changed): (String, Int) =
      switch update.outcome {
      case .updated(let plansChanged): ("refreshed", plansChanged)
      case .failed(.offline): ("offline", 0)
      case .failed(.error): ("error", 0)
      }
    return try APIResponse.json(
      RefreshResult(
        outcome: outcome, message: message, plansChanged: changed,
        catalog: Catalog(update.stored)))
  }

  // MARK: plans

  private func plan(_ req: Request) async throws -> MarketingPlanRecord {
    try owned(await MarketingPlanQueries.plan(req))
  }

  @Sendable func list(req: Request) async throws -> Response {
    let paging = try Paging.read(req)
    let stored = try await storedCatalog(req)
    let locale = try MarketingPlanQueries.locale(req)
    let workspaceID = try req.workspaceID
    let total = try await MarketingPlanQueries.count(in: workspaceID, on: req.db)
    let plans = try await MarketingPlanQueries.page(
      in: workspaceID, offset: paging.offset, limit: paging.perPage, on: req.db)
    var items: [Item] = []
    for var plan in plans {
      let selection = try await MarketingPlanQueries.selection(
        of: &plan, in: stored.catalog, on: req.db)
      items.append(try Item(plan, selection: selection, catalog: stored.catalog, locale: locale))
    }
    return try ListPage(items: items, paging: paging, total: total).response(for: req)
  }

  @Sendable func show(req: Request) async throws -> Response {
    var plan = try await plan(req)
    let stored = try await storedCatalog(req)
    let selection = try await MarketingPlanQueries.selection(
      of: &plan, in: stored.catalog, on: req.db)
    return try APIResponse.json(
      Item(
        plan, selection: selection, catalog: stored.catalog,
        locale: try MarketingPlanQueries.locale(req))
    ).withVersion(plan.version)
  }

  @Sendable func create(req: Request) async throws -> Response {
    let input = try req.content.decode(Input.self, using: JSONDecoder.api)
    let stored = try await storedCatalog(req)
    let locale = try MarketingPlanQueries.locale(req)
    var plan = MarketingPlanRecord(
      workspaceID: try req.workspaceID,
      name: PlanName.defaultName(on: req.now, locale: locale, timeZone: MarketingFormat.utc),
      selection: PlanSelection())
    let selection = try apply(
      input, to: &plan, selection: PlanSelection(), stored: stored, req: req)
    try await MarketingPlanQueries.create(&plan, on: req.db)
    req.noteActivity(.created, .marketingPlan, id: plan.id, name: plan.name)
    return try APIResponse.created(
      Item(plan, selection: selection, catalog: stored.catalog, locale: locale),
      location: Routes.apiMarketingPlan.href(id: plan.id)
    ).withVersion(plan.version)
  }

  /// Without `If-Match` the last write wins, as before versions; with it, only onto a version
  /// it names (412 otherwise). Reading the plan may first drop what the catalog no longer
  /// offers; that is a change too, so an `If-Match` from before it no longer matches.
  @Sendable func update(req: Request) async throws -> Response {
    var plan = try await plan(req)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: plan.version, record: Self.recordName)
    let input = try req.content.decode(Input.self, using: JSONDecoder.api)
    let stored = try await storedCatalog(req)
    let locale = try MarketingPlanQueries.locale(req)
    let current = try await MarketingPlanQueries.selection(
      of: &plan, in: stored.catalog, on: req.db)
    // Only the fields the request changes are written (without `If-Match` the last write
    // wins field by field).
    let read = plan
    let selection = try apply(input, to: &plan, selection: current, stored: stored, req: req)
    guard
      try await MarketingPlanQueries.save(&plan, expected: expected, original: read, on: req.db)
    else {
      throw try await lostWrite(req, plan)
    }
    req.noteActivity(.changed, .marketingPlan, id: plan.id, name: plan.name)
    return try APIResponse.json(
      Item(plan, selection: selection, catalog: stored.catalog, locale: locale)
    ).withVersion(plan.version)
  }

  /// Why a versioned write found nothing to change: deleted meanwhile, or changed.
  private func lostWrite(_ req: Request, _ plan: MarketingPlanRecord) async throws -> APIError {
    let stillThere =
      try await MarketingPlanQueries.plan(plan.id, in: req.workspaceID, on: req.db) != nil
    return APIError.lostWrite(stillThere: stillThere, record: Self.recordName)
  }

  /// Checks every field against the catalog and the rules, then writes them to `plan`; nothing
  /// is written when any field is refused.
  private func apply(
    _ input: Input, to plan: inout MarketingPlanRecord, selection current: PlanSelection,
    stored: StoredMarketingCatalog, req: Request
  ) throws -> PlanSelection {
    var problems: [String: String] = [:]
    let catalog = stored.catalog
    var name: String?
    if let raw = input.name {
      let normalized = PlanName.normalize(raw)
      if let problem = PlanName.problem(with: normalized) {
        problems["name"] = problem
      } else {
        name = normalized
      }
    }
    var selection = current
    if let targets = input.targets {
      if let unknown = targets.first(where: { catalog.target(named: $0) == nil }) {
        problems["targets"] = L("marketing.api.unknown_target", ["target": unknown])
      } else {
        selection.setTargets(targets, in: catalog)
      }
    }
    if let packages = input.packages {
      selection.clearPackages()
      var seen = Set<String>()
      for (index, choice) in packages.enumerated() {
        let key = "packages[\(index)]"
        guard let channelID = choice.channelId, let packageID = choice.packageId else {
          problems[key] = L("marketing.api.choice_incomplete")
          continue
        }
        guard seen.insert(channelID).inserted else {
          problems[key] = L("marketing.api.channel_twice", ["channel": channelID])
          continue
        }
        do throws(PlanSelectionError) {
          try selection.choose(packageID: packageID, channelID: channelID, in: catalog)
        } catch {
          problems[key] = error.message
        }
      }
    }
    var recipient: String?
    if let raw = input.recipient {
      let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      if let problem = MarketingPlanRules.recipientProblem(trimmed) {
        problems["recipient"] = problem
      } else {
        recipient = trimmed
      }
    }
    var subject: String?
    if let raw = input.subject {
      let cleaned = MarketingPlanRules.cleanSubject(raw)
      if let problem = MarketingPlanRules.subjectProblem(cleaned) {
        problems["subject"] = problem
      } else {
        subject = cleaned
      }
    }
    guard problems.isEmpty else { throw APIError.validation(problems) }
    if let name { plan.name = name }
    plan.selection = selection
    if let recipient { plan.recipient = recipient }
    if let subject {
      plan.subject = MarketingPlanRules.storedSubject(
        subject, locale: try MarketingPlanQueries.locale(req), now: req.now)
    }
    return selection
  }

  @Sendable func delete(req: Request) async throws -> Response {
    let plan = try await plan(req)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: plan.version, record: Self.recordName)
    guard try await MarketingPlanQueries.delete(plan, expected: expected, on: req.db) else {
      throw try await lostWrite(req, plan)
    }
    req.noteActivity(.deleted, .marketingPlan, id: plan.id, name: plan.name)
    return Response(status: .noContent)
  }

  @Sendable func duplicate(req: Request) async throws -> Response {
    var plan = try await plan(req)
    let stored = try await storedCatalog(req)
    let selection = try await MarketingPlanQueries.selection(
      of: &plan, in: stored.catalog, on: req.db)
    var copy = MarketingPlanDuplicate.copy(of: plan, selection: selection)
    try await MarketingPlanQueries.create(&copy, on: req.db)
    req.noteActivity(.created, .marketingPlan, id: copy.id, name: copy.name)
    return try APIResponse.created(
      Item(
        copy, selection: selection, catalog: stored.catalog,
        locale: try MarketingPlanQueries.locale(req)),
      location: Routes.apiMarketingPlan.href(id: copy.id)
    ).withVersion(copy.version)
  }

  @Sendable func summary(req: Request) async throws -> Response {
    var plan = try await plan(req)
    let stored = try await storedCatalog(req)
    let selection = try await MarketingPlanQueries.selection(
      of: &plan, in: stored.catalog, on: req.db)
    let summary = MarketingPlanQueries.summary(
      of: plan, selection: selection, catalog: stored.catalog,
      locale: try MarketingPlanQueries.locale(req), now: req.now)
    let recipient = plan.recipient
    let subject = plan.subject ?? summary.subject
    let link = summary.mailtoURL(recipient: recipient, subject: subject)
    return try APIResponse.json(
      Summary(
        subject: subject, recipient: recipient, text: summary.text, html: summary.html,
        totalDisplay: summary.totals.formatted(locale: try MarketingPlanQueries.locale(req)),
        countsDisplay: summary.totals.countsText,
        mailto: .init(
          url: link.string, shortened: link.wasShortened, omittedPackages: link.omittedEntries)))
  }
}
