import BackofficeCore
import Fluent
import Foundation

/// A workspace: where records live and people work together. Its id is its own (random, never
/// an account's, never handed out again once deleted; workspaces made before M093 kept the id
/// of their creator's account). The account that created it stays its owner for as long as it
/// exists (`MembershipRules`); each account has created at most one live workspace.
final class Workspace: Model, @unchecked Sendable {
  static let schema = "workspaces"

  @ID(custom: .id, generatedBy: .user) var id: UUID?
  @Field(key: "name") var name: String
  /// The currency the workspace's money is in: one shop, one currency, whoever looks (each
  /// person's locale still decides how amounts are written).
  @Field(key: "currency") var currency: String
  /// The account that created the workspace.
  @OptionalField(key: "creator_id") var creatorID: UUID?
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(id: UUID, name: String, currency: String, creatorID: UUID) {
    self.id = id
    self.name = name
    self.currency = currency
    self.creatorID = creatorID
  }
}

/// A person in a workspace, with a role.
final class Membership: Model, @unchecked Sendable {
  static let schema = "memberships"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "user_id") var userID: UUID
  @Field(key: "role") var role: String
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(workspaceID: UUID, userID: UUID, role: WorkspaceRole) {
    self.workspaceID = workspaceID
    self.userID = userID
    self.role = role.rawValue
  }

  var workspaceRole: WorkspaceRole { WorkspaceRole(rawValue: role) ?? .viewer }
}

/// A link that lets one person join a workspace with a role: single use, until it expires.
/// Only the SHA-256 of its secret is kept.
final class Invitation: Model, @unchecked Sendable {
  static let schema = "invitations"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "token_hash") var tokenHash: String
  @Field(key: "role") var role: String
  @Field(key: "created_by") var createdBy: UUID
  @Field(key: "expires_at") var expiresAt: Date
  @OptionalField(key: "used_at") var usedAt: Date?
  @OptionalField(key: "used_by") var usedBy: UUID?
  @OptionalField(key: "revoked_at") var revokedAt: Date?
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  var workspaceRole: WorkspaceRole { WorkspaceRole(rawValue: role) ?? .viewer }
}

/// One line of a workspace's activity: who created, changed or deleted what, and when.
final class ActivityRecord: Model, @unchecked Sendable {
  static let schema = "activity"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  /// Nil once the person's account is gone; `actor_email` still names them.
  @OptionalField(key: "user_id") var userID: UUID?
  @Field(key: "actor_email") var actorEmail: String
  @Field(key: "action") var action: String
  @Field(key: "area") var area: String
  @OptionalField(key: "record_id") var recordID: UUID?
  @Field(key: "record_name") var recordName: String
  @Field(key: "created_at") var createdAt: Date

  init() {}
}
