import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// The catalog's change feed, which devices keep their offline copy with.
@Suite("Products: change feed", .serialized)
struct ProductChangeFeedTests {
  /// Every kind of write, through every path, shows up once, in order, after the cursor
  /// before it: a page's form, the API (the direct writer on a SQLite file), an edit, a star
  /// and its removal, a new photo, a delete.
  @Test(arguments: TestStore.allCases)
  func everyWriteComesOutInOrderAfterTheCursor(store: TestStore) async throws {
    try await withApp(store: store) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let empty = try await client.feed(token: token)
      #expect(empty.changes.isEmpty)
      #expect(empty.reset)
      #expect(empty.cursor == 0)
      #expect(empty.format.hasPrefix("en-US|"))

      let lamp = try await client.addProduct(name: "Lamp", db: t.db)
      let chair = try await client.createProduct(token: token, name: "Chair")["id"] as? String
      let first = try await client.feed(token: token)
      #expect(first.changes.map(\.name) == ["Lamp", "Chair"])
      #expect(first.changes.map(\.deleted) == [false, false])
      #expect(first.changes[0].nameKey == "lamp")
      #expect(first.changes[0].typeKey == "product")
      #expect(first.changes[0].product?["price"] as? String == "10.00")
      #expect(first.reset)

      let cursor = first.cursor
      #expect(try await client.feed(token: token, since: cursor).changes.isEmpty)

      // An edit, a star, a photo, then a delete.
      let chairID = try #require(chair)
      let edited = try await client.productAPI(
        .PUT, "/api/v1/products/\(chairID)", token: token,
        body: productJSON(name: "Armchair", price: "12.50"))
      #expect(edited.status == .ok)
      try await client.productAPI(.PUT, "/api/v1/favorites/\(lamp.uuidString)", token: token)
      let afterStar = try await client.feed(token: token, since: cursor)
      #expect(afterStar.changes.map(\.name) == ["Armchair", "Lamp"])
      #expect(!afterStar.reset)
      #expect(afterStar.changes[1].product?["favorite"] as? Bool == true)
      #expect(afterStar.changes[1].favoritedAt != nil)
      #expect(afterStar.changes[0].product?["version"] as? Int == 2)

      let photo = try await client.productAPI(
        .PUT, "/api/v1/products/\(lamp.uuidString)", token: token,
        body: productJSON(
          name: "Lamp", extra: ["photo": ProductImages.png().base64EncodedString()]))
      #expect(photo.status == .ok)
      try await client.productAPI(.DELETE, "/api/v1/favorites/\(lamp.uuidString)", token: token)
      let deleted = try await client.productAPI(
        .DELETE, "/api/v1/products/\(chairID)", token: token)
      #expect(deleted.status == .noContent)
      let last = try await client.feed(token: token, since: afterStar.cursor)
      #expect(last.changes.count == 2, "the lamp once (its latest state), the chair's tombstone")
      #expect(last.changes[0].id == lamp.uuidString.lowercased())
      #expect(last.changes[0].product?["image_url"] as? String != nil)
      #expect(last.changes[0].product?["favorite"] as? Bool == false)
      #expect(last.changes[0].favoritedAt == nil)
      #expect(last.changes[1] == .init(id: chairID, deleted: true))
      #expect(last.changes[0].seq < last.changes[1].seq)

      // From the start, a deleted product is simply absent.
      let whole = try await client.feed(token: token)
      #expect(whole.changes.map(\.name) == ["Lamp"])
      #expect(whole.cursor == last.cursor, "the catalog's last change")
    }
  }

  /// Paging with a small limit collects every product exactly once, also while products are
  /// edited between pages.
  @Test func smallPagesCollectEveryProductOnce() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      var ids: [String] = []
      for index in 0..<11 {
        ids.append(try await client.createProduct(token: token, name: "P\(index)")["id"] as! String)
      }
      var copy: [String: String] = [:]
      var cursor: Int64 = 0
      var pages = 0
      while true {
        let page = try await client.feed(token: token, since: cursor, limit: 3)
        pages += 1
        for change in page.changes {
          if change.deleted { copy[change.id] = nil } else { copy[change.id] = change.name }
        }
        cursor = page.cursor
        if pages == 2 {
          // Changed behind the pages already read, and ahead of them.
          try await client.productAPI(
            .PUT, "/api/v1/products/\(ids[0])", token: token, body: productJSON(name: "P0 new"))
          try await client.productAPI(.DELETE, "/api/v1/products/\(ids[10])", token: token)
        }
        if !page.hasMore { break }
        #expect(page.changes.count == 3)
        #expect(pages < 20)
      }
      #expect(copy.count == 10)
      #expect(copy[ids[0]] == "P0 new")
      #expect(copy[ids[10]] == nil)
      #expect(Set(copy.values) == Set(["P0 new"] + (1..<10).map { "P\($0)" }))
    }
  }

  @Test func anotherAccountsChangesNeverAppear() async throws {
    try await withApp { t in
      let a = t.client()
      try await a.signUp()
      let tokenA = try await a.createToken()
      let b = t.client()
      try await b.signUp()
      let tokenB = try await b.createToken()
      let theirs = try await b.createProduct(token: tokenB, name: "Theirs")["id"] as! String
      try await a.createProduct(token: tokenA, name: "Mine")
      try await b.productAPI(.DELETE, "/api/v1/products/\(theirs)", token: tokenB)
      let feed = try await a.feed(token: tokenA)
      #expect(feed.changes.map(\.name) == ["Mine"])
      let later = try await a.feed(token: tokenA, since: 0)
      #expect(!later.changes.contains { $0.id == theirs })
      // B's cursor means nothing in A's account: A's own numbering starts from 1.
      let bFeed = try await b.feed(token: tokenB, since: 1)
      #expect(bFeed.changes.map(\.id) == [theirs])
      #expect(bFeed.changes[0].deleted)
    }
  }

  /// A cursor the server cannot continue from starts a copy afresh: one from the future (a
  /// database restored from an older backup) or one older than the oldest tombstone kept.
  @Test func cursorsThatCannotBeContinuedStartAgain() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let kept = try await client.createProduct(token: token, name: "Kept")["id"] as! String
      let gone = try await client.createProduct(token: token, name: "Gone")["id"] as! String
      let future = try await client.feed(token: token, since: 1_000)
      #expect(future.reset)
      #expect(future.changes.map(\.name) == ["Kept", "Gone"])

      try await client.productAPI(.DELETE, "/api/v1/products/\(gone)", token: token)
      let afterDelete = try await client.feed(token: token, since: 2)
      #expect(afterDelete.changes.map(\.deleted) == [true])
      #expect(!afterDelete.reset)

      // The tombstone ages past the retention period; the next delete drops it.
      let sql = try t.db.sql()
      try await sql.raw("UPDATE product_tombstones SET deleted_at = 1000").run()
      t.clock.advance(by: ProductChanges.tombstoneRetention)
      let third = try await client.createProduct(token: token, name: "Third")["id"] as! String
      try await client.productAPI(.DELETE, "/api/v1/products/\(third)", token: token)
      let tombstones = try await sql.raw("SELECT product_id FROM product_tombstones").all()
      #expect(tombstones.count == 1, "the old one purged, the new one kept")
      let stale = try await client.feed(token: token, since: 2)
      #expect(stale.reset, "the Gone tombstone is no longer there to send")
      #expect(stale.changes.map(\.name) == ["Kept"])
      let fresh = try await client.feed(token: token, since: afterDelete.cursor)
      #expect(!fresh.reset)
      #expect(fresh.changes.map(\.id) == [third])
      _ = kept
    }
  }

  @Test func badParametersAreRefusedByName() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for (query, field) in [
        ("since=-1", "since"), ("since=abc", "since"), ("since=99999999999999999999", "since"),
        ("limit=0", "limit"), ("limit=1001", "limit"), ("limit=x", "limit"),
      ] {
        let response = try await client.productAPI(
          .GET, "/api/v1/product-changes?\(query)", token: token)
        #expect(response.status == .unprocessableEntity, "\(query)")
        #expect(response.productErrorFields[field] != nil, "\(query)")
      }
      let unauthenticated = try await t.client().get("/api/v1/product-changes")
      #expect(unauthenticated.status == .unauthorized)
    }
  }

  /// Products that existed before the feed get numbers in the order they were added, and the
  /// next change comes after them.
  @Test func theMigrationNumbersExistingProducts() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for name in ["One", "Two", "Three"] {
        try await client.createProduct(token: token, name: name)
      }
      try await t.applyAgain(M090_CreateProductChanges())
      let feed = try await client.feed(token: token)
      #expect(feed.changes.map(\.name) == ["One", "Two", "Three"])
      #expect(feed.changes.map(\.seq) == [1, 2, 3])
      try await client.createProduct(token: token, name: "Four")
      let next = try await client.feed(token: token, since: 3)
      #expect(next.changes.map(\.name) == ["Four"])
      #expect(next.changes.map(\.seq) == [4])
    }
  }

  /// Every signed-in page tells its scripts the account, where the feed is and the format its
  /// texts are written in; the feed names the same format, and a new locale, currency or
  /// language is a new format (so devices fetch their copy anew).
  @Test func pagesAndTheFeedAgreeOnTheFormat() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let user = try #require(try await Accounts.all(on: t.db).first)
      let workspace = try await t.workspaceID(ofUser: try user.requireID())
      for (path, form) in [
        ("/", [("locale", "en-US"), ("currency", "USD")]),
        ("/expenses", [("locale", "uk-UA"), ("currency", "UAH")]),
        ("/settings", [("language", "uk"), ("locale", "uk-UA"), ("currency", "UAH")]),
      ] {
        try await client.get("/settings")
        try await client.post("/settings/locale", form: form)
        let page = try await client.get(path)
        let format = try #require(page.firstMatch(#"data-catalog-format="([^"]*)""#))
        // The person in their workspace (the one they created, with an id of its own).
        let id = try user.requireID().uuidString.lowercased()
        let workspaceID = workspace.uuidString.lowercased()
        #expect(page.body.contains(#"data-account="\#(id)-\#(workspaceID)""#))
        #expect(page.body.contains(#"data-catalog-api="/api/v1/product-changes""#))
        #expect(page.body.contains(#"data-service-worker="/sw.js""#))
        let feed = try await client.feed(token: token)
        #expect(feed.format == format, "\(path)")
      }
      let signedOut = try await t.client().get("/sign-in")
      #expect(!signedOut.body.contains("data-catalog-api"))
    }
  }

  /// Rows written behind the app's back (plain SQL, as an import or a restore writes them) are
  /// numbered too: the triggers do it, not the code paths.
  @Test func plainSQLWritesAreNumberedToo() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let id = try await client.createProduct(token: token, name: "Before")["id"] as! String
      let start = try await client.feed(token: token).cursor
      let sql = try t.db.sql()
      try await sql.raw(
        "UPDATE products SET name = 'Renamed', name_key = 'renamed' WHERE id = \(bind: UUID(uuidString: id)!)"
      ).run()
      let feed = try await client.feed(token: token, since: start)
      #expect(feed.changes.map(\.name) == ["Renamed"])
    }
  }
}

