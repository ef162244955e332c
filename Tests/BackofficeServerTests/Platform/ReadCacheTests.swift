import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// The read cache answers repeated reads from memory and never answers with data older than an
/// acknowledged write: not after the app's own writes of every kind, not after a write that
/// bypassed the app, not after a write through a second instance.
@Suite("Read cache", .serialized)
struct ReadCacheTests {
  @Test(arguments: TestStore.allCases) func aRepeatedListIsAnsweredFromMemory(store: TestStore)
    async throws
  {
    try await withApp(store: store) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Cached lamp")
      let first = try await client.productAPI(.GET, "/api/v1/products?q=cac", token: token)
      let before = t.app.readCache.stats
      let second = try await client.productAPI(.GET, "/api/v1/products?q=cac", token: token)
      #expect(t.app.readCache.stats.hits == before.hits + 1)
      #expect(second.body == first.body)
      #expect(second.headers.contentType == first.headers.contentType)
      #expect(try second.json()["total"] as? Int == 1)
      // Another filter is another entry.
      try await client.productAPI(.GET, "/api/v1/products?q=lamp", token: token)
      #expect(t.app.readCache.stats.misses == before.misses + 1)
    }
  }

  @Test(arguments: TestStore.allCases) func everyKindOfProductWriteIsSeenAtOnce(store: TestStore)
    async throws
  {
    try await withApp(store: store) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      func list() async throws -> [[String: Any]] {
        let body = try await client.productAPI(.GET, "/api/v1/products", token: token).json()
        return try #require(body["items"] as? [[String: Any]])
      }
      func chips() async throws -> [String] {
        let body = try await client.productAPI(.GET, "/api/v1/product-types", token: token)
          .json()
        return try #require(body["items"] as? [[String: Any]]).compactMap { $0["title"] as? String }
      }
      #expect(try await list().isEmpty)
      #expect(try await chips().isEmpty)

      let created = try await client.createProduct(token: token, name: "Desk", type: "Office")
      let id = try #require(created["id"] as? String)
      #expect(try await list().map { $0["name"] as? String } == ["Desk"])
      #expect(try await chips() == ["Office"])

      let updated = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token,
        body: productJSON(name: "Standing desk", type: "Furniture"))
      #expect(updated.status == .ok)
      #expect(try await list().first?["name"] as? String == "Standing desk")
      #expect(try await chips() == ["Furniture"])

      try await client.productAPI(.PUT, "/api/v1/favorites/\(id)", token: token)
      #expect(try await list().first?["favorite"] as? Bool == true)
      try await client.productAPI(.DELETE, "/api/v1/favorites/\(id)", token: token)
      #expect(try await list().first?["favorite"] as? Bool == false)

      let photo = ProductImages.png().base64EncodedString()
      try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token,
        body: productJSON(name: "Standing desk", type: "Furniture", extra: ["photo": photo]))
      #expect(try await list().first?["image_url"] is String)

      // Formatting follows the account's settings, which are part of the key.
      let before = try #require(try await list().first?["price_display"] as? String)
      try await client.get("/settings")
      let saved = try await client.post(
        "/settings/locale", form: [("locale", "de-DE"), ("currency", "EUR")])
      #expect(saved.status == .seeOther, "\(saved.status) \(saved.body)")
      let after = try #require(try await list().first?["price_display"] as? String)
      #expect(after != before)
      #expect(after.contains("€"))

      // The page shows the same catalog.
      #expect(try await client.get("/products").body.contains("Standing desk"))
      try await client.createProduct(token: token, name: "Chair")
      #expect(try await client.get("/products").body.contains("Chair"))

      let deleted = try await client.productAPI(.DELETE, "/api/v1/products/\(id)", token: token)
      #expect(deleted.status == .noContent)
      #expect(try await list().map { $0["name"] as? String } == ["Chair"])
      #expect(try await client.get("/products").body.contains("Standing desk") == false)
    }
  }

  /// The version lives in the database and triggers bump it, so a write that never went
  /// through the app (another tool, a restore, a script) is seen as well.
  @Test(arguments: TestStore.allCases) func aWriteBehindTheAppsBackIsSeen(store: TestStore)
    async throws
  {
    try await withApp(store: store) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Original")
      let path = "/api/v1/products"
      #expect(try await client.productAPI(.GET, path, token: token).body.contains("Original"))
      let sql = try t.db.sql()
      try await sql.raw("UPDATE products SET name = 'Changed elsewhere'").run()
      #expect(
        try await client.productAPI(.GET, path, token: token).body.contains("Changed elsewhere"))

      try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token, json: #"{"title": "Tea", "amount": "2"}"#)
      let summary = "/api/v1/expenses/summary"
      #expect(
        try await client.expensesAPI(.GET, summary, token: token).json()["count"] as? Int == 1)
      try await sql.raw("DELETE FROM expenses").run()
      #expect(
        try await client.expensesAPI(.GET, summary, token: token).json()["count"] as? Int == 0)
    }
  }

  @Test(arguments: TestStore.allCases) func expenseTotalsFollowEveryWrite(store: TestStore)
    async throws
  {
    try await withApp(store: store) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      func total() async throws -> String? {
        try await client.expensesAPI(.GET, "/api/v1/expenses/summary", token: token)
          .json()["total"] as? String
      }
      #expect(try await total() == "0.00")
      let created = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token, json: #"{"title": "Tea", "amount": "2.50"}"#)
      let id = try #require(try created.json()["id"] as? String)
      #expect(try await total() == "2.50")
      try await client.expensesAPI(
        .PUT, "/api/v1/expenses/\(id)", token: token, json: #"{"title": "Tea", "amount": "4"}"#)
      #expect(try await total() == "4.00")
      try await client.expensesAPI(.DELETE, "/api/v1/expenses/\(id)", token: token)
      #expect(try await total() == "0.00")
    }
  }

  /// Two servers behind one load balancer: what one caches, the other's write replaces.
  @Test func twoInstancesNeverAnswerWithAnOlderCatalog() async throws {
    try await withTwoInstances { one, two in
      let reader = one.client()
      try await reader.signUp(email: "two-caches@example.com")
      let token = try await reader.createToken()
      let writer = two.client()
      for round in 1...3 {
        // Read twice so the first server holds the answer in memory.
        for _ in 0..<2 {
          let body = try await reader.productAPI(.GET, "/api/v1/products", token: token).json()
          #expect(body["total"] as? Int == round - 1)
        }
        try await writer.createProduct(token: token, name: "Round \(round)")
        let body = try await reader.productAPI(.GET, "/api/v1/products", token: token).json()
        #expect(body["total"] as? Int == round)
        #expect(
          (body["items"] as? [[String: Any]])?.first?["name"] as? String == "Round \(round)")

        try await writer.expensesAPI(
          .POST, "/api/v1/expenses", token: token, json: #"{"title": "Fee", "amount": "1"}"#)
        let summary = try await reader.expensesAPI(
          .GET, "/api/v1/expenses/summary", token: token
        ).json()
        #expect(summary["count"] as? Int == round)
      }
      #expect(one.app.readCache.stats.hits >= 3)
    }
  }

  @Test(arguments: TestStore.allCases) func anotherAccountNeverSharesAnEntry(store: TestStore)
    async throws
  {
    try await withApp(store: store) { t in
      let alice = t.client()
      try await alice.signUp(email: "alice-cache@example.com")
      let aliceToken = try await alice.createToken()
      try await alice.createProduct(token: aliceToken, name: "Alice's secret")
      #expect(
        try await alice.productAPI(.GET, "/api/v1/products", token: aliceToken).body
          .contains("Alice's secret"))
      let bob = t.client()
      try await bob.signUp(email: "bob-cache@example.com")
      let bobToken = try await bob.createToken()
      let seen = try await bob.productAPI(.GET, "/api/v1/products", token: bobToken)
      #expect(try seen.json()["total"] as? Int == 0)
      #expect(!seen.body.contains("secret"))
    }
  }

  @Test func theVersionGrowsWithEveryCommittedChange() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let workspace = try await t.workspaceID(
        ofUser: try #require(try await Accounts.all(on: t.db).first?.requireID()))
      let start = try await ChangeVersions.read(.products, workspaceID: workspace, on: t.db)
      #expect(start == 0)
      try await client.createProduct(token: token, name: "One")
      let afterOne = try await ChangeVersions.read(.products, workspaceID: workspace, on: t.db)
      #expect(afterOne > start)
      // A failed write changes nothing, so the version stays.
      let refused = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: ""))
      #expect(refused.status == .unprocessableEntity)
      #expect(
        try await ChangeVersions.read(.products, workspaceID: workspace, on: t.db) == afterOne)
      // A transaction that is rolled back leaves no bump behind.
      struct Rollback: Error {}
      await #expect(throws: Rollback.self) {
        try await t.db.transaction { db in
          let sql = try db.sql()
          try await sql.raw("UPDATE products SET name = 'never'").run()
          throw Rollback()
        }
      }
      #expect(
        try await ChangeVersions.read(.products, workspaceID: workspace, on: t.db) == afterOne)
      #expect(try await ChangeVersions.read(.expenses, workspaceID: workspace, on: t.db) == 0)
    }
  }

  /// A rendered page is kept per session (its CSRF token is in every form) and never with a
  /// message that is shown once.
  @Test(arguments: TestStore.allCases) func aCachedPageBelongsToOneSessionAndShowsMessagesOnce(
    store: TestStore
  ) async throws {
    try await withApp(store: store) { t in
      let phone = t.client()
      let email = try await phone.signUp(email: "two-devices@example.com")
      _ = try await phone.addProduct(name: "Kettle", db: t.db)
      let laptop = t.client()
      #expect(try await laptop.signIn(email: email).status == .seeOther)
      let token = #"name="_csrf" value="([^"]+)""#
      let first = try await phone.get("/products")
      let again = try await phone.get("/products")
      let other = try await laptop.get("/products")
      let phoneToken = try #require(first.firstMatch(token))
      #expect(again.firstMatch(token) == phoneToken)
      #expect(again.body == first.body)
      let laptopToken = try #require(other.firstMatch(token))
      #expect(laptopToken != phoneToken)
      #expect(other.body.contains("Kettle"))

      _ = try await laptop.addProduct(name: "Teapot", db: t.db)
      let afterAdd = try await phone.get("/products")
      #expect(afterAdd.body.contains("Teapot"))
      #expect(afterAdd.firstMatch(token) == phoneToken)
      // The laptop's message was shown on the laptop once, not kept for later views.
      #expect(!afterAdd.body.contains(#"role="status">Upload Successful"#))
      let later = try await laptop.get("/products")
      #expect(!later.body.contains(#"role="status">Upload Successful"#))
      #expect(later.body.contains("Teapot"))
    }
  }

  /// Free-text parts of a key cannot run into each other: a category with a space and a
  /// search are two parts, not one string.
  @Test func keysOfDifferentFiltersNeverMeet() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Lamp shade", type: "Home decor")
      try await client.createProduct(token: token, name: "Decor lamp", type: "Home")
      func names(_ query: String) async throws -> [String] {
        let body = try await client.productAPI(.GET, "/api/v1/products?" + query, token: token)
          .json()
        return try #require(body["items"] as? [[String: Any]]).compactMap { $0["name"] as? String }
      }
      #expect(try await names("type=home+decor&q=lamp") == ["Lamp shade"])
      #expect(try await names("type=home&q=decor+lamp") == ["Decor lamp"])
      let page = try await client.get("/products?type=home+decor&q=lamp")
      #expect(page.body.contains("Lamp shade"))
      let other = try await client.get("/products?type=home&q=decor+lamp")
      #expect(other.body.contains("Decor lamp"))
      #expect(!other.body.contains("Lamp shade"))
    }
  }

  // MARK: the cache alone

  @Test func aNewerVersionReplacesTheOlderValues() async throws {
    let cache = ReadCache(maxBytes: 1 << 20)
    let user = UUID()
    func read(_ version: Int64, _ key: String, _ value: String) async throws -> String {
      try await cache.value(
        workspace: user, area: .products, version: version, key: key
      ) { value }
    }
    #expect(try await read(1, "a", "first") == "first")
    #expect(try await read(1, "a", "ignored") == "first")
    #expect(try await read(2, "a", "second") == "second")
    // A request that read the older version late must not put its value back.
    #expect(try await read(1, "a", "late") == "late")
    #expect(try await read(2, "a", "ignored") == "second")
    #expect(cache.stats == .init(hits: 2, misses: 3))
  }

  /// A read is keyed by its typed arguments and the type of its answer: the same arguments
  /// asked for another kind of answer, or equal-looking arguments of another type, never meet.
  @Test func keysAreTypedArgumentsAndAnswers() async throws {
    struct Query: Hashable, Sendable {
      var page: Int
    }
    struct OtherQuery: Hashable, Sendable {
      var page: Int
    }
    let cache = ReadCache(maxBytes: 1 << 20)
    let user = UUID()
    let text = try await cache.value(
      workspace: user, area: .products, version: 1, key: Query(page: 1)
    ) { "text" }
    let sized = try await cache.value(
      workspace: user, area: .products, version: 1, key: Query(page: 1)
    ) { Sized(value: 7, cacheCost: 1) }
    let other = try await cache.value(
      workspace: user, area: .products, version: 1, key: OtherQuery(page: 1)
    ) { "other" }
    let again = try await cache.value(
      workspace: user, area: .products, version: 1, key: Query(page: 1)
    ) { "ignored" }
    #expect(text == "text" && sized.value == 7 && other == "other" && again == "text")
    #expect(cache.stats == .init(hits: 1, misses: 3))
  }

  /// An area that outgrows its share drops its least recently used values, not all of them:
  /// a listing that rotates through many pages keeps the pages it shows most.
  @Test func aFullAreaDropsItsLeastRecentlyUsedValue() async throws {
    let cache = ReadCache(maxBytes: 8 * 1024)
    let user = UUID()
    func read(_ key: String) async throws -> Bool {
      var computed = false
      _ = try await cache.value(workspace: user, area: .products, version: 1, key: key) {
        computed = true
        return Sized(value: 0, cacheCost: 900)
      }
      return !computed
    }
    for key in ["k0", "k1", "k2"] { #expect(try await read(key) == false) }
    #expect(try await read("k0"))
    #expect(try await read("k3") == false)
    #expect(try await read("k4") == false)
    #expect(try await read("k0"), "the recently read value stays")
    #expect(try await read("k1") == false, "the least recently used one went")
  }

  @Test func theCacheStaysWithinItsSize() async throws {
    let cache = ReadCache(maxBytes: 8 * 1024)
    for index in 0..<100 {
      _ = try await cache.value(
        workspace: UUID(), area: .products, version: 1, key: "k"
      ) { Sized(value: index, cacheCost: 900) }
    }
    #expect(cache.storedBytes <= 8 * 1024)
    #expect(cache.storedBytes > 0)
    // One account stepping through many searches stays within the size too.
    let user = UUID()
    for index in 0..<100 {
      _ = try await cache.value(
        workspace: user, area: .products, version: 1, key: "search \(index)"
      ) { Sized(value: index, cacheCost: 900) }
      #expect(cache.storedBytes <= 8 * 1024)
    }
    // A value too large to be worth keeping is answered but not stored.
    let big = try await cache.value(
      workspace: UUID(), area: .products, version: 1, key: "big"
    ) { Sized(value: -1, cacheCost: 4 * 1024) }
    #expect(big.value == -1)
    #expect(cache.storedBytes <= 8 * 1024)
    let off = ReadCache(maxBytes: 0)
    var computed = 0
    for _ in 0..<2 {
      _ = try await off.value(
        workspace: UUID(), area: .products, version: 1, key: "k"
      ) {
        computed += 1
        return Sized(value: computed, cacheCost: 1)
      }
    }
    #expect(computed == 2)
  }
}

/// A test value of a stated size.
private struct Sized: ReadCacheable {
  var value: Int
  var cacheCost: Int
}

extension String: ReadCacheable {
  public var cacheCost: Int { utf8.count }
}
