import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Testing

@testable import BackofficeServer

/// On SQLite the category chips read counts that triggers keep (M097): after creations,
/// changes of type and spelling and deletions (one by one and all at once), the table
/// holds exactly what counting the products gives, and the chips say the same.
@Suite("Products: category counts")
struct ProductTypeCountTests {
  private func kept(_ sql: any SQLDatabase) async throws -> [String] {
    try await sql.raw(
      "SELECT workspace_id, type_key, type, count FROM product_type_counts ORDER BY 1, 2, 3"
    ).all().map { row in
      "\(try row.decode(column: "workspace_id", as: String.self)) "
        + "\(try row.decode(column: "type", as: String.self)) "
        + "\(try row.decode(column: "count", as: Int.self))"
    }
  }

  private func counted(_ sql: any SQLDatabase) async throws -> [String] {
    try await sql.raw(
      """
      SELECT workspace_id, type_key, type, COUNT(*) AS count FROM products
      GROUP BY workspace_id, type_key, type ORDER BY 1, 2, 3
      """
    ).all().map { row in
      "\(try row.decode(column: "workspace_id", as: String.self)) "
        + "\(try row.decode(column: "type", as: String.self)) "
        + "\(try row.decode(column: "count", as: Int.self))"
    }
  }

  @Test func theKeptCountsAreTheCountedOnes() async throws {
    try await withApp { t in
      guard !isPostgresRun else { return }  // PostgreSQL counts when asked (M097)
      let sql = try t.db.sql()
      let owner = t.client()
      let email = try await owner.signUp()
      let token = try await owner.createToken()
      var ids: [String] = []
      for (index, type) in ["Chair", "chair", "Chair", "Lamp", "Čaj", "Lamp"].enumerated() {
        let created = try await owner.createProduct(token: token, name: "P\(index)", type: type)
        ids.append(try #require(created["id"] as? String))
      }
      let other = t.client()
      try await other.signUp()
      let otherToken = try await other.createToken()
      _ = try await other.createProduct(token: otherToken, name: "Theirs", type: "Chair")
      #expect(try await kept(sql) == counted(sql))

      // A new type, a change of spelling, and a change that keeps the type.
      _ = try await owner.productAPI(
        .PUT, "/api/v1/products/\(ids[0])", token: token,
        body: productJSON(name: "P0", type: "Desk"))
      _ = try await owner.productAPI(
        .PUT, "/api/v1/products/\(ids[1])", token: token,
        body: productJSON(name: "P1", type: "CHAIR"))
      _ = try await owner.productAPI(
        .PUT, "/api/v1/products/\(ids[2])", token: token,
        body: productJSON(name: "Renamed", type: "Chair"))
      #expect(try await kept(sql) == counted(sql))

      // The last of a type takes its row with it.
      let deleted = try await owner.productAPI(.DELETE, "/api/v1/products/\(ids[4])", token: token)
      #expect(deleted.status == .noContent)
      #expect(try await kept(sql) == counted(sql))
      #expect(try await kept(sql).contains { $0.contains("Čaj") } == false)

      // The chips read the kept counts: spellings of one type share a chip.
      let user = try #require(try await Accounts.find(email: email, on: t.db))
      let workspace = try await t.workspaceID(ofUser: try user.requireID())
      let chips = try await ProductStore(db: t.db, workspaceID: workspace, viewerID: nil).chips()
      #expect(chips.map(\.count).reduce(0, +) == 5)

      // Products gone, counts gone.
      try await sql.raw("DELETE FROM products").run()
      #expect(try await kept(sql).isEmpty)
    }
  }
}
