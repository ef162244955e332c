import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Sign-up confirms the address when mail is on")
struct SignUpConfirmationTests {
  @Test func aTakenAddressIsAnsweredExactlyAsANewOne() async throws {
    try await withMailApp { t, server in
      try await t.makeAccount("owner@example.com")
      let client = t.client()
      try await client.get("/sign-up")
      let taken = try await client.post(
        "/sign-up", form: [("email", "owner@example.com"), ("password", "some password 1")])
      let fresh = try await client.post(
        "/sign-up", form: [("email", "newbie@example.com"), ("password", "some password 1")])
      #expect(taken.status == .ok && fresh.status == .ok)
      func masked(_ body: String, _ email: String) -> String {
        body.replacingOccurrences(of: email, with: "X")
          .replacingOccurrences(
            of: #"value="[A-Za-z0-9_\-]{20,}""#, with: "", options: .regularExpression
          )
          .replacingOccurrences(
            of: #"content="[A-Za-z0-9_\-]{20,}""#, with: "", options: .regularExpression)
      }
      #expect(masked(taken.body, "owner@example.com") == masked(fresh.body, "newbie@example.com"))
      // No account yet for the new address.
      #expect(
        try await Accounts.all(on: t.db).filter { $0.email == "newbie@example.com" }.count == 0)

      try await t.deliverMail()
      let byRecipient = Dictionary(
        grouping: server.messages, by: { $0.recipients.first ?? "" })
      let attempt = try #require(byRecipient["owner@example.com"]?.first)
      #expect(attempt.subject == "Someone tried to sign up with your address")
      #expect(attempt.text.contains("https://bo.example.org/forgot-password"))
      #expect(!attempt.text.contains("/sign-up/confirm/"))
      let confirmation = try #require(byRecipient["newbie@example.com"]?.first)
      let link = try #require(firstLink(in: confirmation.text, after: "/sign-up/confirm/"))

      // Opening the link (as a mail scanner would) makes nothing; the button does.
      let stranger = t.client()
      #expect(try await stranger.get(link).status == .ok)
      #expect(
        try await Accounts.all(on: t.db).filter { $0.email == "newbie@example.com" }.count == 0)
      let done = try await stranger.post(link)
      #expect(done.status == .seeOther)
      #expect(try await stranger.get("/settings").status == .ok)
      #expect(
        try await Accounts.all(on: t.db).filter { $0.email == "newbie@example.com" }.count == 1)
      // Once only.
      #expect(try await t.client().get(link).status == .notFound)
      #expect(
        try await t.client().signIn(email: "newbie@example.com", password: "some password 1")
          .status == .seeOther)
    }
  }

  @Test func twoLinksForOneAddressMakeOneAccount() async throws {
    try await withMailApp { t, server in
      let client = t.client()
      try await client.get("/sign-up")
      for _ in 0..<2 {
        #expect(
          try await client.post(
            "/sign-up", form: [("email", "twice@example.com"), ("password", "some password 1")]
          ).status == .ok)
      }
      try await t.deliverMail()
      let links = server.messages.compactMap { firstLink(in: $0.text, after: "/sign-up/confirm/") }
      #expect(links.count == 2)
      let first = t.client()
      try await first.get(links[0])
      let second = t.client()
      try await second.get(links[1])
      #expect(try await first.post(links[0]).status == .seeOther)
      // The other link was spent with the first.
      #expect(try await second.post(links[1]).status == .notFound)
      #expect(
        try await Accounts.all(on: t.db).filter { $0.email == "twice@example.com" }.count == 1)
    }
  }

  @Test func linksExpireAfterADayAndMailToOneAddressIsLimited() async throws {
    let config: (inout AppConfig) -> Void = { $0.signupsPerHour = 100 }
    try await withMailApp(config: config) { t, server in
      let client = t.client()
      try await client.get("/sign-up")
      for _ in 0..<(PendingSignups.mailsPerAddress + 2) {
        #expect(
          try await client.post(
            "/sign-up", form: [("email", "late@example.com"), ("password", "some password 1")]
          ).status == .ok)
      }
      try await t.deliverMail()
      #expect(server.messages.count == PendingSignups.mailsPerAddress)
      let link = try #require(
        server.messages.compactMap { firstLink(in: $0.text, after: "/sign-up/confirm/") }.first)
      t.clock.advance(by: 24 * 60 * 60 + 1)
      #expect(try await client.get(link).status == .notFound)
      #expect(try await client.post(link).status == .notFound)
      #expect(try await Accounts.all(on: t.db).filter { $0.email == "late@example.com" }.count == 0)
    }
  }
}
