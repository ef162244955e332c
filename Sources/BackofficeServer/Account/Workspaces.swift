import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The workspace a request works in, with the signed-in person's role there: read with the
/// session or the API token in the same statement (`BrowserSessionStore.lookup`,
/// `APITokens.lookup`), so it costs no query of its own.
struct WorkspaceContext: Sendable, Equatable {
  var id: UUID
  var name: String
  var currency: String
  var role: WorkspaceRole

  /// Reads the columns `workspace_id`, `workspace_name`, `workspace_currency` and
  /// `member_role` of a joined statement; nil when the row has no membership.
  static func decode(_ row: any SQLRow) throws -> WorkspaceContext? {
    guard let id = try row.decode(column: "workspace_id", as: UUID?.self),
      let role = try row.decode(column: "member_role", as: String?.self)
    else { return nil }
    return WorkspaceContext(
      id: id, name: try row.decode(column: "workspace_name", as: String?.self) ?? "",
      currency: try row.decode(column: "workspace_currency", as: String?.self) ?? "USD",
      role: WorkspaceRole(rawValue: role) ?? .viewer)
  }
}

extension Request {
  /// This request is a copy of a workspace's deletion that arrived after the workspace went
  /// (`FormWorkspace.check`): it is answered as the deletion was, and changes nothing.
  var repeatsADeletion: Bool {
    get { kept.read { $0.repeatsADeletion } }
    set { kept.change { $0.repeatsADeletion = newValue } }
  }

  /// The person's other workspaces, for the header's menu (read for pages only).
  var otherWorkspaces: [WorkspaceContext] {
    get { kept.read { $0.otherWorkspaces } }
    set { kept.change { $0.otherWorkspaces = newValue } }
  }

  /// The workspace this request works in (set with the signed-in person).
  var workspaceContext: WorkspaceContext? {
    get { kept.read { $0.workspace } }
    set { kept.change { $0.workspace = newValue } }
  }

  var workspace: WorkspaceContext {
    get throws {
      guard let workspace = workspaceContext else {
        throw Abort(.unauthorized, reason: L("auth.sign_in_to_continue"))
      }
      return workspace
    }
  }

  /// The person and the workspace, as the pages' scripts file what they keep on the device
  /// (the copy of the catalog, the outbox): one person's favourites and queued changes in one
  /// workspace never meet another's, and are only ever sent to that workspace.
  var offlineKey: String {
    get throws {
      "\(try userID.uuidString.lowercased())-\(try workspaceID.uuidString.lowercased())"
    }
  }

  /// The workspace every record this request reads or writes belongs to.
  var workspaceID: UUID {
    get throws { try workspace.id }
  }

  /// Refuses the request when the member's role does not allow `access` (403, saying which
  /// role they have and what it may do).
  func requireAccess(_ access: WorkspaceAccess) throws {
    guard let workspace = workspaceContext else {
      if AppErrorMiddleware.wantsJSON(self) {
        throw APIError(.unauthorized, code: "unauthorized", message: L("api.token.missing"))
      }
      throw Abort(.unauthorized, reason: L("auth.sign_in_to_continue"))
    }
    // A late copy of a deletion changes nothing and is answered as the deletion was, whatever
    // the person's role in the workspace their browser has moved to.
    if repeatsADeletion { return }
    guard workspace.role.allows(access) else {
      let message =
        access == .manage
        ? L("workspace.access.owners_only", ["role": workspace.role.title])
        : L("workspace.access.read_only", ["role": workspace.role.title])
      if AppErrorMiddleware.wantsJSON(self) {
        throw APIError(.forbidden, code: "forbidden", message: message)
      }
      throw Abort(.forbidden, reason: message)
    }
  }

  /// Signs `user` in to `workspace` for this request. The account's currency, as the request
  /// sees it, is the workspace's: one shop, one currency, whoever looks.
  func signIn(_ user: User, to workspace: WorkspaceContext) {
    var user = user
    user.currency = workspace.currency
    kept.change {
      $0.user = user
      $0.workspace = workspace
    }
  }
}

/// Memberships and the workspaces they open.
struct WorkspaceStore: Sendable {
  let db: any Database

