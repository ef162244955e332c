import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("CSRF protection")
struct CSRFTests {
  @Test func signInWithoutTokenIsRefused() async throws {
    try await withApp { t in
      let email = try await t.client().signUp()
      let client = t.client()
      try await client.get("/sign-in")
      let response = try await client.post(
        "/sign-in", form: [("email", email), ("password", "correct horse battery")], csrf: false)
      #expect(response.status == .forbidden)
      #expect(response.body.contains("This form has expired"))
      #expect(try await client.get("/").status == .seeOther, "not signed in")
    }
  }

  @Test func wrongTokenIsRefusedAndNothingChanges() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(email: "x@example.com")
      let response = try await client.post(
        "/settings/locale", form: [("locale", "de-DE"), ("currency", "EUR")],
        csrfToken: "forged")
      #expect(response.status == .forbidden)
      let user = try #require(try await Accounts.all(on: t.db).first)
      #expect(user.locale == "en-US")
    }
  }

  @Test func anotherSessionsTokenIsRefused() async throws {
    try await withApp { t in
      let attacker = t.client()
      try await attacker.signUp()
      let attackerToken = try #require(attacker.csrf)
      let victim = t.client()
      try await victim.signUp()
      let response = try await victim.post(
        "/settings/tokens", form: [("name", "evil")], csrfToken: attackerToken)
      #expect(response.status == .forbidden)
      #expect(try await APITokenTable.query(on: t.db).count() == 0)
    }
  }

  @Test func headerTokenWorksForScripts() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try #require(client.csrf)
      let response = try await client.post(
        "/settings/tokens", form: [("name", "from script")], csrf: false,
        headers: ["X-CSRF-Token": token])
      #expect(response.status == .created)
    }
  }

  @Test func apiWriteWithoutAnyCredentialsIsUnauthorizedNotForbidden() async throws {
    try await withApp { t in
      let response = try await t.client().send(
        .POST, "/api/v1/ad-payments", headers: ["Content-Type": "application/json"],
        body: #"{"name":"x","url":"https://example.com"}"#)
      #expect(response.status == .unauthorized)
      #expect(try response.json()["error"] != nil)
    }
  }

  @Test func apiWriteWithTheSessionButNoTokenIsRefused() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let response = try await client.send(
        .POST, "/api/v1/ad-payments", headers: ["Content-Type": "application/json"],
        body: #"{"name":"Shop","url":"https://example.com"}"#)
      #expect(response.status == .forbidden)
    }
  }

  @Test func signOutNeedsTheToken() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      #expect(try await client.post("/sign-out", csrf: false).status == .forbidden)
      #expect(try await client.get("/").status == .ok, "still signed in")
    }
  }
}
