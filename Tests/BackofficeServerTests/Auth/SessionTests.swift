import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

private func sessionRows(_ t: TestApp) async throws -> Int {
  let sql = try t.db.sql()
  let row = try await sql.raw("SELECT COUNT(*) AS n FROM browser_sessions").first()
  return try row?.decode(column: "n", as: Int.self) ?? -1
}

@Suite("Sessions: stored for signed-in browsers only, expiring, ended on request")
struct SessionTests {
  @Test func anonymousPagesStoreNoSession() async throws {
    try await withApp { t in
      let client = t.client()
      for _ in 0..<5 { try await client.get("/sign-in") }
      try await client.get("/sign-up")
      #expect(try await sessionRows(t) == 0, "a crawler fetching forms writes nothing")
      #expect(client.cookies["backoffice_session"] == nil)
      let token = try #require(client.cookies[AnonymousCSRF.cookieName])
      #expect(client.csrf == token, "the form repeats the cookie's token")
    }
  }

  @Test func signedOutFormsNeedTheirCookieToken() async throws {
    try await withApp { t in
      let email = try await t.client().signUp()
      let client = t.client()
      try await client.get("/sign-in")
      let forged = try await client.post(
        "/sign-in", form: [("email", email), ("password", "correct horse battery")],
        csrfToken: String(repeating: "A", count: 43))
      #expect(forged.status == .forbidden)
      let stranger = t.client()
      let noCookie = try await stranger.post(
        "/sign-in", form: [("email", email), ("password", "correct horse battery")],
        csrfToken: client.csrf)
      #expect(noCookie.status == .forbidden, "a token without its cookie is worthless")
      #expect(try await client.signIn(email: email).status == .seeOther)
      #expect(try await sessionRows(t) == 2, "one from sign-up, one from this sign-in")
    }
  }

  @Test func aCookieChosenBeforeSignInIsNeverSignedIn() async throws {
    try await withApp { t in
      let email = try await t.client().signUp()
      let planted = String(repeating: "x", count: 43)
      let client = t.client()
      try await client.get("/sign-in", headers: ["Cookie": "backoffice_session=\(planted)"])
      #expect(try await client.signIn(email: email).status == .seeOther)
      let issued = try #require(client.cookies["backoffice_session"])
      #expect(issued != planted)
      let replay = try await t.client().get(
        "/", headers: ["Cookie": "backoffice_session=\(planted)"])
      #expect(replay.status == .seeOther)
    }
  }

