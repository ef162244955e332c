import BackofficeCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// Workspaces have ids of their own, a deleted one's id never comes back, and a write that was
/// on its way when its workspace went lands nowhere (on SQLite and PostgreSQL).
@Suite("Workspaces: ids and races")
struct WorkspaceRaceTests {
  /// The id of the workspace `userID` created.
  static func ownWorkspace(_ userID: UUID, _ t: TestApp) async throws -> UUID {
    try #require(try await WorkspaceStore(db: t.db).own(of: userID)?.id)
  }

  @Test func aNewAccountsWorkspaceHasAnIdOfItsOwn() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      for person in [team.ownerID, team.editorID, team.viewerID] {
        let workspace = try #require(try await WorkspaceStore(db: t.db).own(of: person))
        #expect(workspace.id != person)
        #expect(workspace.creatorID == person)
      }
      // The creator is still told apart (their role cannot be changed, they cannot leave).
      let members = try await WorkspaceMembers(
        db: t.db, workspaceID: try await Self.ownWorkspace(team.ownerID, t)
      ).list()
      #expect(members.filter(\.isCreator).map(\.userID) == [team.ownerID])
      let page = try await team.owner.get("/settings/members")
      #expect(page.body.contains("created the workspace"))
    }
  }

  @Test func aDeletedWorkspacesIdIsNeverUsedAgainAndALateWriteLandsNowhere() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let old = try await Self.ownWorkspace(team.ownerID, t)
      try await team.owner.addProduct(name: "Before", db: t.db)
      let name = try #require(try await WorkspaceTable.find(old, on: t.db)?.name)
      try await team.owner.get("/settings/members")
      let deleted = try await team.owner.post(
        "/settings/workspace/delete", form: [("confirm", name)])
      #expect(deleted.status == .seeOther)

      // A write that read its workspace before the deletion and writes after it: the database
      // refuses the row, whichever path writes it.
      let late = ProductStore(db: t.db, workspaceID: old, viewerID: team.editorID)
      await #expect(throws: (any Error).self) {
        _ = try await late.create(
          Product(name: "Late", type: "Race", price: 1, tax: 0), photo: nil)
      }
      do {
        _ = try await late.create(
          Product(name: "Late", type: "Race", price: 1, tax: 0), photo: nil)
      } catch {
        #expect(WorkspaceDeletion.isMissingParent(error), "\(error)")
      }

      // The creator works on in a new, empty workspace with a new id.
      #expect(try await team.owner.get("/products").productNames == [])
      let new = try await Self.ownWorkspace(team.ownerID, t)
      #expect(new != old)
      #expect(new != team.ownerID)
      #expect(try await ProductRecord.query(on: t.db).filter(\.$workspaceID == new).count() == 0)
      #expect(try await ProductRecord.query(on: t.db).filter(\.$name == "Late").count() == 0)
    }
  }

  /// The audit's scenario: an editor's token writes from four tasks while the owner sends
  /// "delete workspace" six times at once and an import runs. Every product acknowledged with
  /// 201 is either gone with its workspace or in that same workspace, still there; the
  /// creator's new workspace holds none of them; nothing answers 5xx.
  @Test(arguments: TestStore.allCases)
  func writersRacingADeletionNeverLandInAnotherWorkspace(_ store: TestStore) async throws {
    try await withApp(store: store) { t in
      let team = try await Team.make(t)
      let old = try await Self.ownWorkspace(team.ownerID, t)
      let token = try await team.editor.createToken()
      let name = try #require(try await WorkspaceTable.find(old, on: t.db)?.name)
      try await team.owner.get("/expenses/import")
      var csv = "date,title,category,amount\n"
      for row in 1...1500 { csv += ",Row \(row),Food,\(row)\n" }
      let upload = try await team.owner.uploadExpenses(csv)
      #expect(upload.status == .seeOther, "\(upload.status) \(upload.body)")
      try await team.owner.get("/settings/members")

      let editor = team.editor
      let owner = team.owner
      let written = ManagedCounter()
      let results = try await withThrowingTaskGroup(
        of: [(HTTPStatus, String?)].self, returning: [(HTTPStatus, String?)].self
      ) { group in
        for writer in 0..<4 {
          group.addTask {
            var seen: [(HTTPStatus, String?)] = []
            for index in 0..<15 {
              // Products (a store of their own) and ad payments (the model layer, whose
              // handlers once turned a refused row into 500).
              let response =
                writer.isMultiple(of: 2)
                ? try await editor.productAPI(
                  .POST, "/api/v1/products", token: token,
                  body:
                    #"{"name": "W\#(writer)-\#(index)", "type": "Race", "price": "1", "tax": "0"}"#
                )
                : try await editor.productAPI(
                  .POST, "/api/v1/ad-payments", token: token,
                  body:
                    #"{"name": "W\#(writer)-\#(index)", "url": "https://pay.example.com/\#(writer)/\#(index)"}"#
                )
              let id = try? response.json()["id"] as? String
              seen.append(
                (response.status, id.map { "\(writer.isMultiple(of: 2) ? "p" : "a"):\($0)" }))
              written.add()
            }
            return seen
          }
        }
        // The deletions start while the writers are under way.
        while written.value < 8 { try await Task.sleep(for: .milliseconds(5)) }
        for _ in 0..<6 {
          group.addTask {
            let answer = try await owner.post(
              "/settings/workspace/delete", form: [("confirm", name)])
            return [(answer.status, nil)]
          }
        }
        var all: [(HTTPStatus, String?)] = []
        for try await part in group { all += part }
        return all
      }
      try await t.app.importJobs.waitUntilIdle()

      #expect(results.allSatisfy { $0.0.code < 500 }, "\(results.map(\.0.code))")
      #expect(try await WorkspaceTable.find(old, on: t.db) == nil)
      let acknowledged = results.filter { $0.0 == .created }.compactMap(\.1)
      for tagged in acknowledged {
        let uuid = try #require(UUID(uuidString: String(tagged.dropFirst(2))))
        let workspace: UUID? =
          tagged.hasPrefix("p:")
          ? try await ProductRecord.find(uuid, on: t.db)?.workspaceID
          : try await AdPaymentTable.find(uuid, on: t.db)?.workspaceID
        // Gone with its workspace, or (if the workspace still stood) in that same workspace.
        if let workspace {
          #expect(workspace == old)
          #expect(try await WorkspaceTable.find(workspace, on: t.db) != nil)
        }
      }
      try await team.owner.get("/")
      let new = try await Self.ownWorkspace(team.ownerID, t)
      #expect(new != old)
      #expect(try await ProductRecord.query(on: t.db).filter(\.$workspaceID == new).count() == 0)
      #expect(try await ExpenseTable.query(on: t.db).filter(\.$workspaceID == new).count() == 0)
      #expect(try await AdPaymentTable.query(on: t.db).filter(\.$workspaceID == new).count() == 0)
      // No row was left behind anywhere without its workspace.
      guard let sql = t.db as? any SQLDatabase else { return }
      for table in M093_WorkspaceIDsOfTheirOwn.referencing {
        let orphans = try await sql.raw(
          """
          SELECT COUNT(*) AS n FROM \(ident: table)
          WHERE workspace_id NOT IN (SELECT id FROM workspaces)
          """
        ).first()?.decode(column: "n", as: Int.self)
        #expect(orphans == 0, "\(table): \(orphans ?? -1) rows without a workspace")
      }
    }
  }

  @Test func aFormFromAWorkspaceThePersonLostWritesNothingAndSaysWhy() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      try await team.editor.get("/products/new")
      try await team.owner.get("/settings/members")
      let removed = try await team.owner.post("/settings/members/\(team.editorID)/remove")
      #expect(removed.status == .seeOther)

      let response = try await team.editor.postProductForm(
        "/products",
        [.text("name", "Lost"), .text("type", "T"), .text("price", "1"), .text("tax", "0")])
      #expect(response.status == .conflict)
      #expect(response.body.contains("You are no longer a member of the workspace"))
      #expect(try await ProductRecord.query(on: t.db).filter(\.$name == "Lost").count() == 0)
      // The next form, from a page of the workspace they are in now, works.
      try await team.editor.addProduct(name: "Mine", db: t.db)
      let own = try await Self.ownWorkspace(team.editorID, t)
      #expect(
        try await ProductRecord.query(on: t.db).filter(\.$name == "Mine").first()?.workspaceID
          == own)
    }
  }

  /// Revoking a link while someone presses Join on it: exactly one of the two wins.
  @Test func aRevocationAndAJoinAtOnceNeverBothWin() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp(email: "revoker@example.com")
      for round in 0..<8 {
        let link = try await owner.invite(role: .editor)
        let invitation = try #require(
          try await InvitationTable.query(on: t.db).filter(\.$usedAt == nil)
            .filter(\.$revokedAt == nil).first()?.id)
        let person = t.client()
        try await person.signUp(email: "joiner\(round)@example.com")
        try await person.get(link)
        try await owner.get("/settings/members")
        async let joined = person.post(link)
        async let revoked = owner.post("/settings/invitations/\(invitation)/revoke")
        let (join, revoke) = try await (joined.status, revoked.status)
        #expect(!(join == .seeOther && revoke == .seeOther), "round \(round): both won")
        #expect(join == .seeOther || revoke == .seeOther, "round \(round): neither won")
        let found = try #require(try await InvitationTable.find(invitation, on: t.db))
        #expect(!(found.usedAt != nil && found.revokedAt != nil), "used and revoked")
      }
    }
  }

  /// A change must name the workspace of the page it came from: a token without it (a page
  /// from before, a hand-made request) is an expired form, never written wherever the browser
  /// is now.
  @Test func aChangeThatNamesNoWorkspaceIsAnExpiredForm() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/expenses/new")
      let token = try #require(client.csrf)
      let secret = String(try #require(token.split(separator: ".").first))
      #expect(secret != token)
      let bare = try await client.post(
        "/expenses", form: [("title", "Bare"), ("amount", "1"), ("category", "Food")],
        csrfToken: secret)
      #expect(bare.status == .forbidden)
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
      let named = try await client.post(
        "/expenses", form: [("title", "Named"), ("amount", "1"), ("category", "Food")])
      #expect(named.status == .seeOther)
      // Personal changes (signing out, one's own settings) need no workspace.
      #expect(try await client.post("/sign-out", csrfToken: secret).status == .seeOther)
    }
  }

  /// A copy of the deletion that arrives after the workspace went (a double tap, a second tab)
  /// is answered as the deletion was, and deletes nothing else.
  @Test(arguments: TestStore.allCases)
  func aLateCopyOfADeletionIsAnsweredAsTheDeletionWas(_ store: TestStore) async throws {
    try await withApp(store: store) { t in
      let team = try await Team.make(t)
      let name = try #require(try await WorkspaceTable.find(team.workspaceID, on: t.db)?.name)
      try await team.owner.get("/settings/members")
      let first = try await team.owner.post(
        "/settings/workspace/delete", form: [("confirm", name)])
      #expect(first.status == .seeOther)
      // The same page's form again: the browser now works in a new workspace of its own.
      let again = try await team.owner.post(
        "/settings/workspace/delete", form: [("confirm", name)])
      #expect(again.status == .seeOther)
      #expect(again.location == "/")
      #expect(try await team.owner.get("/").body.contains("was deleted with everything in it"))
      let own = try await Self.ownWorkspace(team.ownerID, t)
      #expect(own != team.workspaceID)
      #expect(try await WorkspaceTable.find(own, on: t.db) != nil)
    }
  }

  @Test func joiningThroughTwoLinksAtOnceMakesOneMembership() async throws {
    for attempt in 0..<3 {
      try await withApp { t in
        let owner = t.client()
        try await owner.signUp(email: "owner\(attempt)@example.com")
        let first = try await owner.invite(role: .editor)
        let second = try await owner.invite(role: .viewer)
        let person = t.client()
        try await person.signUp(email: "person\(attempt)@example.com")
        try await person.get(first)
        async let a = person.post(first)
        async let b = person.post(second)
        let answers = try await [a, b].map(\.status)
        #expect(answers.sorted { $0.code < $1.code } == [.seeOther, .conflict], "\(answers)")
        let personID = try #require(
          try await Accounts.find(email: "person\(attempt)@example.com", on: t.db)?.id)
        let ownerID = try #require(
          try await Accounts.find(email: "owner\(attempt)@example.com", on: t.db)?.id)
        let workspace = try await Self.ownWorkspace(ownerID, t)
        #expect(
          try await MembershipTable.query(on: t.db).filter(\.$workspaceID == workspace)
            .filter(\.$userID == personID).count() == 1)
        // The link that lost is not used up.
        let pending = try await WorkspaceMembers(db: t.db, workspaceID: workspace)
          .pendingInvitations(now: t.clock.now)
        #expect(pending.count == 1)
      }
    }
  }
}

/// A count several tasks add to.
final class ManagedCounter: Sendable {
  private let count = NIOLockedValueBox(0)
  var value: Int { count.withLockedValue { $0 } }
  func add() { count.withLockedValue { $0 += 1 } }
}
