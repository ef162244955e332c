import Fluent
import FluentKit
import Foundation
import GRDB
import GRDBSQLite
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// The reads every request makes first run at once on a reader of the SQLite file's pool
/// (`SQLiteStorage.readNow`): they answer exactly what the model layer's path answers, see
/// every acknowledged write, never write, and give way to that path whenever they cannot read.
@Suite("Short reads")
struct ShortReadTests {
  private func withFile(_ test: (TestApp, SQLiteStorage) async throws -> Void) async throws {
    try await withApp(store: .sqliteFile) { t in
      let storage = try #require((t.db as? SQLiteFluentDatabase)?.readsNow)
      try await test(t, storage)
    }
  }

  /// `body` with the database of a block that holds the writer: there reads take the model
  /// layer's path, never `readNow`.
  private func heldDatabase<T: Sendable>(
    _ t: TestApp, _ body: @escaping @Sendable (any FluentKit.Database) async throws -> T
  ) async throws -> T {
    try await t.db.withConnection { db in
      #expect((db as? SQLiteFluentDatabase)?.readsNow == nil)
      return try await body(db)
    }
  }

  /// Short reads wait for a reader on the thread that runs the request; a model-layer read
  /// must never keep a reader while its task waits for such a thread. Hundreds of both at once,
  /// far more than the pool has readers: every one answers (raced against a minute, so a stall
  /// fails the test instead of hanging it).
  @Test func shortAndModelReadsTogetherNeverStall() async throws {
    try await withFile { t, _ in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for index in 0..<30 { try await client.createProduct(token: token, name: "Item \(index)") }
      let db = t.db
      let hash = secretHash(token)
      let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await withThrowingTaskGroup(of: Void.self) { reads in
            for index in 0..<400 {
              reads.addTask {
                if index.isMultiple(of: 2) {
                  _ = try await ProductRecord.query(on: db).all()
                } else {
                  _ = try await APITokens.account(forHash: hash, on: db)
                }
              }
            }
            try await reads.waitForAll()
          }
          return true
        }
        group.addTask {
          try await Task.sleep(for: .seconds(60))
          return false
        }
        let first = try await group.next() ?? false
        group.cancelAll()
        return first
      }
      #expect(finished, "the reads stalled")
    }
  }

  /// The same at the worst moment: every reader busy with a read whose task will want a thread
  /// when it ends, and then every thread waiting in a short read. The readers must come back
  /// without those threads. A stall here blocks every thread of the test process, so the
  /// watchdog is a thread of its own that stops the process with the reason after a minute.
  @Test func readersComeBackWithoutTheWaitingThreads() async throws {
    try await withFile { _, storage in
      let done = NIOLockedValueBox(false)
      Thread.detachNewThread {
        Thread.sleep(forTimeInterval: 60)
        if !done.withLockedValue({ $0 }) {
          fatalError("readers never came back: short reads waited for threads that reads held")
        }
      }
      try await withThrowingTaskGroup(of: Void.self) { reads in
        for _ in 0..<(SQLiteStorage.maximumReaders * 2) {
          reads.addTask {
            _ = try await storage.read { db in
              Thread.sleep(forTimeInterval: 0.05)
              return try Int.fetchOne(db, sql: "SELECT 1")
            }
          }
        }
        try await Task.sleep(for: .milliseconds(10))
        for _ in 0..<8 {
          reads.addTask { _ = try storage.readNow("SELECT 1 AS one", []) }
        }
        try await reads.waitForAll()
      }
      done.withLockedValue { $0 = true }
    }
  }

  @Test func anInMemoryDatabaseHasNone() async throws {
    let inMemory: (inout AppConfig) -> Void = { $0.database = .sqliteMemory }
    try await withApp(config: inMemory) { t in
      #expect((t.db as? SQLiteFluentDatabase)?.readsNow == nil)
    }
  }

  @Test func theTokenReadAnswersWhatTheModelPathAnswers() async throws {
    try await withFile { t, storage in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Lamp")
      let hash = secretHash(token)
      let viaDriver = try #require(
        try await heldDatabase(t) { try await APITokens.account(forHash: hash, on: $0) })
      let viaDirect = try #require(try await APITokens.account(forHash: hash, on: t.db))
      #expect(viaDirect.tokenID == viaDriver.tokenID)
      #expect(viaDirect.lastUsedAt == viaDriver.lastUsedAt)
      #expect(viaDirect.user.id == viaDriver.user.id)
      #expect(viaDirect.user.email == viaDriver.user.email)
      #expect(viaDirect.user.passwordHash == viaDriver.user.passwordHash)
      #expect(viaDirect.user.createdAt == viaDriver.user.createdAt)
      #expect(viaDirect.user.isAdmin == viaDriver.user.isAdmin)
      #expect(try await APITokens.account(forHash: "0", on: t.db) == nil)
    }
  }

  @Test func theSessionReadAnswersWhatTheModelPathAnswers() async throws {
    try await withFile { t, storage in
      let client = t.client()
      try await client.signUp()
      let secret = try #require(client.cookies[BrowserSession.cookieName])
      let store = BrowserSessionStore(db: t.db)
      let viaDriver = try #require(
        try await heldDatabase(t) { try await BrowserSessionStore(db: $0).find(secret: secret) })
      let viaDirect = try #require(try await store.find(secret: secret))
      #expect(viaDirect.session == viaDriver.session)
      #expect(viaDirect.user.id == viaDriver.user.id)
      #expect(try await store.find(secret: "unknown") == nil)
    }
  }

  /// Each write the driver acknowledges is seen by the next direct read.
  @Test func everyAcknowledgedWriteIsSeenAtOnce() async throws {
    try await withFile { t, storage in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let workspace = try await t.workspaceID(
        ofUser: try #require(try await Accounts.all(on: t.db).first?.requireID()))
      var last = try await ChangeVersions.read(
        .products, workspaceID: workspace, on: t.db)
      for index in 0..<20 {
        try await client.createProduct(token: token, name: "Item \(index)")
        let now = try await ChangeVersions.read(
          .products, workspaceID: workspace, on: t.db)
        #expect(now > last)
        last = now
      }
    }
  }

  @Test func theyNeverWrite() async throws {
    try await withFile { t, storage in
      let client = t.client()
      try await client.signUp()
      #expect(throws: (any Error).self) { try storage.readNow("DELETE FROM users", []) }
      #expect(try await Accounts.all(on: t.db).count == 1)
    }
  }

  /// A statement kept for reuse is only cheaper if SQLite does not prepare it again for every
  /// new value (some SQLite versions do so for a bare parameter compared in a join; the
  /// lookups compare theirs through a cast for that reason).
  @Test func keptStatementsAreNotPreparedAgainForNewValues() async throws {
    try await withFile { t, storage in
      let client = t.client()
      try await client.signUp()
      let path = try #require(storage.path)
      // One connection of its own, so every run meets the same kept statement.
      let queue = try DatabaseQueue(path: path)
      func repreparations(_ sql: String) throws -> Int32 {
        try queue.read { db in
          for index in 0..<5 {
            let statement = try db.cachedStatement(sql: sql)
            let values = (0..<sqlite3_bind_parameter_count(statement.sqliteStatement)).map {
              "x\(index)-\($0)"
            }
            _ = try Row.fetchAll(statement, arguments: StatementArguments(values))
          }
          return reprepareCount(try db.cachedStatement(sql: sql))
        }
      }
      #expect(try repreparations(APITokens.lookup.sql) == 0)
      #expect(try repreparations(BrowserSessionStore.lookup.sql) == 0)
      #expect(try repreparations(ChangeVersions.lookupSQL) == 0)
      try queue.close()
    }
  }

  /// Inside a transaction a read must see the transaction's own writes, so it goes through the
  /// driver on the transaction's connection.
  @Test func aTransactionReadsItsOwnWrites() async throws {
    try await withFile { t, storage in
      let client = t.client()
      try await client.signUp()
      let workspace = try await t.workspaceID(
        ofUser: try #require(try await Accounts.all(on: t.db).first?.requireID()))
      let seen = try await t.db.transaction { db in
        let sql = try db.sql()
        try await sql.raw(
          """
          INSERT INTO change_versions (workspace_id, area, version) VALUES (\(bind: workspace), 'products', 41)
          ON CONFLICT (workspace_id, area) DO UPDATE SET version = 41
          """
        ).run()
        return try await ChangeVersions.read(
          .products, workspaceID: workspace, on: db)
      }
      #expect(seen == 41)
    }
  }

  /// A short read SQLite refuses on a reader (here a table it does not know) gives way to the
  /// model layer's path, which answers with the real error.
  @Test func whatCannotBeReadNowTakesTheModelPath() async throws {
    try await withFile { t, storage in
      #expect(throws: (any Error).self) { try storage.readNow("SELECT * FROM no_such_table", []) }
      await #expect(throws: (any Error).self) {
        try await ShortRead("SELECT * FROM no_such_table WHERE a = ?1").first(on: t.db, ["x"])
      }
    }
  }

  /// The same statement text runs on both databases: `?1` becomes PostgreSQL's own binds.
  @Test func aShortReadRunsThroughTheDriverToo() async throws {
    try await withApp { t in
      let read = ShortRead("SELECT ?1 AS a, CAST(?2 AS TEXT) AS b, '?' AS c")
      let row = try #require(try await read.first(on: t.db, ["one", "two"]))
      #expect(try row.decode(column: "a", as: String.self) == "one")
      #expect(try row.decode(column: "b", as: String.self) == "two")
      #expect(try row.decode(column: "c", as: String.self) == "?")
    }
  }
}

