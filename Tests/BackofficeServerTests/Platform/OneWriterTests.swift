import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// Every write to SQLite in the process waits in GRDB's one queue for its one writer
/// connection, whatever made it; reads never wait for it; nothing spins or naps on SQLite's
/// lock.
@Suite("One writer for SQLite")
struct OneWriterTests {
  /// Waits until `count` callers wait for the writer; gives up (and fails) only after a
  /// minute, so a write that does not wait fails the test instead of hanging it.
  private func waitUntil(
    _ storage: SQLiteStorage, waiting count: Int,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    for _ in 0..<60_000 where storage.waitingForWriter < count {
      try? await Task.sleep(for: .milliseconds(1))
    }
    #expect(storage.waitingForWriter >= count, sourceLocation: sourceLocation)
  }

  @Test func onlySQLiteHasTheOneWriter() async throws {
    try await withApp { t in
      #expect((t.app.sqliteStorage != nil) == !isPostgresRun)
    }
  }

  @Test(arguments: TestStore.allCases)
  func writesWaitForTheWriterAndReadsDoNot(store: TestStore) async throws {
    try await withApp(store: store) { t in
      guard let storage = t.app.sqliteStorage else { return }  // PostgreSQL: no one writer
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let auth: HTTPHeaders = [
        "Authorization": "Bearer \(token)", "Content-Type": "application/json",
      ]
      // The token's first use writes its "last used" time (then once a minute at most, and the
      // test clock stands still): done before the writer is held.
      #expect(try await t.client().send(.GET, "/api/v1/expenses", headers: auth).status == .ok)

      let release = await storage.holdWriterForTest()
      let writes = Task {
        try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
          group.addTask {
            try await t.client().send(
              .POST, "/api/v1/expenses", headers: auth, body: #"{"title":"Held","amount":"1.00"}"#
            ).status
          }
          group.addTask {
            try await t.client().send(
              .POST, "/api/v1/products", headers: auth, body: productJSON(name: "Held")
            ).status
          }
          var statuses: [HTTPStatus] = []
          for try await status in group { statuses.append(status) }
          return statuses
        }
      }
      // Both writes (one through the model layer, one a store's closure on the writer) are in
      // line behind the held writer, and nothing of theirs is in the database.
      await waitUntil(storage, waiting: 2)
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
      // Reads go on meanwhile.
      let list = try await t.client().send(.GET, "/api/v1/expenses", headers: auth)
      #expect(list.status == .ok)
      release()
      let statuses = try await writes.value
      #expect(statuses.allSatisfy { $0 == .created }, "\(statuses.map(\.code))")
      #expect(try await ExpenseTable.query(on: t.db).count() == 1)
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
    }
  }

  @Test func everyKindOfWriteWaitsForTheWriter() async throws {
    try await withApp { t in
      guard let storage = t.app.sqliteStorage else { return }
      let db = t.db
      let sql = try db.sql()
      let release = await storage.holdWriterForTest()
      let kinds: [@Sendable () async throws -> Void] = [
        { try await LoginAttemptTable(key: "model create", attemptedAt: Date()).create(on: db) },
        { try await LoginAttemptTable.query(on: db).set(\.$key, to: "x").update() },
        { try await LoginAttemptTable.query(on: db).filter(\.$key == "none").delete() },
        { try await db.transaction { _ in } },
        { try await db.withConnection { _ in db.eventLoop.makeSucceededVoidFuture() }.get() },
        {
          try await sql.insert(into: "login_attempts").columns("id", "key", "attempted_at")
            .values(SQLBind(UUID()), SQLBind("sql insert"), SQLBind(Date())).run()
        },
        {
          try await sql.update("login_attempts").set("key", to: "y").where("key", .equal, "z").run()
        },
        { try await sql.delete(from: "login_attempts").where("key", .equal, "z").run() },
        { try await sql.raw("UPDATE login_attempts SET key = 'w' WHERE key = 'v'").run() },
        { try await sql.raw("  delete from login_attempts where 0").run() },
      ]
      let tasks = kinds.map { kind in Task { try await kind() } }
      await waitUntil(storage, waiting: kinds.count)
      // Reads of every kind pass meanwhile.
      #expect(try await LoginAttemptTable.query(on: db).count() == 0)
      _ = try await LoginAttemptTable.query(on: db).all()
      _ = try await sql.select().column("id").from("login_attempts").all()
      _ = try await sql.raw("SELECT count(*) FROM login_attempts").all()
      #expect(storage.waitingForWriter == kinds.count)
      release()
      for task in tasks { try await task.value }
      #expect(storage.waitingForWriter == 0)
      #expect(try await LoginAttemptTable.query(on: db).count() == 2)
    }
  }

  @Test func aTransactionsOwnStatementsAndNestedTransactionsDoNotWaitForThemselves() async throws {
    try await withApp { t in
      let db = t.db
      let keys = try await db.transaction { db in
        try await LoginAttemptTable(key: "outer", attemptedAt: Date()).create(on: db)
        try await db.transaction { inner in
          try await LoginAttemptTable.query(on: inner).set(\.$key, to: "inner").update()
        }
        return try await LoginAttemptTable.query(on: db).all().map(\.key).sorted()
      }
      #expect(keys == ["inner"])
    }
  }

  /// A transaction begun through another handle inside a transaction this task holds is a
  /// savepoint of it: it neither waits for itself nor begins a second transaction, and when
  /// it fails only its own writes are taken back.
  @Test func aTransactionInsideAnotherThroughASharedHandleIsASavepoint() async throws {
    try await withApp { t in
      // PostgreSQL: the shared handle asks its pool for another connection (its own
      // transaction); the test's pool has one.
      guard t.app.sqliteStorage != nil else { return }
      let db = t.db
      try await db.transaction { outer in
        try await LoginAttemptTable(key: "outer", attemptedAt: Date()).create(on: outer)
        try await db.transaction { inner in
          try await LoginAttemptTable(key: "inner", attemptedAt: Date()).create(on: inner)
        }
        struct Failed: Error {}
        await #expect(throws: Failed.self) {
          try await db.transaction { inner in
            try await LoginAttemptTable(key: "taken back", attemptedAt: Date()).create(on: inner)
            throw Failed()
          }
        }
      }
      let keys = try await LoginAttemptTable.query(on: db).all().map(\.key).sorted()
      #expect(keys == ["inner", "outer"])
    }
  }

  /// A short write (an activity line) made through the shared handle inside a transaction
  /// joins it: stored with it, or taken back with it.
  @Test func aShortWriteInsideATransactionJoinsIt() async throws {
    try await withApp { t in
      // PostgreSQL: the shared handle writes on a connection of its own.
      guard t.app.sqliteStorage != nil else { return }
      let db = t.db
      let insert = ShortRead(
        "INSERT INTO login_attempts (id, key, attempted_at) VALUES (?1, ?2, ?3)")
      try await db.transaction { _ in
        try await ShortWrite.run([ShortWrite(insert, [UUID(), "kept", Date()])], on: db)
      }
      struct Failed: Error {}
      await #expect(throws: Failed.self) {
        try await db.transaction { _ in
          try await ShortWrite.run([ShortWrite(insert, [UUID(), "undone", Date()])], on: db)
          throw Failed()
        }
      }
      let keys = try await LoginAttemptTable.query(on: db).all().map(\.key)
      #expect(keys == ["kept"])
    }
  }

  /// A statement through a transaction's handle after its block ended fails instead of being
  /// written on its own.
  @Test func aTransactionsHandleFailsAfterItsBlock() async throws {
    try await withApp { t in
      guard t.app.sqliteStorage != nil else { return }  // PostgreSQL: its driver's rules
      let leftOver = try await t.db.transaction { db in db }
      await #expect(throws: HeldWriter.Ended.self) {
        try await LoginAttemptTable(key: "late", attemptedAt: Date()).create(on: leftOver)
      }
      #expect(try await LoginAttemptTable.query(on: t.db).count() == 0)
    }
  }

  /// With SQLite's own waiting turned off, a writer that met another connection's lock would
  /// fail at once ("database is locked"): every one of these parallel writes of every kind
  /// succeeding shows that none met another.
  @Test func parallelWritesOfEveryKindNeverMeetALock() async throws {
    let noWaiting: (inout AppConfig) -> Void = { $0.sqliteBusyTimeoutMilliseconds = 0 }
    try await withApp(store: .sqliteFile, config: noWaiting) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let auth: HTTPHeaders = [
        "Authorization": "Bearer \(token)", "Content-Type": "application/json",
      ]
      let timeouts = try await t.app.sqlitePragmas("busy_timeout")
      #expect(timeouts.first == "0")
      let failures = try await withThrowingTaskGroup(of: String?.self) { group in
        for index in 0..<24 {
          group.addTask {
            let client = t.client()
            let created = try await client.send(
              .POST, "/api/v1/products", headers: auth,
              body: productJSON(name: "P\(index)"))
            guard created.status == .created, let id = try? created.json()["id"] as? String else {
              return "create product \(created.status.code) \(created.body)"
            }
            let expense = try await client.send(
              .POST, "/api/v1/expenses", headers: auth,
              body: #"{"title":"E\#(index)","amount":"2.00"}"#)
            guard expense.status == .created else { return "expense \(expense.status.code)" }
            let changed = try await client.send(
              .PUT, "/api/v1/products/\(id)", headers: auth,
              body: productJSON(name: "Q\(index)"))
            guard changed.status == .ok else {
              return "edit \(changed.status.code) \(changed.body)"
            }
            let favourite = try await client.send(
              .PUT, "/api/v1/favorites/\(id)", headers: auth)
            guard favourite.status.code < 300 else { return "favourite \(favourite.status.code)" }
            let link = try await client.send(
              .POST, "/api/v1/ad-payments", headers: auth,
              body: #"{"name":"L\#(index)","url":"https://example.com/\#(index)"}"#)
            guard link.status == .created else { return "ad payment \(link.status.code)" }
            if index.isMultiple(of: 2) {
              let gone = try await client.send(.DELETE, "/api/v1/products/\(id)", headers: auth)
              guard gone.status.code < 300 else { return "delete \(gone.status.code)" }
            }
            return nil
          }
        }
        var failures: [String] = []
        for try await failure in group { if let failure { failures.append(failure) } }
        return failures
      }
      #expect(failures.isEmpty, "\(failures)")
      #expect(try await ProductRecord.query(on: t.db).count() == 12)
      #expect(try await ExpenseTable.query(on: t.db).count() == 24)
    }
  }

  @Test func connectionsSleepForAnotherProcessesLock() async throws {
    try await withApp(store: .sqliteFile) { t in
      // The writer's; GRDB's readers never meet a lock in WAL mode but while SQLite recovers
      // the log, and wait for that on their own terms.
      let timeouts = try await t.app.sqlitePragmas("busy_timeout")
      #expect(timeouts.first == "5000")
    }
  }
}

