import Foundation
import SQLKit
import Vapor

/// The first answer to a request sent with an `Idempotency-Key`, replayed for every retry. Keys
/// belong to a workspace: two members retrying one queued change meet the same answer.
/// `IdempotencyStore` (and, on a SQLite file, the API's product creation) write it with
/// `newRow`, the table's one column list.
struct IdempotencyRecord: Sendable {
  static let table = "idempotency_keys"

  var workspaceID: UUID
  var key: String
  /// SHA-256 of what the request asked for; the same key with another request is a conflict.
  var requestHash: String
  var answer: StoredAnswer
  var createdAt: Date

  /// The columns a replay reads, as `init(_:)` reads them.
  static let columns = "status, content_type, location, body, request_hash"

  init(workspaceID: UUID, key: String, requestHash: String, answer: StoredAnswer, createdAt: Date) {
    self.workspaceID = workspaceID
    self.key = key
    self.requestHash = requestHash
    self.answer = answer
    self.createdAt = createdAt
  }

  /// The stored answer and what it was stored for (`columns`); the other fields are not read.
  init(_ row: any SQLRow, workspaceID: UUID, key: String) throws {
    self.workspaceID = workspaceID
    self.key = key
    requestHash = try row.decode(column: "request_hash", as: String.self)
    answer = StoredAnswer(
      status: HTTPResponseStatus(statusCode: try row.decode(column: "status", as: Int.self)),
      contentType: try row.decode(column: "content_type", as: String.self),
      body: try row.decode(column: "body", as: Data.self),
      location: try row.decode(column: "location", as: String?.self))
    createdAt = Date(timeIntervalSince1970: 0)
  }

  static let rowColumns = [
    "id", "workspace_id", "key", "request_hash", "status", "content_type", "location", "body",
    "created_at",
  ]

  /// The answer as a new row of `idempotency_keys`.
  var newRow: NewRow {
    NewRow(
      table: Self.table, columns: Self.rowColumns,
      values: [
        UUID.random(), workspaceID, key, requestHash, Int(answer.status.code), answer.contentType,
        answer.location, answer.body, createdAt,
      ])
  }
}