@Suite("Products: Idempotency-Key on edits and deletes", .serialized)
struct ProductEditIdempotencyTests {
  /// A queued edit sent again after its answer was lost gets the first answer, not a 412
  /// from its own success; a delete likewise gets 204 again, not a 404.
  @Test func aRepeatedEditOrDeleteWithItsKeyGetsTheFirstAnswer() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let id = try await client.createProduct(token: token, name: "Desk")["id"] as! String
      let headers: HTTPHeaders = ["Idempotency-Key": "edit-1", "If-Match": "\"1\""]
      let body = productJSON(name: "Desk (oak)")
      let first = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: body, headers: headers)
      #expect(first.status == .ok)
      #expect(first.headers.first(name: .eTag) == "\"2\"")
      let again = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: body, headers: headers)
      #expect(again.status == .ok)
      #expect(again.body == first.body)
      #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
      #expect(again.headers.first(name: .eTag) == "\"2\"")
      let record = try #require(try await ProductRecord.find(UUID(uuidString: id), on: t.db))
      #expect(record.version == 2, "saved once")

      // Without the key the same request is a stale one.
      let stale = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: body, headers: ["If-Match": "\"1\""])
      #expect(stale.status == .preconditionFailed)

      // The same key for another edit, or another product, is refused.
      let other = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: productJSON(name: "Desk (pine)"),
        headers: headers)
      #expect(other.status == .conflict)
      #expect(other.productErrorCode == "idempotency_key_reused")

      let deleteHeaders: HTTPHeaders = ["Idempotency-Key": "delete-1", "If-Match": "\"2\""]
      let deleted = try await client.productAPI(
        .DELETE, "/api/v1/products/\(id)", token: token, headers: deleteHeaders)
      #expect(deleted.status == .noContent)
      #expect(deleted.headers.first(name: .contentType) == nil)
      let deletedAgain = try await client.productAPI(
        .DELETE, "/api/v1/products/\(id)", token: token, headers: deleteHeaders)
      #expect(deletedAgain.status == .noContent)
      #expect(deletedAgain.headers.first(name: "Idempotent-Replayed") == "true")
      let plain = try await client.productAPI(.DELETE, "/api/v1/products/\(id)", token: token)
      #expect(plain.status == .notFound)
    }
  }

  /// A refused edit (stale version, bad values) is not remembered: fixed, it goes through
  /// with the same key.
  @Test func aRefusedEditCanBeSentAgainWithItsKey() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let id = try await client.createProduct(token: token, name: "Shelf")["id"] as! String
      let invalid = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: productJSON(name: "", price: "1"),
        headers: ["Idempotency-Key": "k", "If-Match": "\"1\""])
      #expect(invalid.status == .unprocessableEntity)
      let stale = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: productJSON(name: "Shelf 2"),
        headers: ["Idempotency-Key": "k", "If-Match": "\"7\""])
      #expect(stale.status == .preconditionFailed)
      let fixed = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: productJSON(name: "Shelf 2"),
        headers: ["Idempotency-Key": "k", "If-Match": "\"1\""])
      #expect(fixed.status == .ok)
      let missing = try await client.productAPI(
        .PUT, "/api/v1/products/\(UUID().uuidString)", token: token,
        body: productJSON(name: "Nobody"), headers: ["Idempotency-Key": "k2"])
      #expect(missing.status == .notFound)
    }
  }
}

