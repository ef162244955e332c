import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Ad payments: JSON API")
struct AdPaymentAPITests {
  static func body(name: String?, url: String?) -> String {
    var object: [String: String] = [:]
    if let name { object["name"] = name }
    if let url { object["url"] = url }
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  static func errorFields(_ response: TestResponse) throws -> [String: String] {
    let error = try #require(try response.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "validation_failed")
    return try #require(error["fields"] as? [String: String])
  }

  @Test func everyRouteNeedsAToken() async throws {
    try await withApp { t in
      let client = t.client()
      let id = UUID().uuidString
      for (method, path) in [
        (HTTPMethod.GET, "/api/v1/ad-payments"), (.POST, "/api/v1/ad-payments"),
        (.GET, "/api/v1/ad-payments/\(id)"), (.PUT, "/api/v1/ad-payments/\(id)"),
        (.DELETE, "/api/v1/ad-payments/\(id)"),
      ] {
        if method == .GET {
          // Without any credentials (writes without a cookie stop at the CSRF check first).
          let response = try await client.api(method, path, token: nil)
          #expect(response.status == .unauthorized, "\(method) \(path)")
        }
        let wrong = try await client.api(
          method, path, token: "bo_wrong", json: Self.body(name: "A", url: "https://a.com"))
        #expect(wrong.status == .unauthorized, "\(method) \(path)")
        #expect(try wrong.json()["error"] != nil)
      }
    }
  }

  @Test func createGetUpdateDelete() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.api(
        .POST, "/api/v1/ad-payments", token: token,
        json: Self.body(name: "  Launch ", url: " https://Launch.example.com/x "))
      #expect(created.status == .created)
      let json = try created.json()
      let id = try #require(json["id"] as? String)
      #expect(json["name"] as? String == "Launch")
      #expect(json["url"] as? String == "https://Launch.example.com/x")
      #expect(json["created_at"] is String)
      #expect((json["same_url"] as? [Any])?.isEmpty == true)
      #expect(created.location == "/api/v1/ad-payments/\(id.lowercased())")

      let fetched = try await client.api(.GET, "/api/v1/ad-payments/\(id)", token: token)
      #expect(fetched.status == .ok)
      #expect(try fetched.json()["name"] as? String == "Launch")

      let updated = try await client.api(
        .PUT, "/api/v1/ad-payments/\(id)", token: token,
        json: Self.body(name: "Relaunch", url: "http://example.org"))
      #expect(updated.status == .ok)
      #expect(try updated.json()["url"] as? String == "http://example.org")
      let stored = try #require(try await AdPaymentTable.find(UUID(uuidString: id), on: t.db))
      #expect(stored.name == "Relaunch")
      #expect(stored.sortKey == "relaunch")

      let deleted = try await client.api(.DELETE, "/api/v1/ad-payments/\(id)", token: token)
      #expect(deleted.status == .noContent)
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)
      let again = try await client.api(.GET, "/api/v1/ad-payments/\(id)", token: token)
      #expect(again.status == .notFound)
    }
  }

  @Test(arguments: AdPaymentExamples.invalidURLs)
  func invalidLinksAre422WithTheFormsMessage(_ url: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let response = try await client.api(
        .POST, "/api/v1/ad-payments", token: token, json: Self.body(name: "Ads", url: url))
      #expect(response.status == .unprocessableEntity)
      #expect(try Self.errorFields(response) == ["url": AdPaymentExamples.invalidURL])
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)
    }
  }

  @Test(arguments: AdPaymentExamples.validURLs)
  func validLinksAreCreated(_ url: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let response = try await client.api(
        .POST, "/api/v1/ad-payments", token: token, json: Self.body(name: "Ads", url: url))
      #expect(response.status == .created)
      #expect(try response.json()["url"] as? String == url)
    }
  }

  @Test func blankAndMissingFieldsNameEveryField() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let blank = try await client.api(
        .POST, "/api/v1/ad-payments", token: token, json: Self.body(name: " \n", url: "http://test")
      )
      #expect(blank.status == .unprocessableEntity)
      #expect(
        try Self.errorFields(blank)
          == ["name": AdPaymentExamples.blankName, "url": AdPaymentExamples.invalidURL])
      let missing = try await client.api(.POST, "/api/v1/ad-payments", token: token, json: "{}")
      #expect(
        try Self.errorFields(missing)
          == ["name": AdPaymentExamples.blankName, "url": AdPaymentExamples.invalidURL])
      let wrongType = try await client.api(
        .POST, "/api/v1/ad-payments", token: token, json: #"{"name": 5, "url": "https://a.com"}"#)
      #expect(wrongType.status == .badRequest)
      let id = try #require(
        try await client.api(
          .POST, "/api/v1/ad-payments", token: token,
          json: Self.body(name: "Kept", url: "https://kept.example.com")
        ).json()["id"] as? String)
      let update = try await client.api(
        .PUT, "/api/v1/ad-payments/\(id)", token: token, json: Self.body(name: "", url: nil))
      #expect(update.status == .unprocessableEntity)
      #expect(try Self.errorFields(update)["name"] == AdPaymentExamples.blankName)
      #expect(try await AdPaymentTable.query(on: t.db).first()?.name == "Kept")
    }
  }

  @Test func anotherAccountsEntryIsNotFound() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let ownerToken = try await owner.createToken()
      let id = try #require(
        try await owner.api(
          .POST, "/api/v1/ad-payments", token: ownerToken,
          json: Self.body(name: "Private", url: "https://private.example.com")
        ).json()["id"] as? String)
      let other = t.client()
      try await other.signUp()
      let token = try await other.createToken()
      let path = "/api/v1/ad-payments/\(id)"
      for method in [HTTPMethod.GET, .PUT, .DELETE] {
        let response = try await other.api(
          method, path, token: token, json: Self.body(name: "Mine", url: "https://x.com"))
        #expect(response.status == .notFound, "\(method)")
        #expect(!response.body.contains("Private"))
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "not_found")
      }
      let list = try await other.api(.GET, "/api/v1/ad-payments", token: token)
      #expect(try list.json()["total"] as? Int == 0)
      let same = try await other.api(
        .GET, "/api/v1/ad-payments?same_url=https://private.example.com", token: token)
      #expect(try same.json()["total"] as? Int == 0)
      #expect(try await AdPaymentTable.query(on: t.db).first()?.name == "Private")
      for path in ["/api/v1/ad-payments/nope", "/api/v1/ad-payments/\(UUID())"] {
        #expect(try await owner.api(.GET, path, token: ownerToken).status == .notFound)
        #expect(try await owner.api(.DELETE, path, token: ownerToken).status == .notFound)
      }
    }
  }

  @Test func listSearchesSortsAndPaginates() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for name in ["beta", "Alpha", "gamma", "Delta"] {
        let response = try await client.api(
          .POST, "/api/v1/ad-payments", token: token,
          json: Self.body(name: name, url: "https://\(name.lowercased()).example.com"))
        #expect(response.status == .created)
      }
      func names(_ path: String) async throws -> (names: [String], json: [String: Any]) {
        let response = try await client.api(.GET, path, token: token)
        #expect(response.status == .ok, "\(path): \(response.body)")
        let json = try response.json()
        let items = try #require(json["items"] as? [[String: Any]])
        return (items.compactMap { $0["name"] as? String }, json)
      }
      let all = try await names("/api/v1/ad-payments")
      #expect(all.names == ["Alpha", "beta", "Delta", "gamma"])
      #expect(all.json["page"] as? Int == 1)
      #expect(all.json["per"] as? Int == 50)
      #expect(all.json["total"] as? Int == 4)
      let second = try await names("/api/v1/ad-payments?page=2&per=3")
      #expect(second.names == ["gamma"])
      #expect(second.json["total"] as? Int == 4)
      #expect(try await names("/api/v1/ad-payments?page=9&per=3").names == [])
      #expect(try await names("/api/v1/ad-payments?q=DELTA.EXAMPLE").names == ["Delta"])
      #expect(try await names("/api/v1/ad-payments?q=a&per=2").json["total"] as? Int == 4)

      for bad in ["per=0", "per=101", "page=0", "page=x", "per=2.5"] {
        let response = try await client.api(.GET, "/api/v1/ad-payments?\(bad)", token: token)
        #expect(response.status == .unprocessableEntity, "\(bad)")
        let key = String(bad.prefix { $0 != "=" })
        #expect(try Self.errorFields(response)[key] != nil, "\(bad)")
      }
    }
  }

  @Test func duplicatesAreAllowedAndReported() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let first = try await client.api(
        .POST, "/api/v1/ad-payments", token: token,
        json: Self.body(name: "First", url: "https://www.example.com"))
      let firstID = try #require(try first.json()["id"] as? String)
      let second = try await client.api(
        .POST, "/api/v1/ad-payments", token: token,
        json: Self.body(name: "Second", url: "HTTPS://WWW.EXAMPLE.COM/"))
      #expect(second.status == .created)
      let same = try #require(try second.json()["same_url"] as? [[String: Any]])
      #expect(same.map { $0["id"] as? String } == [firstID])
      #expect(same.first?["name"] as? String == "First")
      let query = try await client.api(
        .GET, "/api/v1/ad-payments?same_url=https%3A%2F%2Fwww.example.com%2F", token: token)
      #expect(try query.json()["total"] as? Int == 2)
      let invalid = try await client.api(
        .GET, "/api/v1/ad-payments?same_url=http%3A%2F%2Fgoogle", token: token)
      #expect(try invalid.json()["total"] as? Int == 0)
    }
  }

  @Test func browserSessionsNeedTheCSRFHeaderToWrite() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let list = try await client.api(.GET, "/api/v1/ad-payments", token: nil)
      #expect(list.status == .ok, "reading with the session cookie works")
      let refused = try await client.api(
        .POST, "/api/v1/ad-payments", token: nil,
        json: Self.body(name: "A", url: "https://a.example.com"))
      #expect(refused.status == .forbidden)
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)
      let token = try #require(client.csrf)
      let allowed = try await client.api(
        .POST, "/api/v1/ad-payments", token: nil,
        json: Self.body(name: "A", url: "https://a.example.com"),
        headers: ["X-CSRF-Token": token])
      #expect(allowed.status == .created)
    }
  }

  @Test func failedWritesAreReportedInTheOriginalsWords() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let id = try #require(
        try await client.api(
          .POST, "/api/v1/ad-payments", token: token,
          json: Self.body(name: "Stored", url: "https://stored.example.com")
        ).json()["id"] as? String)
      try await failAdPaymentWrites(t, on: "UPDATE")
      let update = try await client.api(
        .PUT, "/api/v1/ad-payments/\(id)", token: token,
        json: Self.body(name: "Changed", url: "https://stored.example.com"))
      #expect(update.status == .internalServerError)
      let error = try #require(try update.json()["error"] as? [String: Any])
      #expect(error["message"] as? String == "Failed to update payment. Please try again.")
      #expect(error["code"] as? String == "save_failed")
    }
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await failAdPaymentWrites(t, on: "INSERT")
      let create = try await client.api(
        .POST, "/api/v1/ad-payments", token: token,
        json: Self.body(name: "Lost", url: "https://lost.example.com"))
      #expect(create.status == .internalServerError)
      let error = try #require(try create.json()["error"] as? [String: Any])
      #expect(error["message"] as? String == "Failed to save payment. Please try again.")
    }
  }

  @Test func openAPIDocumentDescribesTheResource() async throws {
    try await withApp { t in
      let document = try await t.client().get("/openapi.json").json()
      let paths = try #require(document["paths"] as? [String: [String: Any]])
      let collection = try #require(paths["/api/v1/ad-payments"])
      let item = try #require(paths["/api/v1/ad-payments/{entryID}"])
      #expect(Set(collection.keys).isSuperset(of: ["get", "post"]))
      #expect(Set(item.keys).isSuperset(of: ["get", "put", "delete"]))
      let post = try #require(collection["post"] as? [String: Any])
      let responses = try #require(post["responses"] as? [String: Any])
      #expect(Set(responses.keys).isSuperset(of: ["201", "401", "422"]))
      let components = try #require(document["components"] as? [String: Any])
      let schemas = try #require(components["schemas"] as? [String: Any])
      #expect(schemas["AdPayment"] != nil)
      // The document's limits are the rule's, so a client (and the fuzzer) sees the same ones.
      let input = try #require(schemas["AdPaymentInput"] as? [String: Any])
      let fields = try #require(input["properties"] as? [String: [String: Any]])
      #expect(fields["name"]?["maxLength"] as? Int == AdPaymentDraft.maxNameLength)
      #expect(fields["url"]?["maxLength"] as? Int == AdPaymentDraft.maxURLLength)
    }
  }
}
