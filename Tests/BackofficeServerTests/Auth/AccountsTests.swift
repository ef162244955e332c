import Fluent
import Foundation
import SQLKit
import Testing

@testable import BackofficeServer

/// Accounts are plain values; `Accounts` is the one place with the `users` table's SQL, and the
/// session and token reads select the same columns. Every field written is read back the same
/// on SQLite and PostgreSQL.
@Suite("Accounts: the store")
struct AccountsTests {
  @Test func anAccountReadsBackAsItWasWritten() async throws {
    try await withApp { t in
      let now = Date(timeIntervalSince1970: 1_790_000_000)
      let stored = try await Accounts.create(
        User(
          email: "b@example.com", passwordHash: "hash", locale: "de-DE", currency: "EUR",
          uiLanguage: "uk"),
        now: now, on: t.db)
      #expect(stored.isAdmin, "the first account administers the server")
      #expect(stored.createdAt == now)
      #expect(try await Accounts.find(email: "b@example.com", on: t.db) == stored)
      #expect(try await Accounts.find(id: stored.id, on: t.db) == stored)
      #expect(try await Accounts.find(email: "B@example.com", on: t.db) == nil)

      var changed = stored
      changed.email = "a@example.com"
      changed.passwordHash = "other"
      changed.locale = "uk-UA"
      changed.currency = "UAH"
      changed.uiLanguage = nil
      changed.isAdmin = false
      try await Accounts.save(changed, on: t.db)
      #expect(try await Accounts.find(id: stored.id, on: t.db) == changed)

      let second = try await Accounts.create(
        User(email: "c@example.com", passwordHash: "x", locale: "en-US", currency: "USD"),
        now: now, on: t.db)
      #expect(!second.isAdmin)
      #expect(try await Accounts.all(on: t.db).map(\.email) == ["a@example.com", "c@example.com"])
      let found = try await Accounts.find(ids: [second.id, UUID(), second.id], on: t.db)
      #expect(found == [second])
      #expect(try await Accounts.find(ids: [UUID](), on: t.db).isEmpty)
    }
  }

  /// A token's read joins the account's row: it must read what the store reads.
  @Test func theTokenReadSeesTheStoredAccount() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let token = try await client.createToken()
      var user = try #require(try await Accounts.find(email: email, on: t.db))
      user.uiLanguage = "uk"
      user.locale = "fr-FR"
      try await Accounts.save(user, on: t.db)
      let read = try #require(try await APITokens.account(forHash: secretHash(token), on: t.db))
      #expect(read.user == user)
    }
  }

  /// Settings saved in a new language say so in that language at once.
  @Test func savedSettingsAreConfirmedInTheLanguageJustChosen() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      let response = try await client.post(
        "/settings/locale", form: [("locale", "uk-UA"), ("currency", "UAH"), ("language", "uk")])
      #expect(response.status == .seeOther)
      let page = try await client.get("/settings")
      #expect(page.body.contains("Мову, формати й валюту збережено."))
    }
  }
}