  @Test func idleSessionsExpireAndActiveOnesStayUntilTheirLimit() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let day: TimeInterval = 24 * 60 * 60
      t.clock.advance(by: 13 * day)
      #expect(try await client.get("/").status == .ok, "13 idle days are fine")
      t.clock.advance(by: 13 * day)
      #expect(try await client.get("/").status == .ok, "the visit above counted as use")
      t.clock.advance(by: 5 * day)
      #expect(
        try await client.get("/").status == .seeOther, "31 days after sign-in it ends anyway")
      #expect(try await sessionRows(t) == 0, "the expired row is removed when it is seen")

      let idle = t.client()
      try await idle.signUp()
      t.clock.advance(by: 14 * day + 60)
      #expect(try await idle.get("/").status == .seeOther, "14 days without use end it")
    }
  }

  @Test func expiredSessionsAreCleanedUpOnTheNextSignIn() async throws {
    try await withApp { t in
      for _ in 0..<3 { try await t.client().signUp() }
      #expect(try await sessionRows(t) == 3)
      t.clock.advance(by: BrowserSession.idleLifetime + 60)
      try await t.client().signUp()
      #expect(try await sessionRows(t) == 1, "only the fresh one is left")
    }
  }

  @Test func unchangedRequestsWriteNothingUntilTheTouchInterval() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let sql = try t.db.sql()
      func lastSeen() async throws -> Date {
        try #require(
          try await sql.raw("SELECT last_seen_at FROM browser_sessions").first()?
            .decode(column: "last_seen_at", as: Date.self))
      }
      let first = try await lastSeen()
      t.clock.advance(by: 60)
      try await client.get("/")
      #expect(try await lastSeen() == first)
      t.clock.advance(by: BrowserSession.touchInterval)
      try await client.get("/")
      #expect(try await lastSeen() == t.clock.now)
    }
  }

  @Test func changingThePasswordSignsOutOtherBrowsers() async throws {
    try await withApp { t in
      let phone = t.client()
      let email = try await phone.signUp(password: "first password 1")
      let laptop = t.client()
      #expect(
        try await laptop.signIn(email: email, password: "first password 1").status == .seeOther)
      try await phone.get("/settings")
      let changed = try await phone.post(
        "/settings/password",
        form: [
          ("current", "first password 1"), ("new", "second password 2"),
          ("confirm", "second password 2"),
        ])
      #expect(changed.status == .seeOther)
      let settings = try await phone.get("/settings")
      #expect(settings.status == .ok, "the browser that changed it stays signed in")
      #expect(settings.body.contains("Your other devices (1) were signed out."))
      #expect(try await laptop.get("/").status == .seeOther)
    }
  }

  @Test func signOutOtherDevicesFromSettings() async throws {
    try await withApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let second = t.client()
      #expect(try await second.signIn(email: email).status == .seeOther)
      let third = t.client()
      #expect(try await third.signIn(email: email).status == .seeOther)

      let page = try await first.get("/settings")
      #expect(page.body.contains("2 other browsers or devices are signed in"))
      #expect(page.body.contains("Sign out other devices"))
      let done = try await first.post("/settings/sessions/sign-out-others")
      #expect(done.status == .seeOther)
      #expect(try await first.get("/settings").body.contains("Signed out 2 other devices."))
      #expect(try await second.get("/").status == .seeOther)
      #expect(try await third.get("/").status == .seeOther)
      let after = try await first.get("/settings")
      #expect(after.body.contains("Only this browser is signed in"))
      #expect(!after.body.contains("Sign out other devices"), "nothing to end, no button")
    }
  }

  @Test func anotherAccountsSessionsAreLeftAlone() async throws {
    try await withApp { t in
      let mine = t.client()
      try await mine.signUp()
      let theirs = t.client()
      try await theirs.signUp()
      try await mine.get("/settings")
      try await mine.post("/settings/sessions/sign-out-others")
      #expect(try await theirs.get("/").status == .ok)
    }
  }

  @Test func errorPagesRenderWithoutASession() async throws {
    try await withApp { t in
      // Paths like these used to be refused by the static files before the session was read,
      // and the error page then asked for the session.
      for path in ["/a/../health", "/css/..%2f..%2fPackage.swift", "/css/../../Package.swift"] {
        let response = try await t.client().get(path)
        #expect(response.status == .notFound, "\(path)")
        #expect(response.body.contains("Page not found"))
      }
      let signedIn = t.client()
      try await signedIn.signUp()
      let photo = try await signedIn.get("/products/..%2f..%2fetc%2fpasswd/photo")
      #expect(photo.status == .notFound)
      #expect(photo.body.contains("Sign out"), "the error page shows the signed-in layout")
      #expect(try await t.client().get("/health").status == .ok)
    }
  }
}

@Suite("Security headers")
struct StrictTransportSecurityTests {
  @Test func sentOnlyWhenCookiesAreSecure() async throws {
    let secure: (inout AppConfig) -> Void = { $0.secureCookies = true }
    try await withApp(config: secure) { t in
      let response = try await t.client().get("/sign-in")
      #expect(
        response.headers.first(name: "Strict-Transport-Security")
          == SecurityHeadersMiddleware.hstsValue)
    }
    try await withApp { t in
      let response = try await t.client().get("/sign-in")
      #expect(response.headers.first(name: "Strict-Transport-Security") == nil)
    }
  }
}

@Suite("Methods")
struct MethodNotAllowedTests {
  @Test func aKnownPathWithAnotherMethodIs405WithAllow() async throws {
    try await withApp { t in
      let trace = try await t.client().send(.TRACE, "/health")
      #expect(trace.status == .methodNotAllowed)
      #expect(trace.headers.first(name: .allow) == "GET, HEAD")
      let api = try await t.client().send(
        .PATCH, "/api/v1/products", headers: ["Content-Type": "application/json"], body: "{}")
      #expect(api.status == .methodNotAllowed)
      #expect(api.body.contains(#""code":"method_not_allowed""#))
      let options = try await t.client().send(.OPTIONS, "/api/v1/products/anything")
      #expect(options.status == .noContent)
      #expect(options.headers.first(name: .allow) == "DELETE, GET, HEAD, PUT")
      #expect(try await t.client().send(.TRACE, "/no/such/page").status == .notFound)
    }
  }
}
