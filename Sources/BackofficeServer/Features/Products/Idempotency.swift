import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// A response worth replaying: what the first request with a key was answered.
struct StoredAnswer: Sendable {
  var status: HTTPResponseStatus
  var contentType: String
  var body: Data
  /// For a redirect (the add form answers 303 to the listing).
  var location: String? = nil

  static func json(_ value: some Encodable, status: HTTPResponseStatus) throws -> StoredAnswer {
    StoredAnswer(
      status: status, contentType: "application/json; charset=utf-8",
      body: try JSONEncoder.api.encode(value))
  }

  /// A product answer (`ProductJSON`).
  static func product(_ row: ProductRow, account: AccountFormat, status: HTTPResponseStatus)
    -> StoredAnswer
  {
    StoredAnswer(
      status: status, contentType: "application/json; charset=utf-8",
      body: ProductJSON.object(row, account: account))
  }

  /// The `version` of the record in a JSON answer, for its ETag.
  static func version(in body: Data) -> Int? {
    struct Versioned: Decodable { var version: Int }
    return try? JSONDecoder().decode(Versioned.self, from: body).version
  }

  func response(replayed: Bool) -> Response {
    var headers = HTTPHeaders()
    // A 204 has no body and so no type.
    if !contentType.isEmpty { headers.replaceOrAdd(name: .contentType, value: contentType) }
    if let location { headers.replaceOrAdd(name: .location, value: location) }
    if replayed { headers.replaceOrAdd(name: IdempotencyKey.replayedHeader, value: "true") }
    return Response(status: status, headers: headers, body: .init(data: body))
  }
}

enum IdempotencyKey {
  static let header = "Idempotency-Key"
  static let replayedHeader = "Idempotent-Replayed"
  static let maxLength = 255
  /// How long an answer is kept for replay. Long, because a phone may stay offline for days
  /// with products waiting in its outbox.
  static let retention: TimeInterval = 30 * 24 * 60 * 60

  static var invalid: APIError {
    APIError(
      .badRequest, code: "invalid_idempotency_key",
      message: L("products.idempotency.invalid_key"))
  }
  static var reused: APIError {
    APIError(
      .conflict, code: "idempotency_key_reused",
      message: L("products.idempotency.key_reused"))
  }

  /// The key sent with the request, nil when there is none; a malformed key is refused.
  static func read(_ request: Request) throws -> String? {
    guard let raw = request.headers.first(name: header) else { return nil }
    return try validated(raw)
  }

  static func validated(_ raw: String) throws -> String {
    let key = raw.trimmingCharacters(in: .whitespaces)
    guard !key.isEmpty, key.utf8.count <= maxLength,
      key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) })
    else { throw invalid }
    return key
  }

  /// What a request asks for, independent of how it was encoded (multipart boundaries and JSON
  /// spacing differ between retries): the endpoint and each field, length-prefixed.
  static func fingerprint(_ parts: [String]) -> String {
    sha256Hex(Data(parts.map { "\($0.utf8.count):\($0)" }.joined(separator: "|").utf8))
  }
}

/// Runs a write at most once per (account, key) and remembers its answer.
///
/// The write and the record of its answer are committed in one transaction. Two requests
/// racing with the same key: the unique index on (workspace_id, key) lets only one commit; the other
/// rolls back (so its product is never saved) and replays the winner's answer.
struct IdempotencyStore {
  var db: any Database
  var workspaceID: UUID
  var now: Date

  struct Outcome {
    var answer: StoredAnswer
    var replayed: Bool
  }

  func perform(
    key: String?, fingerprint: String,
    _ work: @escaping @Sendable (any Database) async throws -> StoredAnswer
  ) async throws -> Outcome {
    guard let key else {
      let answer = try await db.transaction { try await work($0) }
      return Outcome(answer: answer, replayed: false)
    }
    if let found = try await find(key) { return try replay(found, fingerprint: fingerprint) }
    let workspaceID = workspaceID
    let now = now
    do {
      let answer = try await db.transaction { db in
        let answer = try await work(db)
        let record = IdempotencyRecord(
          workspaceID: workspaceID, key: key, requestHash: fingerprint, answer: answer,
          createdAt: now)
        try await PreparedInsert([record.newRow]).run(on: db)
        // In the same transaction: one commit, and the index on (workspace_id, created_at) reads
        // only the expired answers.
        try await Self.purgeExpired(workspaceID: workspaceID, now: now, on: db)
        return answer
      }
      return Outcome(answer: answer, replayed: false)
    } catch {
      // Another request with this key committed first: its answer is the answer.
      if let found = try? await find(key) { return try replay(found, fingerprint: fingerprint) }
      throw error
    }
  }

  func find(_ key: String) async throws -> IdempotencyRecord? {
    try await db.sql().raw(
      """
      SELECT \(unsafeRaw: IdempotencyRecord.columns) FROM idempotency_keys
      WHERE workspace_id = \(bind: workspaceID) AND key = \(bind: key)
      """
    ).first().map { try IdempotencyRecord($0, workspaceID: workspaceID, key: key) }
  }

  func replay(_ record: IdempotencyRecord, fingerprint: String) throws -> Outcome {
    try Self.replay(record.answer, storedFor: record.requestHash, fingerprint: fingerprint)
  }

  /// The stored answer again, when the request is the one it was stored for; the same key
  /// with another request is refused.
  static func replay(_ answer: StoredAnswer, storedFor requestHash: String, fingerprint: String)
    throws -> Outcome
  {
    guard requestHash == fingerprint else { throw IdempotencyKey.reused }
    return Outcome(answer: answer, replayed: true)
  }

  /// Old answers are dropped on the account's next write instead of by a separate job; a
  /// failure here only delays that. The index on (workspace_id, created_at) reads only the
  /// expired answers.
  static func purgeExpired(workspaceID: UUID, now: Date, on db: any Database) async throws {
    try await db.sql().raw(
      """
      DELETE FROM idempotency_keys WHERE workspace_id = \(bind: workspaceID)
        AND created_at < \(bind: now.addingTimeInterval(-IdempotencyKey.retention))
      """
    ).run()
  }
}
