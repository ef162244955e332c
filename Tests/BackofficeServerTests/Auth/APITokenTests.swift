import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("API tokens")
struct APITokenTests {
  @Test func tokenIsShownOnceStoredHashedAndAuthenticates() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp(email: "api@example.com")
      let secret = try await client.createToken(name: "Shop script")
      #expect(secret.hasPrefix("bo_"))

      let settings = try await client.get("/settings")
      #expect(settings.body.contains("Shop script"))
      #expect(!settings.body.contains(secret), "the secret is never shown again")

      let stored = try #require(try await APITokenTable.query(on: t.db).first())
      #expect(stored.tokenHash != secret)
      #expect(stored.tokenHash == secretHash(secret))

      let me = try await t.client().get(
        "/api/v1/me", headers: ["Authorization": "Bearer \(secret)"])
      #expect(me.status == .ok)
      let json = try me.json()
      #expect(json["email"] as? String == email)
      #expect(json["locale"] as? String == "en-US")
      #expect(json["currency"] as? String == "USD")
      let used = try #require(try await APITokenTable.query(on: t.db).first())
      #expect(used.lastUsedAt != nil)
    }
  }

  /// The one-time secret opens the page the form answers with, right under its heading, not
  /// below every other section.
  @Test func theNewSecretIsAtTheTopOfThePage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      let page = try await client.post("/settings/tokens", form: [("name", "Shop")])
      #expect(page.status == .created)
      let body = page.body
      let secret = try #require(body.range(of: #"id="new-token""#))
      let heading = try #require(body.range(of: "<h1>Settings</h1>"))
      let profile = try #require(body.range(of: #"id="profile""#))
      #expect(heading.upperBound <= secret.lowerBound && secret.upperBound <= profile.lowerBound)
    }
  }

  @Test func missingOrUnknownTokenIsUnauthorizedInTheEnvelope() async throws {
    try await withApp { t in
      for headers: HTTPHeaders in [[:], ["Authorization": "Bearer bo_nothing"]] {
        let response = try await t.client().get("/api/v1/me", headers: headers)
        #expect(response.status == .unauthorized)
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "unauthorized")
        #expect(error["message"] is String)
      }
    }
  }

  @Test func revokedTokenStopsWorking() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let secret = try await client.createToken()
      let id = try #require(try await APITokenTable.query(on: t.db).first()?.id)
      try await client.get("/settings")
      let revoke = try await client.post("/settings/tokens/\(id.uuidString)/revoke")
      #expect(revoke.status == .seeOther)
      let me = try await t.client().get(
        "/api/v1/me", headers: ["Authorization": "Bearer \(secret)"])
      #expect(me.status == .unauthorized)
    }
  }

  @Test func tokenNeedsAName() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      let response = try await client.post("/settings/tokens", form: [("name", "  ")])
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains("Give the token a name"))
      #expect(try await APITokenTable.query(on: t.db).count() == 0)
    }
  }

  @Test func sessionCookieAlsoReachesTheAPI() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let me = try await client.get("/api/v1/me")
      #expect(me.status == .ok)
      #expect(try me.json()["email"] as? String == email)
    }
  }
}

/// `/api/v1/me` writes its answer directly; the bytes are `JSONEncoder.api`'s.
@Suite("API: who the token belongs to")
struct MeJSONTests {
  @Test(arguments: [
    "ada@example.com", "o'brien+tag@example.org", "a/b@example.com", #"quote"me@example.com"#,
    "тест@приклад.укр", "back\\slash@example.com", "tab\there@example.com",
    String(repeating: "x", count: 10_000) + "@example.com",
  ])
  func theAnswerIsWhatTheEncoderWrites(email: String) throws {
    for (locale, currency) in [("en-US", "USD"), ("uk-UA", "UAH"), ("de-DE", "EUR")] {
      let me = AccountAPIController.Me(
        id: UUID(), email: email, locale: locale, currency: currency)
      let encoded = try JSONEncoder.api.encode(me)
      #expect(me.json == encoded, "\(String(decoding: encoded, as: UTF8.self).prefix(200))")
    }
  }
}

@Suite("Isolation between accounts")
struct IsolationTests {
  @Test func anotherAccountsTokenCannotBeRevoked() async throws {
    try await withApp { t in
      let alice = t.client()
      try await alice.signUp(email: "alice@example.com")
      let aliceSecret = try await alice.createToken(name: "alice's")
      let aliceToken = try #require(try await APITokenTable.query(on: t.db).first()?.id)

      let bob = t.client()
      try await bob.signUp(email: "bob@example.com")
      let settings = try await bob.get("/settings")
      #expect(!settings.body.contains("alice&#39;s") && !settings.body.contains("alice's"))
      let revoke = try await bob.post("/settings/tokens/\(aliceToken.uuidString)/revoke")
      #expect(revoke.status == .notFound)
      #expect(try await APITokenTable.query(on: t.db).count() == 1)

      let me = try await t.client().get(
        "/api/v1/me", headers: ["Authorization": "Bearer \(aliceSecret)"])
      #expect(try me.json()["email"] as? String == "alice@example.com")
    }
  }

  @Test func eachSessionSeesOnlyItsOwnAccount() async throws {
    try await withApp { t in
      let alice = t.client()
      try await alice.signUp(email: "alice@example.com")
      let bob = t.client()
      try await bob.signUp(email: "bob@example.com")
      let aliceHome = try await alice.get("/")
      let bobHome = try await bob.get("/")
      #expect(aliceHome.body.contains("alice@example.com"))
      #expect(!aliceHome.body.contains("bob@example.com"))
      #expect(bobHome.body.contains("bob@example.com"))
      #expect(!bobHome.body.contains("alice@example.com"))
    }
  }
}
