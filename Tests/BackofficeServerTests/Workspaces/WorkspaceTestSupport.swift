import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

extension TestClient {
  /// Creates an invitation on the members page (as an owner) and returns its link's path.
  func invite(role: WorkspaceRole, days: Int = 7) async throws -> String {
    try await get("/settings/members")
    let made = try await post(
      "/settings/invitations", form: [("role", role.rawValue), ("days", String(days))])
    #expect(made.status == .created, "invitation not made: \(made.status) \(made.body)")
    return try #require(made.firstMatch(#"(/join/[A-Za-z0-9_-]{43})"#))
  }

  /// Opens an invitation's link and joins (signed in already).
  @discardableResult
  func join(_ link: String) async throws -> TestResponse {
    try await get(link)
    return try await post(link)
  }
}

/// A workspace with an owner, an editor and a viewer, each with their own browser, all working
/// in the owner's workspace.
struct Team {
  let owner: TestClient
  let editor: TestClient
  let viewer: TestClient
  let ownerID: UUID
  let editorID: UUID
  let viewerID: UUID
  /// The owner's workspace, where all three work.
  let workspaceID: UUID

  static func make(_ t: TestApp) async throws -> Team {
    let owner = t.client()
    try await owner.signUp(email: "owner@example.com")
    let editor = t.client()
    try await editor.signUp(email: "editor@example.com")
    let viewer = t.client()
    try await viewer.signUp(email: "viewer@example.com")
    for (client, role) in [(editor, WorkspaceRole.editor), (viewer, .viewer)] {
      let link = try await owner.invite(role: role)
      let joined = try await client.join(link)
      #expect(joined.status == .seeOther, "join failed: \(joined.status) \(joined.body)")
      try await client.get("/")
    }
    func id(_ email: String) async throws -> UUID {
      try #require(try await Accounts.find(email: email, on: t.db)?.id)
    }
    let ownerID = try await id("owner@example.com")
    return Team(
      owner: owner, editor: editor, viewer: viewer, ownerID: ownerID,
      editorID: try await id("editor@example.com"), viewerID: try await id("viewer@example.com"),
      workspaceID: try #require(try await WorkspaceStore(db: t.db).own(of: ownerID)?.id))
  }
}
