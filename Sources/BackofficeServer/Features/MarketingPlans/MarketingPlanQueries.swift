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
  /// Today's default in either language counts as the default, so switching language later
  /// does not leave the other language's default behind as a typed subject.
  static func storedSubject(_ subject: String, locale: BackofficeLocale, now: Date) -> String? {
    guard !subject.isEmpty else { return nil }
    let defaults = UILanguage.allCases.map { language in
      UILanguage.$current.withValue(language) { defaultSubject(locale: locale, now: now) }
    }
    return defaults.contains(subject) ? nil : subject
  }

  /// A subject is one line, without surrounding spaces.
  static func cleanSubject(_ raw: String) -> String {
    raw.split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingCharacters(in: .whitespaces)
  }

  static func subjectProblem(_ subject: String) -> String? {
    subject.count > maxSubject ? L("marketing.validation.too_long", count: maxSubject) : nil
  }
}

/// The plans' store, shared by the pages and the API: every plan query and write, each limited
/// to the request's workspace, so another workspace's plan is simply not found.
enum MarketingPlanQueries {
  static func plan(_ req: Request) async throws -> MarketingPlanRecord? {
    guard let id = req.parameters.get("planID", as: UUID.self) else { return nil }
    return try await plan(id, in: req.workspaceID, on: req.db)
  }

  static func plan(_ id: UUID, in workspaceID: UUID, on db: any Database) async throws
    -> MarketingPlanRecord?
  {
    try await MarketingPlanRecord.query(on: db)
      .filter(\.$id == id).filter(\.$workspaceID == workspaceID).first()
  }

  /// One page of the workspace's plans, last changed first (`count` says how many in all).
  static func page(in workspaceID: UUID, offset: Int, limit: Int, on db: any Database)
    async throws -> [MarketingPlanRecord]
  {
    try await MarketingPlanRecord.query(on: db).filter(\.$workspaceID == workspaceID)
      .sort(\.$updatedAt, .descending).sort(\.$id)
      .range(offset..<(offset + limit)).all()
  }

  static func count(in workspaceID: UUID, on db: any Database) async throws -> Int {
    try await MarketingPlanRecord.query(on: db).filter(\.$workspaceID == workspaceID).count()
  }

  /// Stores a new plan (or a copy).
  static func create(_ plan: MarketingPlanRecord, on db: any Database) async throws {
    try await plan.create(on: db)
  }

  /// Saves `plan` with `change` made to it, only from version `expected` (any version when
  /// nil); false when it was changed or deleted since, and then neither is done.
  static func save(
    _ plan: MarketingPlanRecord, expected: Int?, on db: any Database,
    change: @escaping @Sendable (MarketingPlanRecord) -> Void = { _ in }
  ) async throws -> Bool {
    try await plan.write(expected: expected, on: db) { db in
      change(plan)
      try await plan.save(on: db)
    }
  }

  /// Deletes `plan` if it is still at version `expected` (any version when nil).
  static func delete(_ plan: MarketingPlanRecord, expected: Int?, on db: any Database)
    async throws -> Bool
  {
    try await plan.write(expected: expected, on: db) { db in try await plan.delete(on: db) }
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
