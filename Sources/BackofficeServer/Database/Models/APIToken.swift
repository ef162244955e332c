import Fluent
import Foundation

/// A bearer token for `/api/v1`. Only the SHA-256 of the secret is kept.
final class APIToken: Model, @unchecked Sendable {
  static let schema = "api_tokens"

  @ID(key: .id) var id: UUID?
  /// The member the token acts for, and the workspace it acts in (with that member's role).
  @Field(key: "user_id") var userID: UUID
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "name") var name: String
  @Field(key: "token_hash") var tokenHash: String
  /// The first characters of the secret, so a user can tell tokens apart in the list.
  @Field(key: "prefix") var prefix: String
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?
  @OptionalField(key: "last_used_at") var lastUsedAt: Date?

  init() {}

  init(userID: UUID, workspaceID: UUID, name: String, tokenHash: String, prefix: String) {
    self.userID = userID
    self.workspaceID = workspaceID
    self.name = name
    self.tokenHash = tokenHash
    self.prefix = prefix
  }
}
