import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// M092: accounts with data in every area move into workspaces of their own with nothing lost,
/// on SQLite and PostgreSQL (the suite runs on both).
@Suite("Workspaces: the migration", .serialized)
struct WorkspaceMigrationTests {
  /// Every area's records as the API lists them, for comparing before and after.
  private func everything(_ client: TestClient, token: String) async throws -> [String: String] {
    var seen: [String: String] = [:]
    for path in [
      "/api/v1/products?per_page=100", "/api/v1/favorites", "/api/v1/expenses?per_page=100",
      "/api/v1/ad-payments?per_page=100", "/api/v1/marketing/plans", "/api/v1/fundraisers",
      "/api/v1/product-types", "/api/v1/product-changes",
    ] {
      let response = try await client.productAPI(.GET, path, token: token)
      #expect(response.status == .ok, "\(path): \(response.body)")
      seen[path] = response.body
    }
    return seen
  }

  @discardableResult
  private func create(_ client: TestClient, token: String, _ path: String, _ body: String)
    async throws -> String
  {
    let response = try await client.productAPI(.POST, path, token: token, body: body)
    #expect(response.status == .created, "\(path): \(response.body)")
    return try #require(try response.json()["id"] as? String)
  }

  @Test(arguments: TestStore.allCases)
  func everyAreaMovesIntoItsAccountsWorkspaceWithNothingLost(_ store: TestStore) async throws {
    try await withApp(store: store) { t in
      var tokens: [String] = []
      var clients: [TestClient] = []
      for (index, email) in ["first@example.com", "second@example.com"].enumerated() {
        let client = t.client()
        try await client.signUp(email: email)
        let token = try await client.createToken()
        let photo = "data:image/png;base64," + ProductImages.png().base64EncodedString()
        let product = try await create(
          client, token: token, "/api/v1/products",
          #"{"name": "Lamp \#(index)", "type": "Light", "price": "12.50", "tax": "20", "photo": "\#(photo)"}"#
        )
        try await create(
          client, token: token, "/api/v1/products",
          #"{"name": "Chair \#(index)", "type": "Seat", "price": "40", "tax": "20"}"#)
        try await client.productAPI(.PUT, "/api/v1/favorites/\(product)", token: token)
        try await create(
          client, token: token, "/api/v1/expenses",
          #"{"title": "Tea \#(index)", "amount": "3.20", "category": "food"}"#)
        try await create(
          client, token: token, "/api/v1/ad-payments",
          #"{"name": "Ads \#(index)", "url": "https://pay.example.com/\#(index)"}"#)
        try await create(
          client, token: token, "/api/v1/marketing/plans", #"{"name": "Plan \#(index)"}"#)
        try await create(
          client, token: token, "/api/v1/fundraisers",
          #"{"purpose": "На дрон \#(index)", "target": "1000", "template": 1, "photo": "\#(photo)"}"#
        )
        tokens.append(token)
        clients.append(client)
      }
      // Made the way the server made them before M093: each workspace under its creator's id.
      try await Self.giveWorkspacesTheirCreatorsIDs(t.db)
      let before = try await [
        everything(clients[0], token: tokens[0]), everything(clients[1], token: tokens[1]),
      ]

      try await t.db.withConnection { db in
        // The mail tables, receipts and category counts refer to workspaces: out first, back
        // last.
        try await M099_KeepExpenseMonthTotals().revert(on: db)
        try await M098_IndexRecentFavorites().revert(on: db)
        try await M097_CountProductTypes().revert(on: db)
        try await M095_AddFundraiserReports().revert(on: db)
        try await M094_CreateMailTables().revert(on: db)
        try await M093_WorkspaceIDsOfTheirOwn().revert(on: db)
        try await M092_CreateWorkspaces().revert(on: db)
        try await M092_CreateWorkspaces().prepare(on: db)
        try await M093_WorkspaceIDsOfTheirOwn().prepare(on: db)
        try await M094_CreateMailTables().prepare(on: db)
        try await M095_AddFundraiserReports().prepare(on: db)
        try await M097_CountProductTypes().prepare(on: db)
        try await M098_IndexRecentFavorites().prepare(on: db)
        try await M099_KeepExpenseMonthTotals().prepare(on: db)
      }
      try await Self.expectReferencesToWorkspaces(t.db)

      for index in 0..<2 {
        let after = try await everything(clients[index], token: tokens[index])
        for (path, body) in before[index] {
          #expect(after[path] == body, "\(path) changed for account \(index)")
        }
        // The browser session still opens the same workspace.
        let page = try await clients[index].get("/products")
        #expect(page.status == .ok)
        #expect(page.body.contains("Lamp \(index)"))
        #expect(!page.body.contains("Lamp \(1 - index)"))
      }
      let users = try await Accounts.all(on: t.db)
      for user in users {
        let id = try user.requireID()
        // Ids are kept (devices' copies stay valid); the creator is known.
        let workspace = try #require(try await WorkspaceTable.find(id, on: t.db))
        #expect(workspace.creatorID == id)
        #expect(workspace.currency == user.currency)
        let members = try await MembershipTable.query(on: t.db).filter(\.$workspaceID == id).all()
        #expect(members.map(\.userID) == [id])
        #expect(members.map(\.role) == ["owner"])
      }
      // Writes go on in the moved workspaces: numbers, counts and the change feed carry on.
      let next = try await clients[0].productAPI(
        .POST, "/api/v1/products", token: tokens[0],
        body: #"{"name": "After", "type": "Light", "price": "1", "tax": "0"}"#)
      #expect(next.status == .created)
      #expect(try next.json()["number"] as? Int == 3)
      let feed = try await clients[0].feed(token: tokens[0], since: 0)
      #expect(feed.changes.compactMap(\.name).sorted() == ["After", "Chair 0", "Lamp 0"])
    }
  }

  /// Every table with a `workspace_id` column: the change numbers first, since moving a
  /// record makes its triggers write them under the new id.
  static let workspaceColumns =
    ["change_versions", "product_change_counters", "product_tombstones", "product_counters"]
    + M092_CreateWorkspaces.owned.filter {
      !["change_versions", "product_change_counters", "product_tombstones", "product_counters"]
        .contains($0)
    } + [
      "product_favorites", "api_tokens", BrowserSessionStore.table, "memberships", "invitations",
      "activity",
    ]

  /// Moves every workspace to its creator's id, as workspaces were made before M093: a copy
  /// of its row under the new id first, its rows moved over, then the old row deleted, so the
  /// references hold at every step on both databases.
  static func giveWorkspacesTheirCreatorsIDs(_ db: any Database) async throws {
    let sql = try db.sql()
    for workspace in try await WorkspaceTable.query(on: db).all() {
      let id = try workspace.requireID()
      let creator = try #require(workspace.creatorID)
      try await sql.raw(
        """
        INSERT INTO workspaces (id, name, currency, created_at)
        SELECT \(bind: creator), name, currency, created_at FROM workspaces WHERE id = \(bind: id)
        """
      ).run()
      for table in workspaceColumns {
        try await sql.raw(
          "UPDATE \(ident: table) SET workspace_id = \(bind: creator) WHERE workspace_id = \(bind: id)"
        ).run()
      }
      try await sql.raw("DELETE FROM workspaces WHERE id = \(bind: id)").run()
      try await sql.raw(
        "UPDATE workspaces SET creator_id = \(bind: creator) WHERE id = \(bind: creator)"
      ).run()
    }
  }

  /// Each record table's `workspace_id` references `workspaces(id)`, as M093 left it.
  static func expectReferencesToWorkspaces(_ db: any Database) async throws {
    let sql = try db.sql()
    for table in M093_WorkspaceIDsOfTheirOwn.referencing {
      let targets: [String]
      if sql.dialect.name == "postgresql" {
        targets = try await sql.raw(
          """
          SELECT r.relname AS target FROM pg_constraint c
          JOIN pg_class r ON r.oid = c.confrelid
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
          WHERE c.contype = 'f' AND c.conrelid = to_regclass(\(bind: table))
            AND a.attname = 'workspace_id'
          """
        ).all().map { try $0.decode(column: "target", as: String.self) }
      } else {
        targets = try await sql.raw("PRAGMA foreign_key_list(\(ident: table))").all()
          .filter { try $0.decode(column: "from", as: String.self) == "workspace_id" }
          .map { try $0.decode(column: "table", as: String.self) }
      }
      #expect(targets == ["workspaces"], "\(table) references \(targets)")
    }
  }
}
