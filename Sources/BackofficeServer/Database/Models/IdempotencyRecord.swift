import Fluent
import Foundation

/// The first answer to a request sent with an `Idempotency-Key`, replayed for every retry. Keys
/// belong to a workspace: two members retrying one queued change meet the same answer.
final class IdempotencyRecord: Model, @unchecked Sendable {
  static let schema = "idempotency_keys"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "key") var key: String
  /// SHA-256 of what the request asked for; the same key with another request is a conflict.
  @Field(key: "request_hash") var requestHash: String
  @Field(key: "status") var status: Int
  @Field(key: "content_type") var contentType: String
  @OptionalField(key: "location") var location: String?
  @Field(key: "body") var body: Data
  @Field(key: "created_at") var createdAt: Date

  init() {}
}