  /// The workspace a new account starts with: its own, with an id of its own (never the
  /// account's: a deleted workspace's id is never handed out again), named after its email,
  /// with the account as creator and owner. In the account's transaction (see
  /// `Accounts.create`), or alone for an account left without any workspace.
  @discardableResult
  static func createOwn(for user: User, on db: any Database) async throws -> Workspace {
    let userID = try user.requireID()
    let now = Date()
    let workspace = Workspace(
      id: UUID.random(), name: WorkspaceName.initial(forEmail: user.email), currency: user.currency,
      creatorID: userID, createdAt: now)
    try await PreparedInsert([workspace.newRow]).run(on: db)
    try await PreparedInsert([
      Membership(workspaceID: workspace.id, userID: userID, role: .owner, createdAt: now).newRow
    ]).run(on: db)
    return workspace
  }

  /// The workspace with this id, if it still exists.
  func find(_ id: UUID) async throws -> Workspace? {
    try await workspaces("WHERE id = \(bind: id)").first
  }

  func rename(_ id: UUID, to name: String) async throws {
    try await sql.raw("UPDATE workspaces SET name = \(bind: name) WHERE id = \(bind: id)").run()
  }

  func setCurrency(of id: UUID, to currency: String) async throws {
    try await sql.raw("UPDATE workspaces SET currency = \(bind: currency) WHERE id = \(bind: id)")
      .run()
  }

  func isMember(_ userID: UUID, of workspaceID: UUID) async throws -> Bool {
    try await DirectQuery.first(
      """
      SELECT 1 AS found FROM memberships
      WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: userID)
      """ as SQLQueryString, on: db) != nil
  }

  func memberCount(of workspaceID: UUID) async throws -> Int {
    try await DirectQuery.first(
      "SELECT COUNT(*) AS n FROM memberships WHERE workspace_id = \(bind: workspaceID)"
        as SQLQueryString, on: db
    )?.decode(column: "n", as: Int.self) ?? 0
  }

  /// The live workspace `userID` created, if any.
  func own(of userID: UUID) async throws -> Workspace? {
    try await workspaces("WHERE creator_id = \(bind: userID)").first
  }

  /// The workspaces `userID` belongs to, its own first, then by name.
  func workspaces(of userID: UUID) async throws -> [WorkspaceContext] {
    let rows = try await DirectQuery.rows(
      """
      SELECT w.id, w.name, w.currency, w.creator_id, m.role
      FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = \(bind: userID)
      ORDER BY m.created_at, m.id
      """ as SQLQueryString, on: db)
    var own = Set<UUID>()
    let contexts = try rows.map { row in
      let id = try row.decode(column: "id", as: UUID.self)
      if try row.decode(column: "creator_id", as: UUID?.self) == userID { own.insert(id) }
      return WorkspaceContext(
        id: id, name: try row.decode(column: "name", as: String.self),
        currency: try row.decode(column: "currency", as: String.self),
        role: WorkspaceRole(rawValue: try row.decode(column: "role", as: String.self)) ?? .viewer)
    }
    return contexts.sorted { lhs, rhs in
      if own.contains(lhs.id) != own.contains(rhs.id) { return own.contains(lhs.id) }
      return lhs.name.localizedStandardCompare(rhs.name) == .orderedAscending
    }
  }

  /// The workspaces `clause` (what follows `FROM workspaces`) selects.
  private func workspaces(_ clause: SQLQueryString) async throws -> [Workspace] {
    try await DirectQuery.rows(
      "SELECT \(unsafeRaw: Workspace.columns) FROM workspaces \(clause)" as SQLQueryString,
      on: db
    ).map(Workspace.init)
  }

  private var sql: any SQLDatabase {
    get throws { try db.sql() }
  }

  /// The workspace to work in when the one asked for is not (or no longer) open to `user`:
  /// its own, else the first it belongs to. An account left with none — its own workspace
  /// deleted — gets a new, empty one of its own, with a new id.
  func fallback(for user: User) async throws -> WorkspaceContext {
    let userID = try user.requireID()
    if let first = try await workspaces(of: userID).first { return first }
    do {
      _ = try await db.transaction { db in try await Self.createOwn(for: user, on: db) }
    } catch let error as any DatabaseError where error.isConstraintFailure {
      // Made by another request of theirs at the same moment (`workspaces_creator` allows
      // one live workspace per creator): that one is theirs.
    }
    guard let own = try await workspaces(of: userID).first else {
      throw Abort(.forbidden, reason: L("workspace.none"))
    }
    return own
  }
}
