import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// The page's text without its per-request parts (the CSRF token, the page id).
private func comparable(_ body: String) -> String {
  body.replacingOccurrences(
    of: #"value="[A-Za-z0-9_\-]{20,}""#, with: "value=\"…\"", options: .regularExpression)
}

@Suite("Password reset by email")
struct PasswordResetTests {
  @Test func withoutMailThePageNamesTheAdministratorsCommand() async throws {
    try await withApp { t in
      let client = t.client()
      let page = try await client.get("/forgot-password")
      #expect(page.status == .ok)
      #expect(page.body.contains("backoffice user reset-password --email"))
      #expect(!page.body.contains(#"name="email""#))
      try await client.get("/sign-in")
      let sent = try await client.post("/forgot-password", form: [("email", "a@example.com")])
      #expect(sent.status == .ok)
      #expect(sent.body.contains("backoffice user reset-password"))
      let signIn = try await client.get("/sign-in")
      #expect(signIn.body.contains(#"href="/forgot-password""#))
    }
  }

  @Test func theAnswerIsTheSameWhetherOrNotTheAddressHasAnAccount() async throws {
    try await withMailApp { t, server in
      try await t.makeAccount("owner@example.com")
      let client = t.client()
      try await client.get("/forgot-password")
      let known = try await client.post("/forgot-password", form: [("email", "owner@example.com")])
      let unknown = try await client.post(
        "/forgot-password", form: [("email", "nobody@example.com")])
      #expect(known.status == .ok && unknown.status == .ok)
      #expect(
        comparable(known.body).replacingOccurrences(of: "owner@", with: "X@")
          == comparable(unknown.body).replacingOccurrences(of: "nobody@", with: "X@"))
      try await t.deliverMail()
      #expect(server.messages.map(\.recipients) == [["owner@example.com"]])
      let mail = try #require(server.messages.first)
      #expect(mail.subject == "Reset your Backoffice password")
      #expect(mail.text.contains("https://bo.example.org/reset-password/"))
      // Only the hash of the secret is kept.
      let link = try #require(firstLink(in: mail.text, after: "/reset-password/"))
      let secret = String(link.dropFirst("/reset-password/".count))
      let sql = try t.db.sql()
      let stored = try await sql.raw(
        "SELECT token_hash FROM password_resets"
      ).all().map { try $0.decode(column: "token_hash", as: String.self) }
      #expect(stored == [secretHash(secret)])
      #expect(!stored.contains(secret))
      // The outbox forgot the link once it was sent.
      #expect(try await MailOutbox(db: t.db).all().allSatisfy { $0.body.isEmpty })
    }
  }

  @Test func theLinkSetsThePasswordOnceAndEndsEverySessionAndToken() async throws {
    try await withMailApp { t, server in
      try await t.makeAccount("owner@example.com", password: "old password 1")
      // Signed in elsewhere, with an API token.
      let elsewhere = t.client()
      #expect(
        try await elsewhere.signIn(email: "owner@example.com", password: "old password 1")
          .status == .seeOther)
      let token = try await elsewhere.createToken()
      #expect(
        try await elsewhere.get("/api/v1/me", headers: ["Authorization": "Bearer \(token)"])
          .status == .ok)

      let client = t.client()
      try await client.get("/forgot-password")
      try await client.post("/forgot-password", form: [("email", "owner@example.com")])
      try await t.deliverMail()
      let mail = try #require(server.messages.first)
      let link = try #require(firstLink(in: mail.text, after: "/reset-password/"))

      let form = try await client.get(link)
      #expect(form.status == .ok)
      #expect(form.headers.first(name: "Referrer-Policy") == "no-referrer")
      let mismatch = try await client.post(
        link, form: [("password", "new password 22"), ("confirm", "new password 23")])
      #expect(mismatch.status == .unprocessableEntity)
      let short = try await client.post(link, form: [("password", "x"), ("confirm", "x")])
      #expect(short.status == .unprocessableEntity)
      let done = try await client.post(
        link, form: [("password", "new password 22"), ("confirm", "new password 22")])
      #expect(done.status == .seeOther)
      #expect(done.location == "/sign-in?password-reset=1")

      // Everything signed in before is out.
      let page = try await elsewhere.get("/settings")
      #expect(page.status == .seeOther)
      #expect(
        try await elsewhere.get("/api/v1/me", headers: ["Authorization": "Bearer \(token)"])
          .status == .unauthorized)
      // The old password no longer works, the new one does.
      #expect(
        try await t.client().signIn(email: "owner@example.com", password: "old password 1")
          .status == .unauthorized)
      #expect(
        try await t.client().signIn(email: "owner@example.com", password: "new password 22")
          .status == .seeOther)
      // Once only.
      #expect(try await client.get(link).status == .notFound)
      let again = try await client.post(
        link, form: [("password", "third password 3"), ("confirm", "third password 3")])
      #expect(again.status == .notFound)
    }
  }

  @Test func twoTabsUsingOneLinkAtOnceSetOnePassword() async throws {
    try await withMailApp { t, server in
      try await t.makeAccount("owner@example.com")
      let asker = t.client()
      try await asker.get("/forgot-password")
      try await asker.post("/forgot-password", form: [("email", "owner@example.com")])
      try await t.deliverMail()
      let mail = try #require(server.messages.first)
      let link = try #require(firstLink(in: mail.text, after: "/reset-password/"))
      let tabs = [t.client(), t.client()]
      for tab in tabs { try await tab.get(link) }
      let answers = try await withThrowingTaskGroup(of: (Int, HTTPStatus).self) { group in
        for (index, tab) in tabs.enumerated() {
          group.addTask {
            let password = "parallel password \(index)"
            let answer = try await tab.post(
              link, form: [("password", password), ("confirm", password)])
            return (index, answer.status)
          }
        }
        return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
      }
      #expect(answers.values.filter { $0 == .seeOther }.count == 1)
      #expect(answers.values.filter { $0 == .notFound }.count == 1)
      let winner = try #require(answers.first { $0.value == .seeOther }?.key)
      #expect(
        try await t.client().signIn(
          email: "owner@example.com", password: "parallel password \(winner)"
        ).status == .seeOther)
      #expect(
        try await t.client().signIn(
          email: "owner@example.com", password: "parallel password \(1 - winner)"
        ).status == .unauthorized)
    }
  }

  @Test func aLinkExpiresAfterAnHourAndANewerOneDoesNotReviveIt() async throws {
    try await withMailApp { t, server in
      try await t.makeAccount("owner@example.com")
      let client = t.client()
      try await client.get("/forgot-password")
      try await client.post("/forgot-password", form: [("email", "owner@example.com")])
      try await t.deliverMail()
      let mail = try #require(server.messages.first)
      let link = try #require(firstLink(in: mail.text, after: "/reset-password/"))
      t.clock.advance(by: 59 * 60)
      #expect(try await client.get(link).status == .ok)
      t.clock.advance(by: 2 * 60)
      #expect(try await client.get(link).status == .notFound)
      let late = try await client.post(
        link, form: [("password", "new password 22"), ("confirm", "new password 22")])
      #expect(late.status == .notFound)
      #expect(try await client.get("/reset-password/not-a-real-secret").status == .notFound)
      #expect(
        try await client.get("/reset-password/" + String(repeating: "x", count: 10_000)).status
          == .notFound)
    }
  }

  @Test func requestsAreThrottledPerClientAndPerAccountWithoutTellingWhichAccount() async throws {
    try await withMailApp { t, server in
      try await t.makeAccount("owner@example.com")
      let client = t.client()
      try await client.get("/forgot-password")
      var statuses: [HTTPStatus] = []
      for _ in 0..<PasswordResetLimits.perAddress {
        statuses.append(
          try await client.post("/forgot-password", form: [("email", "owner@example.com")]).status)
      }
      #expect(statuses.allSatisfy { $0 == .ok })
      let blocked = try await client.post(
        "/forgot-password", form: [("email", "other@example.com")])
      #expect(blocked.status == .tooManyRequests)
      #expect(blocked.headers.first(name: .retryAfter) != nil)
      try await t.deliverMail()
      // Ten answers alike, but only three messages to the account.
      #expect(server.messages.count == PasswordResetLimits.perAccount)
    }
  }

  @Test func badInputIsAnsweredByTheField() async throws {
    try await withMailApp { t, _ in
      let client = t.client()
      try await client.get("/forgot-password")
      let empty = try await client.post("/forgot-password", form: [("email", "")])
      #expect(empty.status == .unprocessableEntity)
      let huge = try await client.post(
        "/forgot-password", form: [("email", String(repeating: "a", count: 10_000) + "@x.org")])
      #expect(huge.status == .unprocessableEntity)
      let injected = try await client.post(
        "/forgot-password", form: [("email", "a@example.com\r\nBcc: x@evil.example")])
      #expect(injected.status == .unprocessableEntity || injected.status == .ok)
      #expect(try await MailOutbox(db: t.db).all().isEmpty)
    }
  }

  @Test func theMailIsInTheAccountsLanguage() async throws {
    try await withMailApp { t, server in
      let userID = try await t.makeAccount("owner@example.com")
      var user = try #require(try await Accounts.find(id: userID, on: t.db))
      user.uiLanguage = "uk"
      try await Accounts.save(user, on: t.db)
      let client = t.client()
      try await client.get("/forgot-password")
      try await client.post("/forgot-password", form: [("email", "owner@example.com")])
      try await t.deliverMail()
      let mail = try #require(server.messages.first)
      #expect(mail.subject == "Скидання пароля Backoffice")
      #expect(mail.text.contains("протягом години"))
    }
  }
}
