import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Workspaces: members, roles, invitations, activity", .serialized)
struct WorkspaceTests {
  /// Every registered route, for each role: what the role allows is never refused with 403,
  /// what it does not allow always is (pages and API alike), whatever the handler would do.
  @Test func everyRouteGivesEachRoleExactlyItsRights() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      var ids: [String: String] = [:]
      for (name, make) in IsolationFixtures.makers.sorted(by: { $0.key < $1.key }) {
        try await team.owner.get("/")
        ids[name] = try await make(t, team.owner)
      }
      // Routes that would end the walk itself: leaving the workspace (tested on its own).
      let walked = Routes.all.filter {
        $0.access != nil && $0.template != Routes.workspaceLeave.template
      }
      #expect(walked.count > 100)
      // The viewer first (it changes nothing), the owner last.
      for (client, role) in [
        (team.viewer, WorkspaceRole.viewer), (team.editor, .editor), (team.owner, .owner),
      ] {
        for route in walked {
          guard let access = route.access else { continue }
          try await client.get("/")
          let href = route.href(ids)
          let response: TestResponse
          switch route.method {
          case .GET:
            response = try await client.get(href)
          case .POST where !route.template.hasPrefix("/api/"):
            response = try await client.post(href, form: [("name", "x")])
          default:
            response = try await client.send(
              route.method, href,
              headers: ["X-CSRF-Token": client.csrf ?? "", "Content-Type": "application/json"],
              body: "{}")
          }
          if role.allows(access) {
            #expect(response.status != .forbidden, "\(route) as \(role): \(response.status)")
          } else {
            #expect(response.status == .forbidden, "\(route) as \(role): \(response.status)")
          }
        }
      }
    }
  }

  @Test func theViewerSeesNoWayToChangeAnything() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      try await team.owner.addProduct(name: "Shared lamp", db: t.db)
      try await team.owner.addExpense(title: "Shared tea", amount: "3", db: t.db)
      let products = try await team.viewer.get("/products")
      #expect(products.body.contains("Shared lamp"))
      #expect(!products.body.contains(#"href="/products/new""#))
      #expect(
        products.firstMatch(#"(<a href="/products/[^"]*/edit)"#) == nil,
        "cards are not links to forms")
      #expect(products.body.contains(#"href="/products/export.csv""#), "reading is theirs")
      let expenses = try await team.viewer.get("/expenses")
      #expect(expenses.body.contains("Shared tea"))
      #expect(!expenses.body.contains(#"href="/expenses/new"#))
      #expect(!expenses.body.contains("/delete\""))
      // The editor does see them.
      let editorPage = try await team.editor.get("/products")
      #expect(editorPage.body.contains(#"href="/products/new""#))
      // The header names the workspace on every page.
      #expect(products.body.contains(#"class="workspace-name""#))
      #expect(products.body.contains(">owner<"))
      // Forms are refused, and a write through the API says why.
      #expect(try await team.viewer.get("/products/new").status == .forbidden)
      let token = try await team.viewer.createToken()
      let write = try await team.viewer.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Nope"))
      #expect(write.status == .forbidden)
      #expect(write.productErrorCode == "forbidden")
      #expect(try write.json()["error"].map { "\($0)" }?.contains("Viewer") == true)
      let read = try await team.viewer.productAPI(.GET, "/api/v1/products", token: token)
      #expect(read.status == .ok)
      #expect(try read.json()["total"] as? Int == 1)
    }
  }

  /// Members share the records; favourites stay each person's, also through the read cache.
  @Test func membersShareRecordsButNotFavourites() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let id = try await team.editor.addProduct(name: "Editor's kettle", db: t.db)
      let ownerView = try await team.owner.get("/products")
      #expect(ownerView.productNames == ["Editor's kettle"])
      let record = try #require(try await ProductRecord.find(id, on: t.db))
      #expect(record.workspaceID == team.workspaceID)
      let editorToken = try await team.editor.createToken()
      let ownerToken = try await team.owner.createToken()
      try await team.editor.productAPI(.PUT, "/api/v1/favorites/\(id)", token: editorToken)
      let editorList = try await team.editor.productAPI(
        .GET, "/api/v1/products", token: editorToken)
      let ownerList = try await team.owner.productAPI(.GET, "/api/v1/products", token: ownerToken)
      #expect(
        (try editorList.json()["items"] as? [[String: Any]])?.first?["favorite"] as? Bool == true)
      #expect(
        (try ownerList.json()["items"] as? [[String: Any]])?.first?["favorite"] as? Bool == false)
      // Asked again (from the cache now), still each their own.
      let again = try await team.owner.productAPI(.GET, "/api/v1/products", token: ownerToken)
      #expect((try again.json()["items"] as? [[String: Any]])?.first?["favorite"] as? Bool == false)
      // A change's answer carries the mark of the person who made it, not the creator's.
      for (client, token, starred) in [
        (team.editor, editorToken, true), (team.owner, ownerToken, false),
      ] {
        let changed = try await client.productAPI(
          .PUT, "/api/v1/products/\(id)", token: token,
          body: productJSON(name: "Editor's kettle", type: "Product", price: "11.00", tax: "18"))
        #expect(changed.status == .ok, "\(changed.body)")
        #expect(try changed.json()["favorite"] as? Bool == starred)
      }
      // The editor's own workspace stays empty and theirs.
      let workspaces = try await WorkspaceStore(db: t.db).workspaces(of: team.editorID)
      #expect(workspaces.map(\.role) == [.owner, .editor])
    }
  }

  /// Two members save one product from forms opened at the same version: the later save is
  /// refused with both values, never a silent overwrite.
  @Test func twoMembersEditingOneRecordMeetAConflict() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let id = try await team.owner.addProduct(name: "Chair", db: t.db)
      let edit = "/products/\(id.uuidString)/edit"
      try await team.owner.get(edit)
      try await team.editor.get(edit)
      let first = try await team.owner.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "Chair (owner)"), .text("type", "Product"), .text("price", "10.00"),
          .text("tax", "18"),
        ])
      #expect(first.status == .seeOther)
      let second = try await team.editor.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "Chair (editor)"), .text("type", "Product"), .text("price", "10.00"),
          .text("tax", "18"),
        ])
      #expect(second.status == .conflict)
      #expect(second.body.contains("Saved now:</span> <strong>Chair (owner)</strong>"))
      #expect(try await ProductRecord.find(id, on: t.db)?.name == "Chair (owner)")
    }
  }

  @Test func removingAMemberEndsTheirAccessAtOnce() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      try await team.owner.addProduct(name: "Owner's secret", db: t.db)
      let token = try await team.editor.createToken()
      #expect(
        try await team.editor.productAPI(.GET, "/api/v1/products", token: token).status == .ok)
      #expect(try await team.editor.get("/products").body.contains("Owner's secret"))

      try await team.owner.get("/settings/members")
      let removed = try await team.owner.post(
        "/settings/members/\(team.editorID.uuidString)/remove")
      #expect(removed.status == .seeOther)

      // The browser's next request works in the editor's own workspace, the token is refused.
      let page = try await team.editor.get("/products")
      #expect(page.status == .ok)
      #expect(!page.body.contains("Owner's secret"))
      let api = try await team.editor.productAPI(.GET, "/api/v1/products", token: token)
      #expect(api.status == .unauthorized)
      #expect(
        try await APITokenTable.query(on: t.db).filter(\.$userID == team.editorID).count() == 0)
      let members = try await MembershipTable.query(on: t.db)
        .filter(\.$workspaceID == team.workspaceID).all().map(\.userID)
      #expect(Set(members) == [team.ownerID, team.viewerID])
    }
  }

  @Test func theCreatorStaysOwnerAndAWorkspaceAlwaysHasOne() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      try await team.owner.get("/settings/members")
      let demote = try await team.owner.post(
        "/settings/members/\(team.ownerID.uuidString)/role", form: [("role", "viewer")])
      #expect(demote.status == .conflict)
      #expect(demote.body.contains("The person who created the workspace stays its owner."))
      let remove = try await team.owner.post(
        "/settings/members/\(team.ownerID.uuidString)/remove")
      #expect(remove.status == .conflict)
      // Another owner cannot remove the creator either; the creator can make them owner.
      let promote = try await team.owner.post(
        "/settings/members/\(team.editorID.uuidString)/role", form: [("role", "owner")])
      #expect(promote.status == .seeOther)
      try await team.editor.get("/settings/members")
      let coup = try await team.editor.post(
        "/settings/members/\(team.ownerID.uuidString)/remove")
      #expect(coup.status == .conflict)
      // A member leaves; the creator cannot.
      try await team.viewer.get("/settings/members")
      let left = try await team.viewer.post("/settings/members/leave")
      #expect(left.status == .seeOther)
      #expect(!(try await team.viewer.get("/").body.contains(">owner<")))
      try await team.owner.get("/settings/members")
      #expect(try await team.owner.post("/settings/members/leave").status == .conflict)
      // The rules themselves, for any member list.
      let a = UUID()
      let b = UUID()
      #expect(
        MembershipRules.changeRole(
          of: b, to: .viewer,
          members: [.init(userID: a, role: .editor), .init(userID: b, role: .owner)], creator: a)
          == .lastOwner)
      #expect(MembershipRules.remove(UUID(), members: [], creator: a) == .notAMember)
    }
  }

  /// A link works only while the person who made it is an owner there: demoting or removing
  /// them revokes their unused links, and a link whose maker is no longer an owner is refused
  /// however that came about.
  @Test func anOwnersLinksStopWhenTheyStopBeingOwner() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      func setRole(_ member: UUID, _ role: WorkspaceRole) async throws {
        try await team.owner.get("/settings/members")
        let changed = try await team.owner.post(
          "/settings/members/\(member.uuidString)/role", form: [("role", role.rawValue)])
        #expect(changed.status == .seeOther)
      }
      func pending(by member: UUID) async throws -> Int {
        try await InvitationTable.query(on: t.db)
          .filter(\.$createdBy == member).filter(\.$revokedAt == nil).count()
      }
      let stranger = t.client()
      try await stranger.signUp(email: "stranger@example.com")

      // Demoted: the links they made go.
      try await setRole(team.editorID, .owner)
      let asOwner = try await team.editor.invite(role: .owner)
      _ = try await team.editor.invite(role: .editor)
      #expect(try await pending(by: team.editorID) == 2)
      try await setRole(team.editorID, .editor)
      #expect(try await pending(by: team.editorID) == 0)
      #expect(try await stranger.join(asOwner).status == .notFound)

      // Removed: the link they kept does not bring them (or anyone) back.
      try await setRole(team.editorID, .owner)
      let kept = try await team.editor.invite(role: .owner)
      try await team.owner.get("/settings/members")
      let removed = try await team.owner.post(
        "/settings/members/\(team.editorID.uuidString)/remove")
      #expect(removed.status == .seeOther)
      #expect(try await team.editor.join(kept).status == .notFound)
      #expect(try await stranger.join(kept).status == .notFound)

      // A maker who is no longer an owner, whatever the path: the link is refused at the door.
      try await setRole(team.viewerID, .owner)
      let viewersLink = try await team.viewer.invite(role: .editor)
      try await MembershipTable.query(on: t.db)
        .filter(\.$workspaceID == team.workspaceID).filter(\.$userID == team.viewerID)
        .set(\.$role, to: WorkspaceRole.viewer.rawValue).update()
      #expect(try await pending(by: team.viewerID) == 1)
      #expect(try await stranger.join(viewersLink).status == .notFound)
      let members = try await MembershipTable.query(on: t.db)
        .filter(\.$workspaceID == team.workspaceID).all().map(\.userID)
      #expect(Set(members) == [team.ownerID, team.viewerID])
    }
  }

  /// An owner deletes the workspace once its name is typed: every record goes, for every
  /// member; a mistyped name deletes nothing; the creator starts again in an empty one of
  /// their own, and a device's copy of the catalog learns every product is gone.
  @Test func anOwnerDeletesTheWorkspaceWithEverythingInIt() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let lamp = try await team.owner.addProduct(name: "Owner's lamp", db: t.db)
      try await team.editor.addExpense(title: "Shared tea", amount: "3", db: t.db)
      let editorToken = try await team.editor.createToken()
      try await team.editor.productAPI(.PUT, "/api/v1/favorites/\(lamp)", token: editorToken)
      _ = try await team.owner.invite(role: .viewer)
      // Read (and cached) before.
      #expect(try await team.owner.get("/products").productNames == ["Owner's lamp"])
      let cursor = try await team.owner.feed(token: try await team.owner.createToken()).cursor

      // Only owners; a mistyped name deletes nothing and says so by the field.
      try await team.editor.get("/settings/members")
      let refused = try await team.editor.post(
        "/settings/workspace/delete", form: [("confirm", "owner@example.com")])
      #expect(refused.status == .forbidden)
      let page = try await team.owner.get("/settings/members")
      #expect(page.body.contains("Delete this workspace"))
      let name = try #require(try await WorkspaceTable.find(team.workspaceID, on: t.db)?.name)
      let mistyped = try await team.owner.post(
        "/settings/workspace/delete", form: [("confirm", name.uppercased() + "x")])
      #expect(mistyped.status == .unprocessableEntity)
      #expect(mistyped.body.contains("Nothing was deleted."))
      #expect(mistyped.body.contains(#"aria-invalid="true""#))
      #expect(try await ProductRecord.query(on: t.db).count() == 1)

      // Sent several times at once (a double tap, two tabs): each is answered, one deletes.
      let path = "/settings/workspace/delete"
      async let first = team.owner.post(path, form: [("confirm", name)])
      async let second = team.owner.post(path, form: [("confirm", name)])
      async let third = team.owner.post(path, form: [("confirm", name)])
      let answers = try await [first, second, third]
      #expect(answers.map(\.status) == [.seeOther, .seeOther, .seeOther])
      #expect(answers.map(\.location) == ["/", "/", "/"])
      #expect(try await team.owner.get("/").body.contains("was deleted with everything in it"))

      guard let sql = t.db as? any SQLDatabase else { return }
      for table in WorkspaceDeletion.tables where table != "memberships" {
        let left = try await sql.raw(
          "SELECT COUNT(*) AS n FROM \(ident: table) WHERE workspace_id = \(bind: team.workspaceID)"
        ).first()?.decode(column: "n", as: Int.self)
        #expect(left == 0, "\(table) keeps \(left ?? -1) rows")
      }
      // The creator works on, in a new empty workspace of their own with a new id; the
      // others are in theirs, their token for it refused.
      #expect(
        try await MembershipTable.query(on: t.db).filter(\.$workspaceID == team.workspaceID).count()
          == 0)
      #expect(try await team.owner.get("/products").productNames == [])
      let new = try #require(try await WorkspaceStore(db: t.db).own(of: team.ownerID)?.id)
      #expect(new != team.workspaceID)
      #expect(try await ProductStore(db: t.db, workspaceID: new, viewerID: nil).count() == 0)
      #expect(!(try await team.editor.get("/expenses").body.contains("Shared tea")))
      #expect(
        try await team.editor.productAPI(.GET, "/api/v1/products", token: editorToken).status
          == .unauthorized)
      // A device that had the old catalog works in the new workspace under a new offline
      // key, so its old copy is dropped; the new workspace's feed starts empty.
      let after = try await team.owner.feed(token: try await team.owner.createToken())
      #expect(after.changes.isEmpty)
      _ = (lamp, cursor)
    }
  }

  @Test func anInvitationJoinsOnePersonOnceBeforeItExpires() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp(email: "owner@example.com")
      let link = try await owner.invite(role: .viewer, days: 1)

      // A stranger signs up through the link and lands on the offer.
      let stranger = t.client()
      let offer = try await stranger.get(link)
      #expect(offer.body.contains("You are invited as Viewer."))
      #expect(
        offer.body.contains("/sign-up?next=%2Fjoin%2F")
          || offer.body.contains("/sign-up?next=/join/"))
      try await stranger.get("/sign-up?next=\(link)")
      let made = try await stranger.post(
        "/sign-up?next=\(link)",
        form: [("email", "new@example.com"), ("password", "correct horse battery")])
      #expect(made.location == link)
      let joined = try await stranger.join(link)
      #expect(joined.status == .seeOther)
      #expect(try await stranger.get("/").body.contains("You joined"))

      // Used up: a second person gets the same "cannot be used" as for any bad link.
      let late = t.client()
      try await late.signUp()
      #expect(try await late.join(link).status == .notFound)
      #expect(try await late.get("/join/" + String(repeating: "x", count: 43)).status == .notFound)
      #expect(try await late.get("/join/short").status == .notFound)

      // Expired and revoked links.
      let expiring = try await owner.invite(role: .editor, days: 1)
      t.clock.advance(by: 24 * 60 * 60 + 1)
      #expect(try await late.join(expiring).status == .notFound)
      let revoked = try await owner.invite(role: .editor, days: 7)
      let invitation = try #require(
        try await InvitationTable.query(on: t.db).sort(\.$createdAt, .descending).first())
      try await owner.get("/settings/members")
      let revoke = try await owner.post(
        "/settings/invitations/\(try invitation.requireID().uuidString)/revoke")
      #expect(revoke.status == .seeOther)
      #expect(try await late.join(revoked).status == .notFound)

      // Two people with one link at the same moment: one joins.
      let race = try await owner.invite(role: .editor)
      let first = t.client()
      try await first.signUp()
      let second = t.client()
      try await second.signUp()
      try await first.get(race)
      try await second.get(race)
      async let a = first.post(race)
      async let b = second.post(race)
      let statuses = try await [a.status, b.status].sorted { $0.code < $1.code }
      #expect(statuses == [.seeOther, .notFound])
      let editors = try await MembershipTable.query(on: t.db)
        .filter(\.$role == "editor").count()
      #expect(editors == 1)

    }
  }

  @Test func anInvitationOpensSignUpWhenItIsClosed() async throws {
    let closed: (inout AppConfig) -> Void = { $0.signupOpen = false }
    try await withApp(config: closed) { t in
      let admin = User(
        email: "owner@example.com", passwordHash: try Bcrypt.hash("correct horse battery"),
        locale: "en-US", currency: "USD")
      _ = try await Accounts.create(admin, on: t.db)
      let owner = t.client()
      _ = try await owner.signIn(email: "owner@example.com")
      let link = try await owner.invite(role: .editor)
      let stranger = t.client()
      #expect(try await stranger.get("/sign-up").body.contains("closed") == true)
      let form = try await stranger.get("/sign-up?next=\(link)")
      #expect(form.body.contains(#"name="password""#))
      let made = try await stranger.post(
        "/sign-up?next=\(link)",
        form: [("email", "invited@example.com"), ("password", "correct horse battery")])
      #expect(made.status == .seeOther)
      let refused = t.client()
      try await refused.get("/sign-up")
      let nope = try await refused.post(
        "/sign-up",
        form: [("email", "stranger@example.com"), ("password", "correct horse battery")])
      #expect(nope.status == .forbidden)
    }
  }

  @Test func theActivityLogSaysWhoDidWhat() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let id = try await team.editor.addProduct(name: "Logged lamp", db: t.db)
      try await team.editor.get("/products/\(id.uuidString)/edit")
      try await team.editor.post("/products/\(id.uuidString)/delete")
      t.clock.advance(by: 60)
      try await team.owner.addExpense(title: "Logged tea", amount: "2", db: t.db)
      let page = try await team.viewer.get("/settings/activity")
      #expect(page.status == .ok)
      #expect(page.body.contains("editor@example.com added the product “Logged lamp”."))
      #expect(page.body.contains("editor@example.com deleted the product “Logged lamp”."))
      #expect(page.body.contains("owner@example.com added the expense “Logged tea”."))
      #expect(page.body.contains("viewer@example.com joined the workspace as Viewer."))
      // A refused write logs nothing.
      try await team.viewer.get("/products")
      _ = try await team.viewer.post("/products/\(id.uuidString)/delete")
      let token = try await team.owner.createToken()
      let api = try await team.owner.productAPI(.GET, "/api/v1/activity?per_page=100", token: token)
      #expect(api.status == .ok)
      let lines = try #require(try api.json()["items"] as? [[String: Any]])
      #expect(lines.first?["action"] as? String == "created")
      #expect(lines.first?["area"] as? String == "expense")
      #expect(lines.filter { ($0["actor"] as? String) == "viewer@example.com" }.count == 1)
      // Lines older than the retention go as new ones come.
      let sql = try t.db.sql()
      try await sql.raw("UPDATE activity SET created_at = \(bind: Date(timeIntervalSince1970: 0))")
        .run()
      try await team.owner.addExpense(title: "Fresh", amount: "1", db: t.db)
      #expect(try await ActivityTable.query(on: t.db).count() == 1)
    }
  }

  @Test func theHeaderSwitchesBetweenAPersonsWorkspaces() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      try await team.owner.addProduct(name: "In the shop", db: t.db)
      let home = try await team.editor.get("/products")
      #expect(home.body.contains("In the shop"))
      // The editor's own workspace, the one they created at sign-up, is offered to switch to.
      let editors = try await t.workspaceID(ofUser: team.editorID).uuidString.lowercased()
      #expect(home.body.contains(#"name="workspace" value="\#(editors)""#))
      // The menu is looked up for pages only, not for what a page loads (pictures, polling).
      let asPicture = try await team.editor.get(
        "/products", headers: ["Accept": "image/avif,image/webp,*/*"])
      #expect(asPicture.body.contains("In the shop"))
      #expect(!asPicture.body.contains(#"name="workspace" value=""#))
      let switched = try await team.editor.post(
        "/workspace/switch",
        form: [("workspace", editors), ("back", "/products")])
      #expect(switched.location == "/products")
      let own = try await team.editor.get("/products")
      #expect(!own.body.contains("In the shop"))
      // A workspace the person is not in cannot be switched to.
      let stranger = t.client()
      try await stranger.signUp()
      let refused = try await stranger.post(
        "/workspace/switch", form: [("workspace", team.workspaceID.uuidString)])
      #expect(refused.status == .notFound)
    }
  }

  @Test func theWorkspaceAPI() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let token = try await team.owner.createToken()
      let workspace = try await team.owner.productAPI(.GET, "/api/v1/workspace", token: token)
      #expect(try workspace.json()["role"] as? String == "owner")
      #expect(try workspace.json()["member_count"] as? Int == 3)
      let members = try await team.owner.productAPI(
        .GET, "/api/v1/workspace/members", token: token)
      let items = try #require(try members.json()["items"] as? [[String: Any]])
      #expect(Set(items.compactMap { $0["email"] as? String }).count == 3)
      let set = try await team.owner.productAPI(
        .POST, "/api/v1/workspace/members", token: token,
        body: #"{"user_id": "\#(team.viewerID.uuidString)", "role": "editor"}"#)
      #expect(set.status == .ok)
      #expect(try set.json()["role"] as? String == "editor")
      let bad = try await team.owner.productAPI(
        .POST, "/api/v1/workspace/members", token: token, body: #"{"user_id": "x", "role": "boss"}"#
      )
      #expect(bad.status == .unprocessableEntity)
      #expect(Set(bad.productErrorFields.keys) == ["user_id", "role"])
      let creator = try await team.owner.productAPI(
        .DELETE, "/api/v1/workspace/members/\(team.ownerID.uuidString)", token: token)
      #expect(creator.status == .conflict)
      let invite = try await team.owner.productAPI(
        .POST, "/api/v1/workspace/invitations", token: token,
        body: #"{"role": "viewer", "days": 30}"#)
      #expect(invite.status == .created)
      #expect((try invite.json()["url"] as? String)?.contains("/join/") == true)
      let removed = try await team.owner.productAPI(
        .DELETE, "/api/v1/workspace/members/\(team.viewerID.uuidString)", token: token)
      #expect(removed.status == .noContent)
      let gone = try await team.owner.productAPI(
        .DELETE, "/api/v1/workspace/members/\(team.viewerID.uuidString)", token: token)
      #expect(gone.status == .notFound)
      // An editor's token cannot manage members.
      let editorToken = try await team.editor.createToken()
      let denied = try await team.editor.productAPI(
        .POST, "/api/v1/workspace/invitations", token: editorToken, body: #"{"role": "owner"}"#)
      #expect(denied.status == .forbidden)
    }
  }
}
