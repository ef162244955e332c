import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// A workspace: where records live and people work together. Its id is its own (random, never
/// an account's, never handed out again once deleted; workspaces made before M093 kept the id
/// of their creator's account). The account that created it stays its owner for as long as it
/// exists (`MembershipRules`); each account has created at most one live workspace.
/// `WorkspaceStore` is the only place with the `workspaces` table's SQL.
struct Workspace: Sendable, Equatable {
  static let table = "workspaces"

  var id: UUID
  var name: String
  /// The currency the workspace's money is in: one shop, one currency, whoever looks (each
  /// person's locale still decides how amounts are written).
  var currency: String
  /// The account that created the workspace.
  var creatorID: UUID?
  var createdAt: Date?

  init(id: UUID, name: String, currency: String, creatorID: UUID?, createdAt: Date?) {
    self.id = id
    self.name = name
    self.currency = currency
    self.creatorID = creatorID
    self.createdAt = createdAt
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = "id, name, currency, creator_id, created_at"

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    name = try row.decode(column: "name", as: String.self)
    currency = try row.decode(column: "currency", as: String.self)
    creatorID = try row.decode(column: "creator_id", as: UUID?.self)
    createdAt = try row.decode(column: "created_at", as: Date?.self)
  }

  /// The workspace as a new row of `workspaces`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(
      table: Self.table, columns: ["id", "name", "currency", "creator_id", "created_at"],
      values: [id, name, currency, creatorID, createdAt])
  }
}

/// A person in a workspace, with a role.
struct Membership: Sendable, Equatable {
  static let table = "memberships"

  var id: UUID
  var workspaceID: UUID
  var userID: UUID
  var role: String
  var createdAt: Date?

  init(workspaceID: UUID, userID: UUID, role: WorkspaceRole, createdAt: Date) {
    id = UUID.random()
    self.workspaceID = workspaceID
    self.userID = userID
    self.role = role.rawValue
    self.createdAt = createdAt
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = "id, workspace_id, user_id, role, created_at"

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    workspaceID = try row.decode(column: "workspace_id", as: UUID.self)
    userID = try row.decode(column: "user_id", as: UUID.self)
    role = try row.decode(column: "role", as: String.self)
    createdAt = try row.decode(column: "created_at", as: Date?.self)
  }

  /// The membership as a new row of `memberships`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(
      table: Self.table, columns: ["id", "workspace_id", "user_id", "role", "created_at"],
      values: [id, workspaceID, userID, role, createdAt])
  }

  var workspaceRole: WorkspaceRole { WorkspaceRole(rawValue: role) ?? .viewer }
}

/// A link that lets one person join a workspace with a role: single use, until it expires.
/// Only the SHA-256 of its secret is kept.
struct Invitation: Sendable, Equatable {
  static let table = "invitations"

  var id: UUID
  var workspaceID: UUID
  var tokenHash: String
  var role: String
  var createdBy: UUID
  var expiresAt: Date
  var usedAt: Date?
  var usedBy: UUID?
  var revokedAt: Date?
  var createdAt: Date?

  init(
    workspaceID: UUID, tokenHash: String, role: WorkspaceRole, createdBy: UUID,
    expiresAt: Date, createdAt: Date
  ) {
    id = UUID.random()
    self.workspaceID = workspaceID
    self.tokenHash = tokenHash
    self.role = role.rawValue
    self.createdBy = createdBy
    self.expiresAt = expiresAt
    self.createdAt = createdAt
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = """
    id, workspace_id, token_hash, role, created_by, expires_at, used_at, used_by, revoked_at, \
    created_at
    """

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    workspaceID = try row.decode(column: "workspace_id", as: UUID.self)
    tokenHash = try row.decode(column: "token_hash", as: String.self)
    role = try row.decode(column: "role", as: String.self)
    createdBy = try row.decode(column: "created_by", as: UUID.self)
    expiresAt = try row.decode(column: "expires_at", as: Date.self)
    usedAt = try row.decode(column: "used_at", as: Date?.self)
    usedBy = try row.decode(column: "used_by", as: UUID?.self)
    revokedAt = try row.decode(column: "revoked_at", as: Date?.self)
    createdAt = try row.decode(column: "created_at", as: Date?.self)
  }

  /// The invitation as a new row of `invitations`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(
      table: Self.table,
      columns: [
        "id", "workspace_id", "token_hash", "role", "created_by", "expires_at", "used_at",
        "used_by", "revoked_at", "created_at",
      ],
      values: [
        id, workspaceID, tokenHash, role, createdBy, expiresAt, usedAt, usedBy, revokedAt,
        createdAt,
      ])
  }

  var workspaceRole: WorkspaceRole { WorkspaceRole(rawValue: role) ?? .viewer }
}
