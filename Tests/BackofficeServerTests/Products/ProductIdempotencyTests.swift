import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

// One app at a time per suite: every test starts its own app with a database pool, and
// PostgreSQL allows only so many connections.
@Suite("Products: Idempotency-Key", .serialized)
struct ProductIdempotencyTests {
  @Test func theSameKeyTwiceMakesOneProductAndTheSameAnswer() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let headers: HTTPHeaders = ["Idempotency-Key": "outbox-7f1c2a"]
      let body = productJSON(
        name: "Queued", price: "12.50",
        extra: [
          "photo": ProductImages.jpeg().base64EncodedString()
        ])
      let first = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: body, headers: headers)
      t.clock.advance(by: 60)
      let second = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: body, headers: headers)
      #expect(first.status == .created)
      #expect(second.status == .created)
      #expect(second.body == first.body)
      #expect(second.location == first.location)
      #expect(first.headers.first(name: "Idempotent-Replayed") == nil)
      #expect(second.headers.first(name: "Idempotent-Replayed") == "true")
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
      #expect(try await ProductPhoto.query(on: t.db).count() == 1)

      // Without a key, the same body is simply another product.
      try await client.productAPI(.POST, "/api/v1/products", token: token, body: body)
      #expect(try await ProductRecord.query(on: t.db).count() == 2)
    }
  }

  @Test func theSameKeyWithAnotherBodyIsAConflict() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let headers: HTTPHeaders = ["Idempotency-Key": "k-1"]
      try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "One"), headers: headers)
      let other = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Two"), headers: headers)
      #expect(other.status == .conflict)
      #expect(other.productErrorCode == "idempotency_key_reused")
      #expect(try await ProductRecord.query(on: t.db).all().map(\.name) == ["One"])
    }
  }

  @Test func aRefusedRequestIsNotRememberedSoItCanBeFixed() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let headers: HTTPHeaders = ["Idempotency-Key": "fix-me"]
      let refused = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "", price: "1"),
        headers: headers)
      #expect(refused.status == .unprocessableEntity)
      let fixed = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Fixed", price: "1"),
        headers: headers)
      #expect(fixed.status == .created)
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
    }
  }

  @Test func keysBelongToOneAccount() async throws {
    try await withApp { t in
      let a = t.client()
      try await a.signUp()
      let tokenA = try await a.createToken()
      let b = t.client()
      try await b.signUp()
      let tokenB = try await b.createToken()
      let headers: HTTPHeaders = ["Idempotency-Key": "shared-key"]
      let body = productJSON(name: "Same")
      let first = try await a.productAPI(
        .POST, "/api/v1/products", token: tokenA, body: body, headers: headers)
      let second = try await b.productAPI(
        .POST, "/api/v1/products", token: tokenB, body: body, headers: headers)
      #expect(first.status == .created)
      #expect(second.status == .created)
      #expect(second.headers.first(name: "Idempotent-Replayed") == nil)
      #expect(try first.json()["id"] as? String != second.json()["id"] as? String)
    }
  }

  @Test func malformedKeysAreRefused() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for key in ["", "   ", String(repeating: "k", count: 256), "key with spaces", "ключ"] {
        let response = try await client.productAPI(
          .POST, "/api/v1/products", token: token, body: productJSON(name: "X"),
          headers: ["Idempotency-Key": key])
        #expect(response.status == .badRequest, "\(key)")
        #expect(response.productErrorCode == "invalid_idempotency_key")
      }
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  /// Two requests with one key at the same moment: the unique index lets one commit, the other
  /// rolls back and answers with the winner's response.
  @Test func racingRequestsWithOneKeyMakeOneProduct() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let body = productJSON(name: "Race")
      for round in 0..<5 {
        let headers: HTTPHeaders = ["Idempotency-Key": "race-\(round)"]
        async let first = client.productAPI(
          .POST, "/api/v1/products", token: token, body: body, headers: headers)
        async let second = client.productAPI(
          .POST, "/api/v1/products", token: token, body: body, headers: headers)
        let answers = try await [first, second]
        #expect(answers.map(\.status) == [.created, .created])
        #expect(answers[0].body == answers[1].body)
      }
      #expect(try await ProductRecord.query(on: t.db).count() == 5)
      #expect(try await IdempotencyTable.query(on: t.db).count() == 5)
    }
  }

  @Test func expiredAnswersAreDropped() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Old", key: "old-key")
      t.clock.advance(by: IdempotencyKey.retention + 60)
      try await client.createProduct(token: token, name: "New", key: "new-key")
      let keys = try await IdempotencyTable.query(on: t.db).all().map(\.key)
      #expect(keys == ["new-key"])
    }
  }

  /// Not timed: the purge that runs with every creation must read only the expired answers,
  /// through the (workspace_id, created_at) index, not every answer the account keeps.
  @Test func thePurgeReadsOnlyExpiredAnswers() async throws {
    try await withApp { t in
      guard !isPostgresRun else { return }  // PostgreSQL's plans depend on table statistics.
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for index in 0..<3 {
        try await client.createProduct(token: token, name: "P\(index)", key: "key-\(index)")
      }
      let workspace = try await t.workspaceID(
        ofUser: try #require(try await Accounts.all(on: t.db).first?.requireID()))
      let sql = try t.db.sql()
      let plan = try await ProductSearchTests.plan(
        """
        DELETE FROM idempotency_keys
        WHERE workspace_id = \(bind: workspace) AND created_at < \(bind: Date())
        """, sql)
      #expect(plan.contains(M085_IndexIdempotencyKeyAges.index), "\(plan)")
      #expect(plan.contains("created_at<"), "\(plan)")
    }
  }
}
