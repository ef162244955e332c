import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// A page stays open while its browser moves to another workspace (the person was removed, or
/// switched in another tab): what that page sends later is refused, saying why, and writes
/// nothing anywhere — whatever the browser asked for in between.
@Suite("Workspaces: forms from a page of another workspace")
struct StaleWorkspaceFormTests {
  @Test func anEditOpenedBeforeRemovalIsRefusedAfterOtherRequests() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let id = try await team.owner.addProduct(name: "Rye loaf", db: t.db)
      let form = try await team.editor.get("/products/\(id.uuidString.lowercased())/edit")
      #expect(form.status == .ok)
      let staleToken = try #require(team.editor.csrf)
      let staleVersion = try #require(team.editor.version)

      try await team.owner.get("/settings/members")
      #expect(
        try await team.owner.post("/settings/members/\(team.editorID)/remove").status == .seeOther)
      // The browser does something else first: another tab, the catalog's background sync.
      #expect(try await team.editor.get("/products").status == .ok)
      #expect(try await team.editor.get("/api/v1/products").status == .ok)

      let saved = try await team.editor.postProductForm(
        "/products/\(id.uuidString.lowercased())",
        [
          .text("name", "Rye loaf (renamed)"), .text("type", "Bread"), .text("price", "3.40"),
          .text("tax", "0"), .text(CSRFMiddleware.fieldName, staleToken),
          .text(VersionField.name, staleVersion),
        ], csrf: false)
      #expect(saved.status == .conflict)
      #expect(saved.body.contains("You are no longer a member of the workspace"))
      #expect(!saved.body.contains("deleted since you opened it"))
      #expect(!saved.body.contains("add it again"))
      #expect(try await ProductRecord.find(id, on: t.db)?.name == "Rye loaf")

      // So is a new product from a form of that workspace: it lands nowhere.
      let added = try await team.editor.postProductForm(
        "/products",
        [
          .text("name", "Lost"), .text("type", "T"), .text("price", "1"), .text("tax", "0"),
          .text(CSRFMiddleware.fieldName, staleToken),
        ], csrf: false)
      #expect(added.status == .conflict)
      #expect(try await ProductRecord.query(on: t.db).filter(\.$name == "Lost").count() == 0)

      // The same through a script of the old page, and through the offline outbox.
      let api = try await team.editor.send(
        .POST, "/api/v1/products",
        headers: [
          "Content-Type": "application/json", "Accept": "application/json",
          "X-CSRF-Token": staleToken,
        ],
        body: #"{"name":"Queued","type":"T","price":"1","tax":"0"}"#)
      #expect(api.status == .conflict)
      #expect(api.body.contains("workspace_changed"))
      #expect(try await ProductRecord.query(on: t.db).filter(\.$name == "Queued").count() == 0)

      // A page of the workspace they are in now works as ever.
      try await team.editor.addProduct(name: "Mine", db: t.db)
    }
  }

  @Test func aFormFromBeforeASwitchInAnotherTabLandsNowhere() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      // The editor works in the team's workspace; their own is the other one.
      try await team.editor.get("/products/new")
      let staleToken = try #require(team.editor.csrf)
      let own = try #require(try await WorkspaceStore(db: t.db).own(of: team.editorID)?.id)
      let switched = try await team.editor.post(
        "/workspace/switch", form: [("workspace", own.uuidString)])
      #expect(switched.status == .seeOther)
      try await team.editor.get("/products")

      let added = try await team.editor.postProductForm(
        "/products",
        [
          .text("name", "Wrong shop"), .text("type", "T"), .text("price", "1"),
          .text("tax", "0"), .text(CSRFMiddleware.fieldName, staleToken),
        ], csrf: false)
      #expect(added.status == .conflict)
      #expect(added.body.contains("another workspace"))
      #expect(try await ProductRecord.query(on: t.db).filter(\.$name == "Wrong shop").count() == 0)
      // Signing out from an old page still works: it is no change to any workspace.
      let signOut = try await team.editor.post(
        "/sign-out", form: [(CSRFMiddleware.fieldName, staleToken)], csrf: false)
      #expect(signOut.status == .seeOther)
    }
  }
}
