import BackofficeCore
import Fluent
import Foundation
import SQLKit
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
/// to the request's workspace, so another workspace's plan is simply not found. The only place
/// with the `marketing_plans` table's SQL (SQLKit, the same on SQLite and PostgreSQL).
enum MarketingPlanQueries {
  static let table = "marketing_plans"

  static func plan(_ req: Request) async throws -> MarketingPlanRecord? {
    guard let id = req.parameters.get("planID", as: UUID.self) else { return nil }
    return try await plan(id, in: req.workspaceID, on: req.db)
  }

  static func plan(_ id: UUID, in workspaceID: UUID, on db: any Database) async throws
    -> MarketingPlanRecord?
  {
    try await plans("WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID)", on: db)
      .first
  }

  /// One page of the workspace's plans, last changed first (`count` says how many in all).
  static func page(in workspaceID: UUID, offset: Int, limit: Int, on db: any Database)
    async throws -> [MarketingPlanRecord]
  {
    try await plans(
      """
      WHERE workspace_id = \(bind: workspaceID) ORDER BY updated_at DESC, id
      LIMIT \(bind: max(0, limit)) OFFSET \(bind: max(0, offset))
      """, on: db)
  }

  /// Every plan of the workspace in the order they were made (the backup).
  static func all(in workspaceID: UUID, on db: any Database) async throws
    -> [MarketingPlanRecord]
  {
    try await plans("WHERE workspace_id = \(bind: workspaceID) ORDER BY created_at, id", on: db)
  }

  /// Up to `limit` plans of every workspace with ids after `after`, by id (a catalog change
  /// walks them all).
  static func plans(after: UUID?, limit: Int, on db: any Database) async throws
    -> [MarketingPlanRecord]
  {
    if let after {
      return try await plans("WHERE id > \(bind: after) ORDER BY id LIMIT \(bind: limit)", on: db)
    }
    return try await plans("ORDER BY id LIMIT \(bind: limit)", on: db)
  }

  static func count(in workspaceID: UUID, on db: any Database) async throws -> Int {
    try await DirectQuery.first(
      "SELECT COUNT(*) AS total FROM marketing_plans WHERE workspace_id = \(bind: workspaceID)"
        as SQLQueryString, on: db
    )?.decode(column: "total", as: Int.self) ?? 0
  }

  /// Stores a new plan (or a copy), with its creation time.
  static func create(_ plan: inout MarketingPlanRecord, on db: any Database) async throws {
    let now = Date()
    plan.createdAt = now
    plan.updatedAt = now
    try await insert([plan.newRow], on: db)
  }

  /// Inserts new rows (`MarketingPlanRecord.newRow`), `BulkInsert.defaultBatch` per statement.
  static func insert(_ rows: [NewRow], on db: any Database) async throws {
    try await PreparedInsert(rows).run(on: db)
  }

  /// Saves `plan` with `change` made to it, only from version `expected` (any version when
  /// nil), and sets `plan` to what was saved; false when it was changed or deleted since, and
  /// then nothing is written and `plan` is left as it was. Only the columns that differ from
  /// `original` (the plan as read; `plan` itself when nil) are written, so a change that
  /// names one field never writes back another field as it was read.
  static func save(
    _ plan: inout MarketingPlanRecord, expected: Int?, original: MarketingPlanRecord? = nil,
    on db: any Database, change: (inout MarketingPlanRecord) -> Void = { _ in }
  ) async throws -> Bool {
    var changed = plan
    change(&changed)
    let before = original ?? plan
    var sets: SQLQueryString = "updated_at = \(bind: Date())"
    if changed.name != before.name { sets += ", name = \(bind: changed.name)" }
    if changed.selectionJSON != before.selectionJSON {
      sets += ", selection_json = \(bind: changed.selectionJSON)"
    }
    if changed.recipient != before.recipient { sets += ", recipient = \(bind: changed.recipient)" }
    if changed.subject != before.subject { sets += ", subject = \(bind: changed.subject)" }
    let (id, owner, update) = (changed.id, changed.workspaceID, sets)
    let saved = try await RecordVersion.write(
      table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      try await db.sql().raw(
        """
        UPDATE marketing_plans SET \(update)
        WHERE id = \(bind: id) AND workspace_id = \(bind: owner)
        """
      ).run()
      return try await Self.plan(id, in: owner, on: db)
    }
    guard let saved = saved ?? nil else { return false }
    plan = saved
    return true
  }

  /// Deletes `plan` if it is still at version `expected` (any version when nil).
  static func delete(_ plan: MarketingPlanRecord, expected: Int?, on db: any Database)
    async throws -> Bool
  {
    let (id, owner) = (plan.id, plan.workspaceID)
    let deleted: Void? = try await RecordVersion.write(
      table, id: id, workspaceID: owner, expected: expected, on: db
    ) { db in
      try await db.sql().raw(
        "DELETE FROM marketing_plans WHERE id = \(bind: id) AND workspace_id = \(bind: owner)"
      ).run()
    }
    return deleted != nil
  }

  /// The plans `clause` (what follows `FROM marketing_plans`) selects.
  private static func plans(_ clause: SQLQueryString, on db: any Database) async throws
    -> [MarketingPlanRecord]
  {
    try await DirectQuery.rows(
      "SELECT \(unsafeRaw: MarketingPlanRecord.columns) FROM marketing_plans \(clause)"
        as SQLQueryString, on: db
    ).map(MarketingPlanRecord.init)
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
  /// When it was saved, `plan` is set to the plan as saved (its new version).
  static func selection(
    of plan: inout MarketingPlanRecord, in catalog: MarketingCatalog?, on db: any Database
  )
    async throws -> PlanSelection
  {
    var selection = plan.selection
    guard let catalog, selection.reconcile(with: catalog) else { return selection }
    // Saved only onto the version that was read, so it never overwrites a change made in the
    // meantime (that change is then reconciled when the plan is next read).
    let reconciled = selection
    _ = try await save(&plan, expected: plan.version, on: db) { $0.selection = reconciled }
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
