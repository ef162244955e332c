import BackofficeCore
import Fluent
import Foundation

@testable import BackofficeServer

/// The `api_tokens` table as tests read it (the app goes through `APITokens`).
final class APITokenTable: Model, @unchecked Sendable {
  static let schema = "api_tokens"

  @ID(key: .id) var id: UUID?
  @Field(key: "user_id") var userID: UUID
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "name") var name: String
  @Field(key: "token_hash") var tokenHash: String
  @Field(key: "prefix") var prefix: String
  @Field(key: "created_at") var createdAt: Date
  @OptionalField(key: "last_used_at") var lastUsedAt: Date?

  init() {}
}

/// The `idempotency_keys` table as tests read it (the app goes through `IdempotencyStore`).
final class IdempotencyTable: Model, @unchecked Sendable {
  static let schema = "idempotency_keys"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "key") var key: String
  @Field(key: "request_hash") var requestHash: String
  @Field(key: "status") var status: Int
  @Field(key: "content_type") var contentType: String
  @OptionalField(key: "location") var location: String?
  @Field(key: "body") var body: Data
  @Field(key: "created_at") var createdAt: Date

  init() {}
}

/// The `login_attempts` table through the model layer: `OneWriterTests` writes it that way to
/// check that model-layer writes take the writer (the app writes it with SQLKit).
final class LoginAttemptTable: Model, @unchecked Sendable {
  static let schema = "login_attempts"

  @ID(key: .id) var id: UUID?
  @Field(key: "key") var key: String
  @Field(key: "attempted_at") var attemptedAt: Date

  init() {}

  init(key: String, attemptedAt: Date) {
    self.key = key
    self.attemptedAt = attemptedAt
  }
}

/// The `workspaces` table as tests read it (the app goes through `WorkspaceStore`).
final class WorkspaceTable: Model, @unchecked Sendable {
  static let schema = "workspaces"

  @ID(custom: .id, generatedBy: .user) var id: UUID?
  @Field(key: "name") var name: String
  @Field(key: "currency") var currency: String
  @OptionalField(key: "creator_id") var creatorID: UUID?
  @OptionalField(key: "created_at") var createdAt: Date?

  init() {}
}

/// The `memberships` table as tests read and write it (the app goes through
/// `WorkspaceStore` and `WorkspaceMembers`).
final class MembershipTable: Model, @unchecked Sendable {
  static let schema = "memberships"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "user_id") var userID: UUID
  @Field(key: "role") var role: String
  @OptionalField(key: "created_at") var createdAt: Date?

  init() {}

  var workspaceRole: WorkspaceRole { WorkspaceRole(rawValue: role) ?? .viewer }
}

/// The `invitations` table as tests read and write it (the app goes through
/// `WorkspaceMembers` and `Invitations`).
final class InvitationTable: Model, @unchecked Sendable {
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
  @OptionalField(key: "created_at") var createdAt: Date?

  init() {}
}

/// The `activity` table as tests read it (the app goes through `ActivityLog`).
final class ActivityTable: Model, @unchecked Sendable {
  static let schema = "activity"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @OptionalField(key: "user_id") var userID: UUID?
  @Field(key: "actor_email") var actorEmail: String
  @Field(key: "action") var action: String
  @Field(key: "area") var area: String
  @OptionalField(key: "record_id") var recordID: UUID?
  @Field(key: "record_name") var recordName: String
  @Field(key: "created_at") var createdAt: Date

  init() {}
}
