import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

// One app at a time per suite: every test starts its own app with a database pool, and
// PostgreSQL allows only so many connections.
@Suite("Products: prefix search", .serialized)
struct ProductSearchTests {
  static let names = [
    "iPhone 15", "IPHONE case", "Phone stand", "Crème brûlée", "Creme fraiche", "Ґанок",
    "Ёлка", "елка игрушка", "Йогурт", "Иней", "Ångström meter", "100% cotton", "100_tea",
    "Straße sign", "мʼясо",
  ]

  static func search(_ client: TestClient, _ token: String, _ term: String) async throws
    -> [String]
  {
    let query = term.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? term
    let response = try await client.productAPI(
      .GET, "/api/v1/products?q=\(query)&sort=name&per=100", token: token)
    #expect(response.status == .ok)
    let items = try #require(try response.json()["items"] as? [[String: Any]])
    return items.compactMap { $0["name"] as? String }.sorted()
  }

  static let cases: [(term: String, expected: [String])] = [
    ("iph", ["IPHONE case", "iPhone 15"]),
    ("IPHONE C", ["IPHONE case"]),
    ("phone", ["Phone stand"]),  // a prefix, not a substring: iPhone is not found
    ("creme", ["Creme fraiche", "Crème brûlée"]),
    ("CRÈME B", ["Crème brûlée"]),
    ("ґан", ["Ґанок"]),
    ("ган", []),  // Ґ is its own letter
    ("ел", ["елка игрушка", "Ёлка"]),
    ("ЁЛ", ["елка игрушка", "Ёлка"]),
    ("й", ["Йогурт"]),  // й is not и
    ("и", ["Иней"]),
    ("angst", ["Ångström meter"]),
    ("100%", ["100% cotton"]),
    ("100_", ["100_tea"]),
    ("strass", ["Straße sign"]),
    ("м'яс", ["мʼясо"]),
    ("  iphone   15 ", ["iPhone 15"]),
    ("zzz", []),
  ]

  /// Case, accents, Cyrillic and symbols taken literally, on one seeded catalog (and another
  /// account's product that must never show up).
  @Test func prefixSearch() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for name in Self.names { try await client.createProduct(token: token, name: name) }
      let other = t.client()
      try await other.signUp()
      let otherToken = try await other.createToken()
      try await other.createProduct(token: otherToken, name: "iPhone of someone else")