/// The product listing's reads (pages, filtered totals, category chips, favourites) run at
/// once on a reader and answer exactly what the model layer's path answers.
@Suite("Short reads: product listing")
struct DirectProductListingTests {
  @Test func everyPageFilterAndSortAnswersWhatTheModelPathAnswers() async throws {
    try await withApp(store: .sqliteFile) { t in
      #expect((t.db as? SQLiteFluentDatabase)?.readsNow != nil)
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
        ofUser: try #require(try await Accounts.all(on: t.db).first?.requireID()))
      var held = try #require(t.db as? SQLiteFluentDatabase)
      let hold = await held.storage.heldWriterForTest()
      defer { hold.release() }
      held.access = .writer(hold.writer)
      let viaDriver = ProductStore(db: held, workspaceID: workspace, viewerID: nil)
      let viaDirect = ProductStore(db: t.db, workspaceID: workspace, viewerID: nil)

      func same(_ a: ProductStore.Slice, _ b: ProductStore.Slice) {
        #expect(a.total == b.total)
        #expect(a.items == b.items)
      }

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
      #expect(compared > 0)
      #expect(try await viaDirect.list(.init(), page: 1, per: 50).items.count == names.count)
    }
  }
}

/// How often SQLite prepared `statement` again since it was first prepared.
private func reprepareCount(_ statement: Statement) -> Int32 {
  sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
}
