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

  /// The account that created the workspace (its id is the workspace's), its owner for good.
  var creatorID: UUID { id }

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
  private struct WorkspaceKey: StorageKey {
    typealias Value = WorkspaceContext
  }

  private struct OtherWorkspacesKey: StorageKey {
    typealias Value = [WorkspaceContext]
  }

  /// The person's other workspaces, for the header's menu (read for pages only).
  var otherWorkspaces: [WorkspaceContext] {
    get { storage[OtherWorkspacesKey.self] ?? [] }
    set { storage[OtherWorkspacesKey.self] = newValue }
  }

  /// The workspace this request works in (set with the signed-in person).
  var workspaceContext: WorkspaceContext? {
    get { storage[WorkspaceKey.self] }
    set { storage[WorkspaceKey.self] = newValue }
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
    user.currency = workspace.currency
    auth.login(user)
    workspaceContext = workspace
  }
}

/// Memberships and the workspaces they open.
struct WorkspaceStore: Sendable {
  let db: any Database

  /// The workspace a new account starts with: its own, with its id, named after its email,
  /// with the account as owner. In the account's transaction (see `Accounts.create`).
  static func createOwn(for user: User, on db: any Database) async throws {
    let id = try user.requireID()
    try await Workspace(
      id: id, name: WorkspaceName.initial(forEmail: user.email), currency: user.currency
    ).create(on: db)
    try await Membership(workspaceID: id, userID: id, role: .owner).create(on: db)
  }

  /// The workspaces `userID` belongs to, its own first, then by name.
  func workspaces(of userID: UUID) async throws -> [WorkspaceContext] {
    let memberships = try await Membership.query(on: db).filter(\.$userID == userID).all()
    guard !memberships.isEmpty else { return [] }
    let workspaces = try await Workspace.query(on: db)
      .filter(\.$id ~~ memberships.map(\.workspaceID)).all()
    let byID = Dictionary(uniqueKeysWithValues: workspaces.compactMap { w in w.id.map { ($0, w) } })
    return memberships.compactMap { membership -> WorkspaceContext? in
      guard let workspace = byID[membership.workspaceID] else { return nil }
      return WorkspaceContext(
        id: membership.workspaceID, name: workspace.name, currency: workspace.currency,
        role: membership.workspaceRole)
    }
    .sorted { lhs, rhs in
      if (lhs.id == userID) != (rhs.id == userID) { return lhs.id == userID }
      return lhs.name.localizedStandardCompare(rhs.name) == .orderedAscending
    }
  }

  /// The workspace to work in when the one asked for is not (or no longer) open to `user`:
  /// its own, else the first it belongs to. An account left with none — its own workspace
  /// deleted — gets a new, empty one of its own.
  func fallback(for user: User) async throws -> WorkspaceContext {
    let userID = try user.requireID()
    if let first = try await workspaces(of: userID).first { return first }
    if try await Workspace.find(userID, on: db) == nil {
      do {
        try await db.transaction { db in try await Self.createOwn(for: user, on: db) }
      } catch let error as any DatabaseError where error.isConstraintFailure {
        // Made by another request of theirs at the same moment: that one is theirs.
      }
    }
    guard let own = try await workspaces(of: userID).first else {
      throw Abort(.forbidden, reason: L("workspace.none"))
    }
    return own
  }
}
