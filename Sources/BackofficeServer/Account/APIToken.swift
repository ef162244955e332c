import Foundation
import SQLKit

/// A bearer token for `/api/v1`, as plain values. Only the SHA-256 of the secret is kept.
/// `APITokens` is the only place with the `api_tokens` table's SQL.
struct APIToken: Sendable, Equatable {
  static let table = "api_tokens"

  var id: UUID
  /// The member the token acts for, and the workspace it acts in (with that member's role).
  var userID: UUID
  var workspaceID: UUID
  var name: String
  var tokenHash: String
  /// The first characters of the secret, so a user can tell tokens apart in the list.
  var prefix: String
  var createdAt: Date
  var lastUsedAt: Date?

  /// A new token, not stored yet.
  init(
    userID: UUID, workspaceID: UUID, name: String, tokenHash: String, prefix: String,
    createdAt: Date
  ) {
    id = UUID.random()
    self.userID = userID
    self.workspaceID = workspaceID
    self.name = name
    self.tokenHash = tokenHash
    self.prefix = prefix
    self.createdAt = createdAt
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns =
    "id, user_id, workspace_id, name, token_hash, prefix, created_at, last_used_at"

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    userID = try row.decode(column: "user_id", as: UUID.self)
    workspaceID = try row.decode(column: "workspace_id", as: UUID.self)
    name = try row.decode(column: "name", as: String.self)
    tokenHash = try row.decode(column: "token_hash", as: String.self)
    prefix = try row.decode(column: "prefix", as: String.self)
    createdAt = try row.decode(column: "created_at", as: Date.self)
    lastUsedAt = try row.decode(column: "last_used_at", as: Date?.self)
  }

  /// The token as a new row of `api_tokens`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(
      table: Self.table,
      columns: [
        "id", "user_id", "workspace_id", "name", "token_hash", "prefix", "created_at",
        "last_used_at",
      ],
      values: [id, userID, workspaceID, name, tokenHash, prefix, createdAt, lastUsedAt])
  }
}
