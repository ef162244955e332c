import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Invitations by mail")
struct InvitationMailTests {
  private func owner(_ t: TestApp) async throws -> TestClient {
    try await t.makeAccount("owner@example.com")
    let client = t.client()
    #expect(try await client.signIn(email: "owner@example.com").status == .seeOther)
    try await client.get("/settings/members")
    return client
  }

  @Test func theLinkGoesToTheAddressAndThePageSaysWhatBecameOfIt() async throws {
    try await withMailApp { t, server in
      let client = try await owner(t)
      let made = try await client.post(
        "/settings/invitations",
        form: [("role", "editor"), ("days", "7"), ("email", "Friend@Example.com")])
      #expect(made.status == .created)
      let shown = try #require(made.firstMatch(#"id="new-invitation">([^<]+)<"#))
      try await t.deliverMail()
      let mail = try #require(server.messages.first)
      #expect(mail.recipients == ["friend@example.com"])
      #expect(mail.subject.contains("owner@example.com"))
      #expect(mail.text.contains(shown))
      let page = try await client.get("/settings/members")
      #expect(page.body.contains("friend@example.com"))
      #expect(page.body.contains("sent"))
      // The link in the mail works like the copied one.
      let path = try #require(firstLink(in: mail.text, after: "/join/"))
      #expect(try await t.client().get(path).status == .ok)
    }
  }

  @Test func aRefusedMessageIsShownToTheOwnerNotLost() async throws {
    var refusing = SMTPTestServer.Configuration()
    refusing.faults = [.reply(to: "RCPT", code: 550, text: "5.1.1 mailbox unavailable")]
    try await withMailApp(refusing) { t, _ in
      let client = try await owner(t)
      try await client.post(
        "/settings/invitations",
        form: [("role", "viewer"), ("days", "7"), ("email", "x@example.com")])
      try await t.deliverMail()
      let page = try await client.get("/settings/members")
      #expect(page.body.contains("not sent"))
      #expect(page.body.contains("mailbox unavailable"))
    }
  }

  @Test func aBadAddressIsAnsweredByTheFieldAndNothingIsMade() async throws {
    try await withMailApp { t, _ in
      let client = try await owner(t)
      let before = try await InvitationTable.query(on: t.db).count()
      for bad in [
        "not an address", "a@b.c\r\nBcc: x@evil.example", String(repeating: "a", count: 10_000),
      ] {
        let answer = try await client.post(
          "/settings/invitations", form: [("role", "editor"), ("days", "7"), ("email", bad)])
        #expect(answer.status == .unprocessableEntity)
        #expect(answer.body.contains(#"id="invite-email""#))
      }
      #expect(try await InvitationTable.query(on: t.db).count() == before)
      #expect(try await MailOutbox(db: t.db).all().isEmpty)
    }
  }

  @Test func withoutMailTheFormHasNoAddressField() async throws {
    try await withApp { t in
      let client = try await owner(t)
      let page = try await client.get("/settings/members")
      #expect(!page.body.contains(#"id="invite-email""#))
    }
  }
}