/// One change as a test reads it.
struct FeedChange: Equatable {
  var seq: Int64 = 0
  var id: String
  var deleted: Bool
  var name: String? = nil
  var nameKey: String? = nil
  var typeKey: String? = nil
  var favoritedAt: String? = nil
  var product: [String: Any]? = nil

  init(id: String, deleted: Bool) {
    self.id = id
    self.deleted = deleted
  }

  init(_ json: [String: Any]) throws {
    seq = try #require((json["seq"] as? NSNumber)?.int64Value)
    id = try #require(json["id"] as? String)
    deleted = try #require(json["deleted"] as? Bool)
    product = json["product"] as? [String: Any]
    name = product?["name"] as? String
    nameKey = json["name_key"] as? String
    typeKey = json["type_key"] as? String
    favoritedAt = json["favorited_at"] as? String
  }

  static func == (lhs: FeedChange, rhs: FeedChange) -> Bool {
    lhs.id == rhs.id && lhs.deleted == rhs.deleted && lhs.name == rhs.name
  }
}

struct FeedPage {
  var changes: [FeedChange]
  var cursor: Int64
  var hasMore: Bool
  var reset: Bool
  var format: String
}

extension TestClient {
  func feed(token: String, since: Int64? = nil, limit: Int? = nil) async throws -> FeedPage {
    var query: [String] = []
    if let since { query.append("since=\(since)") }
    if let limit { query.append("limit=\(limit)") }
    let response = try await productAPI(
      .GET, "/api/v1/product-changes" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")),
      token: token)
    #expect(response.status == .ok, "\(response.body)")
    #expect(response.headers.first(name: .cacheControl) == "private, no-store")
    let json = try response.json()
    return FeedPage(
      changes: try (json["changes"] as? [[String: Any]] ?? []).map(FeedChange.init),
      cursor: try #require((json["cursor"] as? NSNumber)?.int64Value),
      hasMore: try #require(json["has_more"] as? Bool),
      reset: try #require(json["reset"] as? Bool),
      format: try #require(json["format"] as? String))
  }
}