/// A backup reads one consistent snapshot without holding writers up, and cannot write.
@Suite("One writer for SQLite: reading transactions")
struct ReadTransactionTests {
  @Test(arguments: TestStore.allCases)
  func aBackupDoesNotWaitForTheWriterAndCannotWrite(store: TestStore) async throws {
    try await withApp(store: store) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Lamp")
      let user = try #require(try await Accounts.all(on: t.db).first?.requireID())
      let workspace = try await t.workspaceID(ofUser: user)
      guard let storage = t.app.sqliteStorage else { return }  // PostgreSQL: a plain transaction

      // While a transaction holds the writer, the export still runs to the end.
      let release = await storage.holdWriterForTest()
      // Raced against a minute, so an export that waits fails instead of hanging the run.
      let db = t.db
      let now = t.clock.now
      let backup = try await withThrowingTaskGroup(of: AccountBackup?.self) { group in
        group.addTask {
          try await AccountBackup.export(workspaceID: workspace, person: user, on: db, now: now)
        }
        group.addTask {
          try await Task.sleep(for: .seconds(60))
          release()  // lets a waiting export finish, so the group can end
          return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
      }
      release()
      #expect(backup?.products.items.map(\.name) == ["Lamp"], "the export waited for the writer")

      await #expect(throws: ReadOnlyTransaction.self) {
        try await t.db.readTransaction { db in
          try await LoginAttemptTable(key: "read-only", attemptedAt: Date()).create(on: db)
        }
      }
      #expect(
        try await LoginAttemptTable.query(on: t.db).filter(\.$key == "read-only").count() == 0)
    }
  }
}
