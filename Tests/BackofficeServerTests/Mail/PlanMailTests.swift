import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Marketing plans: Send really sends")
struct PlanMailTests {
  typealias Pages = MarketingPlanPagesTests

  @Test func sendMailsTheSummaryToTheSavedRecipientWithAnswersToTheSender() async throws {
    try await withMailApp { t, server in
      try await t.makeAccount("planner@example.com")
      let client = t.client()
      #expect(try await client.signIn(email: "planner@example.com").status == .seeOther)
      let plan = Pages.Plan(client: client, id: try await client.newPlan())
      try await plan.toggle("Location")
      try await plan.choose("facebook_0", in: Pages.facebook)
      // Without a saved recipient there is nothing to send to.
      let early = try await client.postOn("\(plan.base)/review", "\(plan.base)/email/send")
      #expect(early.status == .seeOther)
      #expect(try await MailOutbox(db: t.db).all().isEmpty)

      try await client.postOn(
        "\(plan.base)/review", "\(plan.base)/email",
        form: [("recipient", "boss@example.com"), ("subject", "Plan für Q3")])
      let review = try await client.get("\(plan.base)/review")
      #expect(review.body.contains(#"id="mk-send-now""#))
      // The mail app link and the download stay as they were.
      #expect(review.body.contains(#"id="mk-mailto""#))
      #expect(review.body.contains(#"id="mk-download""#))
      let sent = try await client.post("\(plan.base)/email/send")
      #expect(sent.status == .seeOther)
      try await t.deliverMail()
      let mail = try #require(server.messages.first)
      #expect(mail.recipients == ["boss@example.com"])
      #expect(mail.subject == "Plan für Q3")
      #expect(mail.decoded.header("Reply-To")?.contains("planner@example.com") == true)
      #expect(mail.text.contains("Total Monthly Cost"))
      let after = try await client.get("\(plan.base)/review")
      #expect(after.body.contains("Sent from the server"))
      #expect(after.body.contains("boss@example.com"))
    }
  }

  @Test func withoutMailThereIsNoSendButtonAndTheRouteIsNotThere() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let plan = Pages.Plan(client: client, id: try await client.newPlan())
      try await plan.toggle("Location")
      try await plan.choose("facebook_0", in: Pages.facebook)
      let review = try await client.get("\(plan.base)/review")
      #expect(!review.body.contains(#"id="mk-send-now""#))
      #expect(try await client.post("\(plan.base)/email/send").status == .notFound)
    }
  }
}
