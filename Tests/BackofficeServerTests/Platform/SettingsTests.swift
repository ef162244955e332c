import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Settings")
struct SettingsTests {
  @Test func localeAndCurrencyAreSaved() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      let response = try await client.post(
        "/settings/locale", form: [("locale", "uk-UA"), ("currency", "uah")])
      #expect(response.status == .seeOther)
      let user = try #require(try await Accounts.all(on: t.db).first)
      #expect(user.locale == "uk-UA")
      #expect(user.currency == "UAH")
      let page = try await client.get("/settings")
      #expect(page.body.contains("Locale and currency saved."))
      // The page's text is still English: `lang` names the language, not the locale.
      #expect(page.body.contains(#"<html lang="en">"#))
    }
  }

  @Test(arguments: [
    ("xx-XX", "EUR", "Choose one of the listed locales."),
    ("de-DE", "EURO", "Enter a three-letter ISO 4217 currency code"),
    ("de-DE", "ZZZ", "Enter a three-letter ISO 4217 currency code"),
  ])
  func badLocaleOrCurrencyIsRefusedNextToTheField(
    locale: String, currency: String, message: String
  ) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      let response = try await client.post(
        "/settings/locale", form: [("locale", locale), ("currency", currency)])
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains(message))
      #expect(response.body.contains(#"aria-invalid="true""#))
      let user = try #require(try await Accounts.all(on: t.db).first)
      #expect(user.locale == "en-US")
      #expect(user.currency == "USD")
    }
  }

  @Test func passwordChangeNeedsTheCurrentPassword() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp(password: "first password")
      try await client.get("/settings")
      let wrong = try await client.post(
        "/settings/password",
        form: [("current", "not it"), ("new", "second password"), ("confirm", "second password")])
      #expect(wrong.status == .unprocessableEntity)
      #expect(wrong.body.contains("This is not your current password."))

      let mismatch = try await client.post(
        "/settings/password",
        form: [("current", "first password"), ("new", "second password"), ("confirm", "other")])
      #expect(mismatch.body.contains("The two new passwords do not match."))

      let ok = try await client.post(
        "/settings/password",
        form: [
          ("current", "first password"), ("new", "second password"),
          ("confirm", "second password"),
        ])
      #expect(ok.status == .seeOther)
      #expect(
        try await t.client().signIn(email: email, password: "first password").status
          == .unauthorized)
      #expect(
        try await t.client().signIn(email: email, password: "second password").status == .seeOther)
    }
  }
}

@Suite("Errors, headers and static files")
struct PlatformTests {
  @Test func unknownPageIsAnHTMLNotFound() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let response = try await client.get("/no-such-page")
      #expect(response.status == .notFound)
      #expect(response.headers.contentType == .html)
      #expect(response.body.contains("Page not found"))
      #expect(response.body.contains(#"aria-label="Main""#), "the layout and navigation are there")
    }
  }

  @Test func unknownAPIPathIsTheJSONEnvelope() async throws {
    try await withApp { t in
      let response = try await t.client().get("/api/v1/nothing")
      #expect(response.status == .notFound)
      let error = try #require(try response.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "not_found")
    }
  }

  @Test func securityHeadersOnEveryResponse() async throws {
    try await withApp { t in
      for path in ["/sign-in", "/health", "/css/app.css", "/nothing"] {
        let response = try await t.client().get(path)
        let csp = try #require(response.headers.first(name: "Content-Security-Policy"), "\(path)")
        #expect(csp.contains("script-src 'self'"))
        #expect(!csp.contains("unsafe-inline"))
        #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
        #expect(response.headers.first(name: "Referrer-Policy") == "same-origin")
      }
    }
  }

  @Test func pagesHaveNoInlineScripts() async throws {
    try await withApp { t in
      let client = t.client()
      for page in [try await client.get("/sign-in"), try await client.get("/sign-up")] {
        #expect(!page.body.contains("<script>"))
        #expect(!page.body.contains(" style=\""))
        #expect(!page.body.contains(" onclick="))
      }
      try await client.signUp()
      for path in ["/", "/settings"] {
        let page = try await client.get(path)
        #expect(!page.body.contains("<script>"))
        #expect(!page.body.contains(" style=\""))
      }
    }
  }

  @Test func sessionCookieIsHttpOnlyAndLax() async throws {
    try await withApp { t in
      let response = try await t.client().get("/sign-in")
      let cookie = try #require(response.headers[.setCookie].first)
      #expect(cookie.contains("HttpOnly"))
      #expect(cookie.contains("SameSite=Lax"))
      #expect(!cookie.contains("Secure"))
    }
    let secure: (inout AppConfig) -> Void = { $0.secureCookies = true }
    try await withApp(config: secure) { t in
      let response = try await t.client().get("/sign-in")
      #expect(response.headers[.setCookie].first?.contains("Secure") == true)
    }
  }

  @Test func userInputIsEscaped() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.get("/sign-up")
      let response = try await client.post(
        "/sign-up", form: [("email", #""><script>alert(1)</script>"#), ("password", "x")])
      #expect(!response.body.contains("<script>alert(1)</script>"))
      #expect(response.body.contains("&quot;&gt;&lt;script&gt;"))
    }
  }

  @Test func healthAndReady() async throws {
    try await withApp { t in
      let health = try await t.client().get("/health")
      #expect(health.status == .ok)
      #expect(try health.json()["status"] as? String == "ok")
      let ready = try await t.client().get("/ready")
      #expect(ready.status == .ok)
      #expect(try ready.json()["status"] as? String == "ready")
    }
  }

  @Test func stylesheetAndScriptsAreServed() async throws {
    try await withApp { (t) async throws in
      #expect(try await t.client().get("/css/app.css").status == .ok)
      #expect(try await t.client().get("/js/app.js").status == .ok)
      #expect(try await t.client().get("/openapi.json").status == .ok)
    }
  }
}

@Suite("Server errors")
struct ServerErrorTests {
  struct Broken: Error, CustomStringConvertible {
    var description: String { "secret internal detail" }
  }

  @Test func unexpectedErrorIsAGenericPageAndEnvelope() async throws {
    try await withApp { t in
      // Routes added only for this test; the route-table test runs on its own app.
      t.app.get("boom") { _ -> String in throw Broken() }
      t.app.grouped("api", "v1").get("boom") { _ -> String in throw Broken() }
      let page = try await t.client().get("/boom")
      #expect(page.status == .internalServerError)
      #expect(page.headers.contentType == .html)
      #expect(page.body.contains("Something went wrong"))
      #expect(!page.body.contains("secret internal detail"))
      let api = try await t.client().get("/api/v1/boom")
      #expect(api.status == .internalServerError)
      let error = try #require(try api.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "internal_error")
      #expect(!api.body.contains("secret internal detail"))
    }
  }
}
