import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Flash messages")
struct FlashTests {
  /// A slow background request that read the session before a form post must not erase the
  /// post's message: messages travel in their own cookie, never in the session row.
  @Test func aLateSessionWriteCannotEraseTheMessage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      let store = BrowserSessionStore(db: t.db)
      let secret = try #require(client.cookies["backoffice_session"])
      let before = try #require(try await store.find(secret: secret)).session

      let saved = try await client.post(
        "/settings/locale", form: [("locale", "de-DE"), ("currency", "EUR")])
      #expect(saved.status == .seeOther)
      try await store.save(before, includingData: true)

      let page = try await client.get("/settings")
      #expect(page.body.contains("Locale and currency saved."))
      #expect(!(try await client.get("/settings").body.contains("Locale and currency saved.")))
    }
  }

  @Test func aForgedCookieIsEscapedAndCapped() async throws {
    try await withApp { t in
      let messages = (0..<8).map { FlashMessage(kind: .info, text: "<b>\($0)</b>") }
      let value = try #require(FlashCookie.encode(messages))
      // A fresh client has no cookie jar of its own, so this header goes out as written.
      let page = try await t.client().get(
        "/sign-in", headers: ["Cookie": "backoffice_flash=\(value)"])
      #expect(page.body.contains("&lt;b&gt;4&lt;/b&gt;"))
      #expect(!page.body.contains("&lt;b&gt;5&lt;/b&gt;"), "at most five messages")
      #expect(!page.body.contains("<b>0</b>"))
      #expect(FlashCookie.decode("not base64!") == [])
    }
  }
}

@Suite("Sessions under concurrent requests")
struct SessionWriteTests {
  /// Two requests of one browser overlap: the slow one read the session before the fast one
  /// changed it. The slow one changed nothing, so noting that the session is still in use must
  /// not write its stale copy of the data back.
  @Test func anUnchangedSessionIsNotWrittenBack() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let store = BrowserSessionStore(db: t.db)
      let secret = try #require(client.cookies["backoffice_session"])
      var slow = try #require(try await store.find(secret: secret)).session

      var fast = slow
      fast.data["notice"] = "kept"
      try await store.save(fast, includingData: true)

      slow.lastSeenAt = slow.lastSeenAt.addingTimeInterval(BrowserSession.touchInterval + 1)
      try await store.save(slow, includingData: false)
      let stored = try #require(try await store.find(secret: secret)).session
      #expect(stored.data["notice"] == "kept")
      #expect(stored.lastSeenAt == slow.lastSeenAt)
    }
  }

  /// The same through requests: a value a handler stored survives a later request that changed
  /// nothing, and a value it removed stays removed.
  @Test func valuesStoredByAHandlerOutliveLaterRequests() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let expense = try await client.post(
        "/expenses", form: [("title", "Coffee"), ("amount", "3.50"), ("category", "Food")])
      #expect(expense.status == .seeOther)
      let list = try await client.get("/expenses")
      let id = try #require(list.firstMatch(#"/expenses/([0-9a-f-]{36})/edit"#))
      #expect(try await client.post("/expenses/\(id)/delete").status == .seeOther)
      try await client.get("/settings")
      let undo = try await client.get("/expenses")
      #expect(undo.body.contains("/expenses/\(id)/restore"), "the undo offer was kept")
      #expect(!(try await client.get("/expenses").body.contains("/restore")), "offered once")
    }
  }
}
