import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// A workspace's log of who created, changed or deleted what, and when (Settings → Activity,
/// `GET /api/v1/activity`). Handlers write a line after each successful change; lines are kept
/// for `retention` and the oldest are dropped as new ones come.
enum ActivityLog {
  /// At least the 90 days the log promises; a little more, so "90 days ago" is always there.
  static let retention: TimeInterval = 100 * 24 * 60 * 60
  static let perPage = 50

  enum Action: String, Sendable, CaseIterable, Codable {
    case created
    case changed
    case deleted
    case restored
    case imported
    case joined
    case left
    case removed
    case roleChanged = "role_changed"
    case invited
  }

  enum Area: String, Sendable, CaseIterable, Codable {
    case product
    case expense
    case adPayment = "ad_payment"
    case marketingPlan = "marketing_plan"
    case fundraiser
    case member
    case invitation
    case workspace
  }

  struct Entry: Sendable, Equatable {
    var id: UUID
    var actorEmail: String
    var action: Action
    var area: Area
    var recordID: UUID?
    var recordName: String
    var at: Date

    /// One sentence: "ana@example.com changed the product “Lamp”."
    var sentence: String {
      let values = ["who": actorEmail, "what": area.noun, "name": recordName]
      return switch action {
      case .created: L("activity.line.created", values)
      case .changed: L("activity.line.changed", values)
      case .deleted: L("activity.line.deleted", values)
      case .restored: L("activity.line.restored", values)
      case .imported: L("activity.line.imported", values)
      case .joined: L("activity.line.joined", values)
      case .left: L("activity.line.left", values)
      case .removed: L("activity.line.removed", values)
      case .roleChanged: L("activity.line.role_changed", values)
      case .invited: L("activity.line.invited", values)
      }
    }
  }

  struct Note: Sendable {
    var action: Action
    var area: Area
    var id: UUID?
    var name: String
  }

  /// Writes a line for the request's person and workspace. A log line never makes a change
  /// fail: a write that succeeded stays answered as such.
  static func record(
    _ req: Request, _ action: Action, _ area: Area, id: UUID?, name: String
  ) async {
    guard let user = req.signedInUser, let workspace = req.workspaceContext else { return }
    await record(
      action, area, id: id, name: name, workspaceID: workspace.id, actor: user, now: req.now,
      on: req.db, logger: req.logger)
  }

  static func record(
    _ action: Action, _ area: Area, id: UUID?, name: String, workspaceID: UUID, actor: User,
    now: Date, on db: any Database, logger: Logger
  ) async {
    do {
      try await ShortWrite.run(
        writes(
          action, area, id: id, name: name, workspaceID: workspaceID, actor: actor, now: now),
        on: db)
    } catch {
      logger.report(error: error)
    }
  }

  /// The statements that write a line and prune the workspace's oldest lines, for a store
  /// that writes the line in the same transaction as the change itself.
  static func writes(
    _ action: Action, _ area: Area, id: UUID?, name: String, workspaceID: UUID, actor: User,
    now: Date
  ) -> [ShortWrite] {
    [
      ShortWrite(
        insertLine,
        [
          UUID.random(), workspaceID, actor.id, actor.email, action.rawValue, area.rawValue, id,
          String(name.prefix(200)), now,
        ]),
      ShortWrite(pruneLines, [workspaceID, now.addingTimeInterval(-retention)]),
    ]
  }

  /// The line and the pruning of the workspace's oldest lines, in one transaction: one turn at
  /// the writer, with kept statements (every change of every area writes a line).
  private static let insertLine = ShortRead(
    """
    INSERT INTO activity (id, workspace_id, user_id, actor_email, action, area, record_id,
      record_name, created_at)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
    """)
  private static let pruneLines = ShortRead(
    "DELETE FROM activity WHERE workspace_id = ?1 AND created_at < ?2")

  /// One page of the workspace's log, newest first, and how many lines it has.
  static func page(workspaceID: UUID, page: Int, per: Int, on db: any Database) async throws
    -> (entries: [Entry], total: Int)
  {
    let sql = try db.sql()
    let total =
      try await sql.raw(
        "SELECT COUNT(*) AS n FROM activity WHERE workspace_id = \(bind: workspaceID)"
      ).first()?.decode(column: "n", as: Int.self) ?? 0
    let (offset, overflow) = (max(page, 1) - 1).multipliedReportingOverflow(by: per)
    guard !overflow, offset < total else { return ([], total) }
    let rows = try await sql.raw(
      """
      SELECT id, actor_email, action, area, record_id, record_name, created_at FROM activity
      WHERE workspace_id = \(bind: workspaceID)
      ORDER BY created_at DESC, id DESC LIMIT \(literal: per) OFFSET \(literal: offset)
      """
    ).all()
    return (
      try rows.compactMap { row in
        guard let action = Action(rawValue: try row.decode(column: "action", as: String.self)),
          let area = Area(rawValue: try row.decode(column: "area", as: String.self))
        else { return nil }
        return Entry(
          id: try row.decode(column: "id", as: UUID.self),
          actorEmail: try row.decode(column: "actor_email", as: String.self), action: action,
          area: area, recordID: try row.decode(column: "record_id", as: UUID?.self),
          recordName: try row.decode(column: "record_name", as: String.self),
          at: try row.decode(column: "created_at", as: Date.self))
      }, total
    )
  }
}

extension ActivityLog.Area {
  /// "the product", "товар".
  var noun: String {
    switch self {
    case .product: L("activity.area.product")
    case .expense: L("activity.area.expense")
    case .adPayment: L("activity.area.ad_payment")
    case .marketingPlan: L("activity.area.marketing_plan")
    case .fundraiser: L("activity.area.fundraiser")
    case .member: L("activity.area.member")
    case .invitation: L("activity.area.invitation")
    case .workspace: L("activity.area.workspace")
    }
  }
}

extension Request {
  /// What this request changed, written to the activity log when the response is a success
  /// (by the route's wrapper in `AppRoute.swift`): a handler says it once, where it knows the
  /// record's id and name, and a refused request logs nothing.
  var activityNote: ActivityLog.Note? {
    get { kept.read { $0.activityNote } }
    set { kept.change { $0.activityNote = newValue } }
  }

  func noteActivity(
    _ action: ActivityLog.Action, _ area: ActivityLog.Area, id: UUID?, name: String
  ) {
    activityNote = ActivityLog.Note(action: action, area: area, id: id, name: name)
  }
}
