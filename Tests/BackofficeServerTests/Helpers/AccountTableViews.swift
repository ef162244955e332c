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
