import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// What the API document promises and a client may rely on, beyond each area's own tests.
@Suite("API: what the document promises")
struct APIConformanceTests {
  /// The router would take `PUT /api/v1/expenses/summary` for an expense named "summary";
  /// the address takes GET only, and says so.
  @Test func anAddressRefusesTheMethodsItDoesNotTake() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for method in [HTTPMethod.PUT, .DELETE, .PATCH, .POST] {
        let response = try await client.expensesAPI(
          method, "/api/v1/expenses/summary", token: token, json: "{}")
        #expect(response.status == .methodNotAllowed, "\(method)")
        #expect(response.headers.first(name: .allow) == "GET, HEAD", "\(method)")
      }
      let options = try await client.send(.OPTIONS, "/api/v1/expenses/summary")
      #expect(options.status == .noContent)
      #expect(options.headers.first(name: .allow) == "GET, HEAD")
      // An expense's own address still takes them.
      let missing = try await client.expensesAPI(
        .PUT, "/api/v1/expenses/\(UUID())", token: token, json: "{}")
      #expect(missing.status == .notFound)
    }
  }

  /// Ids are one text: the body's `id` is the last segment of `Location`, in lower case.
  @Test func bodiesAndLocationsSpellIdsTheSameWay() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let creates = [
        ("/api/v1/expenses", #"{"title": "Tea", "amount": "1"}"#),
        ("/api/v1/ad-payments", #"{"name": "Ads", "url": "https://www.example.com"}"#),
        ("/api/v1/products", #"{"name": "Pen", "type": "Office", "price": "1", "tax": "0"}"#),
      ]
      for (path, body) in creates {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)")
        headers.replaceOrAdd(name: .contentType, value: "application/json")
        headers.replaceOrAdd(name: "Idempotency-Key", value: UUID().uuidString)
        let created = try await client.send(.POST, path, headers: headers, body: body)
        #expect(created.status == .created, "\(path): \(created.body)")
        let id = try #require(try created.json()["id"] as? String)
        #expect(id == id.lowercased())
        #expect(created.location == "\(path)/\(id)")
      }
      let me = try await client.expensesAPI(.GET, "/api/v1/me", token: token)
      let meID = try #require(try me.json()["id"] as? String)
      #expect(meID == meID.lowercased())
    }
  }

  /// A search text longer than the document allows is refused by the API (the page cuts it).
  @Test func anOverlongExpenseSearchIsRefused() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let long = String(repeating: "é", count: 101)
      for path in ["/api/v1/expenses", "/api/v1/expenses/summary"] {
        let response = try await client.expensesAPI(.GET, "\(path)?q=\(long)", token: token)
        #expect(response.status == .unprocessableEntity, "\(path)")
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect((error["fields"] as? [String: String])?["q"] == "Use at most 100 characters.")
      }
      let fits = try await client.expensesAPI(
        .GET, "/api/v1/expenses?q=\(String(repeating: "é", count: 100))", token: token)
      #expect(fits.status == .ok)
      #expect(try await client.get("/expenses?q=\(long)").status == .ok)
    }
  }

  /// Names of nothing but control characters are as blank as empty ones.
  @Test func invisibleNamesAreBlank() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let cases = [
        ("/api/v1/ad-payments", #"{"name": "\u0019", "url": "https://www.example.com"}"#, "name"),
        (
          "/api/v1/products",
          #"{"name": "\u0001\u0002", "type": "Office", "price": "1", "tax": "0"}"#, "name"
        ),
        (
          "/api/v1/products", #"{"name": "Pen", "type": "\u0019 ", "price": "1", "tax": "0"}"#,
          "type"
        ),
      ]
      for (path, body, field) in cases {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)")
        headers.replaceOrAdd(name: .contentType, value: "application/json")
        headers.replaceOrAdd(name: "Idempotency-Key", value: UUID().uuidString)
        let response = try await client.send(.POST, path, headers: headers, body: body)
        #expect(response.status == .unprocessableEntity, "\(path) \(body)")
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect((error["fields"] as? [String: String])?[field] != nil, "\(path) \(body)")
      }
    }
  }

  @Test func anEmailWithAControlCharacterIsRefused() {
    #expect(EmailAddress.problem(with: "r@\u{16}be.example") != nil)
    #expect(EmailAddress.problem(with: "r@be.example") == nil)
  }

  /// RFC 3339 allows offsets to ±23:59; the instant is the one the text names.
  @Test func expenseDatesWithLargeOffsetsAreReadExactly() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token,
        json: #"{"title": "Tea", "amount": "1", "date": "2025-11-22T10:00:00+18:30"}"#)
      #expect(try created.json()["date"] as? String == "2025-11-21T15:30:00Z")
      let far = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token,
        json: #"{"title": "Tea", "amount": "1", "date": "9999-12-31T23:59:59-01:00"}"#)
      #expect(far.status == .unprocessableEntity)
    }
  }

  /// A Swipe `files[]` part without a file name is neither a photo nor "no photo".
  @Test func aSwipeFilesPartThatIsNotAFileIsRefused() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let refused = try await SwipeCompatibleAPITests.add(
        client, token: token, SwipeCompatibleAPITests.fields + [.text("files[]", "{}")])
      #expect(refused.status == .unprocessableEntity, "\(refused.body)")
      #expect(refused.body.contains("Send the photo as a file"))
      let empty = try await SwipeCompatibleAPITests.add(
        client, token: token, SwipeCompatibleAPITests.fields + [.text("files[]", "")])
      #expect(empty.status == .ok, "\(empty.body)")
    }
  }
}
