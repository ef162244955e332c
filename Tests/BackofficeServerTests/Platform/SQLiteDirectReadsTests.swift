import Fluent
import Foundation
import SQLKit
import SQLiteNIO
import Testing
import Vapor

@testable import BackofficeServer

/// The reads every request makes first run directly on an SQLite file: they answer exactly
/// what the driver answers, see every acknowledged write, never write, keep their statements,
/// and fall back to the driver whenever they cannot read.
@Suite("SQLite direct reads")
struct SQLiteDirectReadsTests {
  private func withFile(_ test: (TestApp, SQLiteDirectReads) async throws -> Void) async throws {
    try await withApp(store: .sqliteFile) { t in
      let direct = try #require(t.app.directReads)
      try await test(t, direct)
    }
  }

  private func noDirectReads(_ t: TestApp) {
    #expect(t.app.directReads == nil)
  }

  @Test func anInMemoryDatabaseHasNone() async throws {
    try await withApp(config: { $0.database = .sqliteMemory }, noDirectReads)
  }

  @Test func theyCanBeTurnedOff() async throws {
    try await withApp(store: .sqliteFile, config: { $0.directReads = false }, noDirectReads)
  }

  @Test func theTokenReadAnswersWhatTheDriverAnswers() async throws {
    try await withFile { t, direct in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Lamp")
      let hash = secretHash(token)
      let viaDriver = try #require(
        try await APITokens.account(forHash: hash, on: t.db, direct: nil))
      let viaDirect = try #require(
        try await APITokens.account(forHash: hash, on: t.db, direct: direct))
      #expect(viaDirect.tokenID == viaDriver.tokenID)
      #expect(viaDirect.lastUsedAt == viaDriver.lastUsedAt)
      #expect(viaDirect.user.id == viaDriver.user.id)
      #expect(viaDirect.user.email == viaDriver.user.email)
      #expect(viaDirect.user.passwordHash == viaDriver.user.passwordHash)
      #expect(viaDirect.user.createdAt == viaDriver.user.createdAt)
      #expect(viaDirect.user.isAdmin == viaDriver.user.isAdmin)
      #expect(viaDirect.versions == viaDriver.versions)
      #expect((viaDirect.versions[.products] ?? 0) > 0)
      // The direct read really ran (its connection is back in the idle list).
      #expect(direct.idleCount >= 1)
      #expect(try await APITokens.account(forHash: "0", on: t.db, direct: direct) == nil)
    }
  }

  @Test func theSessionReadAnswersWhatTheDriverAnswers() async throws {
    try await withFile { t, direct in
      let client = t.client()
      try await client.signUp()
      let secret = try #require(client.cookies[BrowserSession.cookieName])
      let store = BrowserSessionStore(db: t.db)
      let viaDriver = try #require(try await store.find(secret: secret))
      let viaDirect = try #require(try await store.find(secret: secret, direct: direct))
      #expect(viaDirect.session == viaDriver.session)
      #expect(viaDirect.user.id == viaDriver.user.id)
      #expect(try await store.find(secret: "unknown", direct: direct) == nil)
    }
  }

  /// Each write the driver acknowledges is seen by the next direct read.
  @Test func everyAcknowledgedWriteIsSeenAtOnce() async throws {
    try await withFile { t, direct in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let workspace = try await t.workspaceID(
        ofUser: try #require(try await User.query(on: t.db).first()?.requireID()))
      var last = try await ChangeVersions.read(
        .products, workspaceID: workspace, on: t.db, direct: direct)
      for index in 0..<20 {
        try await client.createProduct(token: token, name: "Item \(index)")
        let now = try await ChangeVersions.read(
          .products, workspaceID: workspace, on: t.db, direct: direct)
        #expect(now > last)
        last = now
      }
      #expect(direct.idleCount >= 1)
    }
  }

  @Test func theyNeverWrite() async throws {
    try await withFile { t, direct in
      let client = t.client()
      try await client.signUp()
      #expect(direct.rows("DELETE FROM users", []) == nil)
      #expect(try await User.query(on: t.db).count() == 1)
    }
  }

  /// A statement kept for reuse is only cheaper if SQLite does not prepare it again for every
  /// new value: the lookups compare their parameter through a cast for that reason.
  @Test func keptStatementsAreNotPreparedAgainForNewValues() async throws {
    try await withFile { t, direct in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let secret = try #require(client.cookies[BrowserSession.cookieName])
      for index in 0..<5 {
        _ = try await APITokens.account(
          forHash: index == 0 ? secretHash(token) : "\(index)", on: t.db, direct: direct)
        _ = try await BrowserSessionStore(db: t.db).find(
          secret: index == 0 ? secret : "x\(index)", direct: direct)
      }
      #expect(direct.repreparations(of: APITokens.lookup.sql) == 0)
      #expect(direct.repreparations(of: BrowserSessionStore.lookup.sql) == 0)
      // The same join with a bare parameter is prepared again every time.
      let bare = APITokens.lookup.sql.replacingOccurrences(of: "CAST(?1 AS TEXT)", with: "?1")
      for index in 0..<5 { _ = direct.rows(bare, [.text("\(index)")]) }
      #expect(direct.repreparations(of: bare) >= 4)
    }
  }

  /// Inside a transaction a read must see the transaction's own writes, so it goes through the
  /// driver on the transaction's connection.
  @Test func aTransactionReadsItsOwnWrites() async throws {
    try await withFile { t, direct in
      let client = t.client()
      try await client.signUp()
      let workspace = try await t.workspaceID(
        ofUser: try #require(try await User.query(on: t.db).first()?.requireID()))
      let seen = try await t.db.transaction { db in
        let sql = try #require(db as? any SQLDatabase)
        try await sql.raw(
          """
          INSERT INTO change_versions (workspace_id, area, version) VALUES (\(bind: workspace), 'products', 41)
          ON CONFLICT (workspace_id, area) DO UPDATE SET version = 41
          """
        ).run()
        return try await ChangeVersions.read(
          .products, workspaceID: workspace, on: db, direct: direct)
      }
      #expect(seen == 41)
    }
  }

  /// A direct read that cannot be made (no such file, a missing table) answers nil and the
  /// lookup reads through the driver instead.
  @Test func whatCannotBeReadDirectlyIsReadThroughTheDriver() async throws {
    try await withFile { t, _ in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let broken = SQLiteDirectReads(
        path: "/nonexistent-\(UUID().uuidString)/data.sqlite", logger: t.app.logger)
      #expect(broken.rows("SELECT 1", []) == nil)
      let found = try await APITokens.account(
        forHash: secretHash(token), on: t.db, direct: broken)
      #expect(found != nil)
      let direct = try #require(t.app.directReads)
      #expect(direct.rows("SELECT * FROM no_such_table", []) == nil)
    }
  }

  /// The same statement text runs on both stores: `?1` becomes the driver's own binds.
  @Test func aShortReadRunsThroughTheDriverToo() async throws {
    try await withApp { t in
      let read = ShortRead("SELECT ?1 AS a, CAST(?2 AS TEXT) AS b, '?' AS c")
      let row = try #require(try await read.first(on: t.db, direct: nil, ["one", "two"]))
      #expect(try row.decode(column: "a", as: String.self) == "one")
      #expect(try row.decode(column: "b", as: String.self) == "two")
      #expect(try row.decode(column: "c", as: String.self) == "?")
    }
  }
}

/// The product listing's reads (pages, filtered totals, category chips, favourites) run
/// directly on a SQLite file and answer exactly what the driver answers.
@Suite("SQLite direct reads: product listing")
struct DirectProductListingTests {
  @Test func everyPageFilterAndSortAnswersWhatTheDriverAnswers() async throws {
    try await withApp(store: .sqliteFile) { t in
      let direct = try #require(t.app.directReads)
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let names = [
        "Lamp", "lamp shade", "Écran", "ecran 2", "Desk", "Zebra", "Ärmel", "a", "Lampe",
      ]
      let types = ["Product", "service", "Service", "Furniture"]
      var ids: [String] = []
      for (index, name) in names.enumerated() {
        let created = try await client.createProduct(
          token: token, name: name, type: types[index % types.count],
          price: "\(index % 3).\(index)9", tax: "\(index * 2)")
        ids.append(try #require(created["id"] as? String))
      }
      for id in ids.prefix(4) {
        let marked = try await client.productAPI(.PUT, "/api/v1/favorites/\(id)", token: token)
        #expect(marked.status.code < 300)
      }
      let workspace = try await t.workspaceID(
        ofUser: try #require(try await User.query(on: t.db).first()?.requireID()))
      let gated = try #require(t.db as? GatedDatabase)
      let viaDriver = ProductStore(
        db: GatedDatabase(base: gated.base, gate: gated.gate, direct: nil), workspaceID: workspace,
        viewerID: nil)
      let viaDirect = ProductStore(db: t.db, workspaceID: workspace, viewerID: nil)

      func same(_ a: ProductStore.Slice, _ b: ProductStore.Slice) {
        #expect(a.total == b.total)
        #expect(a.favorites == b.favorites)
        #expect(a.items.count == b.items.count)
        for (x, y) in zip(a.items, b.items) {
          #expect(x.id == y.id && x.number == y.number && x.name == y.name)
          #expect(x.nameKey == y.nameKey && x.type == y.type && x.typeKey == y.typeKey)
          #expect(x.priceMinor == y.priceMinor && x.taxMinor == y.taxMinor)
          #expect(x.photoETag == y.photoETag && x.version == y.version)
          #expect(x.createdAt == y.createdAt && x.updatedAt == y.updatedAt)
        }
      }

      let before = direct.served
      var compared = 0
      for search in ["", "l", "LAMP", "ecr", "é", "zz", "%", "a"] {
        for typeKey in [nil, "", "service", "product", "nothing"] {
          for sort in ProductStore.Sort.allCases {
            for (page, per) in [(1, 3), (2, 3), (4, 3), (1, 50), (Int.max, 20)] {
              let filter = ProductStore.Filter(search: search, typeKey: typeKey, sort: sort)
              same(
                try await viaDirect.list(filter, page: page, per: per),
                try await viaDriver.list(filter, page: page, per: per))
              compared += 1
            }
          }
        }
      }
      #expect(try await viaDirect.chips() == (try await viaDriver.chips()))
      for (page, per) in [(1, 2), (2, 2), (3, 2), (1, 10)] {
        same(
          try await viaDirect.favorites(page: page, per: per),
          try await viaDriver.favorites(page: page, per: per))
      }
      // The direct side really read directly (pages, filtered totals past the end, chips).
      #expect(direct.served - before >= compared)
      #expect(try await viaDirect.list(.init(), page: 1, per: 50).items.count == names.count)
    }
  }
}