      for (term, expected) in Self.cases {
        #expect(try await Self.search(client, token, term) == expected.sorted(), "\(term)")
      }
    }
  }

  @Test func emptySearchListsEverything() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for name in ["B", "A"] { try await client.createProduct(token: token, name: name) }
      #expect(try await Self.search(client, token, "") == ["A", "B"])
      #expect(try await Self.search(client, token, "   ") == ["A", "B"])
    }
  }

  /// Not timed: the plan SQLite picks for the search on a few thousand products must use the
  /// (workspace_id, name_key) index, or search would scan the whole table.
  static func plan(_ statement: SQLQueryString, _ sql: any SQLDatabase) async throws -> String {
    var explained = SQLQueryString("EXPLAIN QUERY PLAN ")
    explained.appendInterpolation(statement)
    return try await sql.raw(explained).all()
      .map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "\n")
  }

  @Test func theSearchUsesTheNameKeyIndex() async throws {
    try await withApp { t in
      guard !isPostgresRun else {
        // PostgreSQL plans depend on table statistics; its "C" collation is checked below.
        return
      }
      let client = t.client()
      try await client.signUp()
      let user = try #require(try await Accounts.all(on: t.db).first)
      let userID = try user.requireID()
      let workspaceID = try await t.workspaceID(ofUser: userID)
      let sql = try t.db.sql()
      let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
      try await t.db.transaction { db in
        let sql = try db.sql()
        for index in 0..<5_000 {
          let name = "\(words[index % words.count]) \(index)"
          try await sql.insert(into: ProductRecord.schema)
            .columns(
              "id", "workspace_id", "number", "name", "name_key", "type", "type_key", "price_minor",
              "tax_minor"
            )
            .values(
              SQLBind(UUID()), SQLBind(workspaceID), SQLBind(index + 1), SQLBind(name),
              SQLBind(name),
              SQLBind("Product"), SQLBind("product"), SQLBind(100 + index), SQLBind(0)
            )
            .run()
        }
      }
      try await sql.raw("ANALYZE").run()

      // The statement ProductStore.list runs for ?q=char, newest first: the page's numbers come
      // from the covering (workspace_id, name_key, number) index; rows are read for the page only.
      let statement = ProductStore.pageStatement(
        conditions:
          "p.workspace_id = \(bind: workspaceID) AND p.name_key >= \(bind: "char") AND p.name_key < \(bind: "chas")",
        whole: false, sort: .newest, workspaceID: workspaceID, viewerID: userID, per: 24,
        offset: 0)
      let plan = try await Self.plan(statement, sql)
      #expect(
        plan.contains(
          "COVERING INDEX \(ProductIndexes.nameNumber) (workspace_id=? AND name_key>? AND name_key<?)"
        ),
        "plan: \(plan)")
      // No full pass over the products table (scanning the page's own 24 numbers is fine).
      let scans = plan.split(separator: "\n").filter {
        $0.hasPrefix("SCAN") && !$0.hasPrefix("SCAN page")
      }
      #expect(scans.isEmpty, "plan: \(plan)")

      // The whole catalog, newest first: the page from the (workspace_id, number) index, and the
      // rows looked up by number, never a walk over the catalog.
      let whole = try await Self.plan(
        ProductStore.pageStatement(
          conditions: "p.workspace_id = \(bind: workspaceID)",
          whole: true, sort: .newest, workspaceID: workspaceID, viewerID: userID, per: 24,
          offset: 0), sql)
      #expect(whole.contains("(workspace_id=? AND number=?)"), "plan: \(whole)")
      #expect(
        whole.split(separator: "\n").filter { $0.hasPrefix("SCAN") && !$0.hasPrefix("SCAN page") }
          .isEmpty, "plan: \(whole)")

      // The favourites row reads each favourite product by its id.
      let favorites = try await Self.plan(
        ProductStore.favoritesStatement(
          workspaceID: workspaceID, viewerID: userID, per: 12, offset: 0),
        sql)
      #expect(favorites.contains("SEARCH p USING INDEX"), "plan: \(favorites)")
      #expect(favorites.contains("(id=?)"), "plan: \(favorites)")
      #expect(
        favorites.split(separator: "\n").filter { $0.hasPrefix("SCAN") && !$0.hasPrefix("SCAN f") }
          .isEmpty, "plan: \(favorites)")

      // The category chips count from the category index alone.
      let chips = try await Self.plan(
        "\(ProductStore.chipsQuery(sql, workspaceID: workspaceID).select)", sql)
      #expect(chips.contains("COVERING INDEX \(ProductIndexes.typeNumber)"), "plan: \(chips)")

      let store = ProductStore(db: t.db, workspaceID: workspaceID, viewerID: nil)
      let found = try await store.list(.init(search: "CHAR", sort: .name), page: 1, per: 24)
      #expect(found.total == 625)
    }
  }

  @Test func postgresCompareNamesByteWise() async throws {
    try await withApp { t in
      guard isPostgresRun else { return }
      let sql = try t.db.sql()
      let rows = try await sql.raw(
        """
        SELECT collation_name FROM information_schema.columns
        WHERE table_name = 'products' AND column_name = 'name_key'
        AND table_schema = current_schema()
        """
      ).all()
      #expect(try rows.first?.decode(column: "collation_name", as: String.self) == "C")
    }
  }

  /// The products page's favourites are the viewer's 24 most recent: read in that order from
  /// their own index (M098), not all of them read and sorted on every page.
  @Test func theRecentFavouritesComeFromTheirIndex() async throws {
    try await withApp { t in
      guard !isPostgresRun else { return }  // PostgreSQL plans by its statistics
      let client = t.client()
      let email = try await client.signUp()
      let userID = try await t.userID(of: email)
      let workspaceID = try await t.workspaceID(ofUser: userID)
      let sql = try t.db.sql()
      let plan = try await Self.plan(
        ProductStore.favoritesStatement(
          workspaceID: workspaceID, viewerID: userID, per: 24, offset: 0), sql)
      #expect(
        plan.contains(
          "COVERING INDEX \(M098_IndexRecentFavorites.index) (workspace_id=? AND user_id=?)"),
        "plan: \(plan)")
      // Their number too, without visiting the table.
      let count = try await Self.plan(
        ProductStore.favoriteCountStatement(workspaceID: workspaceID, viewerID: userID), sql)
      #expect(count.contains("COVERING INDEX"), "plan: \(count)")
    }
  }
}
