import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Flash messages")
struct FlashTests {
  /// A slow background request saves the session it read before a form post; the post's
  /// message must survive that write-back.
  @Test func aLateSessionWriteCannotEraseTheMessage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      let id = SessionID(string: try #require(client.cookies["backoffice_session"]))
      let request = Request(application: t.app, on: t.app.eventLoopGroup.next())
      let before = try #require(
        try await t.app.sessions.driver.readSession(id, for: request).get())

      let saved = try await client.post(
        "/settings/locale", form: [("locale", "de-DE"), ("currency", "EUR")])
      #expect(saved.status == .seeOther)
      _ = try await t.app.sessions.driver.updateSession(id, to: before, for: request).get()

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
  /// changed it. The slow one changed nothing, so it must not write its stale copy back.
  @Test func anUnchangedSessionIsNotWrittenBack() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = SessionID(string: try #require(client.cookies["backoffice_session"]))
      let driver = t.app.sessions.driver
      let slow = Request(application: t.app, on: t.app.eventLoopGroup.next())
      let read = try #require(try await driver.readSession(id, for: slow).get())

      let fast = Request(application: t.app, on: t.app.eventLoopGroup.next())
      var changed = read
      changed["notice"] = "kept"
      _ = try await driver.updateSession(id, to: changed, for: fast).get()

      _ = try await driver.updateSession(id, to: read, for: slow).get()
      let stored = try await driver.readSession(
        id, for: Request(application: t.app, on: t.app.eventLoopGroup.next())
      ).get()
      #expect(stored?["notice"] == "kept")
    }
  }
}
