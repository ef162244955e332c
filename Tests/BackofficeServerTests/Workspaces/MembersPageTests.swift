import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// The members page as an owner meets it: what it shows right after a change, and a name of
/// its own for every control.
@Suite("Workspaces: the members page")
struct MembersPageTests {
  @Test func theLinkJustMadeIsListedAsWaitingAndCanBeRevoked() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp(email: "owner@example.com")
      try await owner.get("/settings/members")
      let made = try await owner.post(
        "/settings/invitations", form: [("role", "editor"), ("days", "7")])
      #expect(made.status == .created)
      #expect(made.body.contains(#"id="new-invitation""#))
      let invitation = try #require(try await InvitationTable.query(on: t.db).first()?.id)
      #expect(!made.body.contains("No invitations waiting."))
      #expect(made.body.contains(#"action="\#(Routes.invitationRevoke.href(id: invitation))""#))
      #expect(made.body.contains("created by owner@example.com"))
    }
  }

  @Test func everyControlHasALabelOfItsOwn() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let page = try await team.owner.get("/settings/members")
      #expect(page.status == .ok)
      let html = page.body
      let ids = try Self.all(#" id="([^"]+)""#, in: html)
      let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys
      #expect(repeated.sorted() == [], "ids used more than once")
      let labelled = try Self.all(#"<label for="([^"]+)""#, in: html)
      #expect(
        Dictionary(grouping: labelled, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
          == [], "two labels for one control")
      let controls =
        try Self.all(#"<select id="([^"]+)""#, in: html)
        + Self.all(#"<input id="([^"]+)""#, in: html)
      // Two role pickers (editor and viewer), the invitation's role and lifetime, the name
      // and the confirmation of deleting.
      #expect(controls.count == 6, "\(controls)")
      for control in controls {
        #expect(labelled.contains(control), "\(control) has no label")
      }
      for name in ["editor@example.com", "viewer@example.com"] {
        let label = try #require(
          page.firstMatch(#"<label for="([^"]+)">Role of \#(name)</label>"#))
        #expect(html.contains(#"<select id="\#(label)" name="role""#))
      }
      let invitationRole = try #require(page.firstMatch(#"<label for="([^"]+)">Role</label>"#))
      #expect(html.contains(#"<select id="\#(invitationRole)" name="role""#))
    }
  }

  static func all(_ pattern: String, in text: String) throws -> [String] {
    let regex = try NSRegularExpression(pattern: pattern)
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
      Range($0.range(at: 1), in: text).map { String(text[$0]) }
    }
  }
}
