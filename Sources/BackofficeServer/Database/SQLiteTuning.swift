import Fluent
import FluentSQLiteDriver
import SQLKit
import Vapor

/// How every SQLite connection of the server is set up before its first query.
///
/// - `journal_mode = WAL`: readers never wait for the writer and the writer never waits for
///   readers; a commit appends to the log instead of rewriting pages through a rollback
///   journal. Kept in the database file, so it is set once.
/// - `synchronous = NORMAL`: in WAL mode a commit is not flushed to the disk on its own; it
///   survives the process being killed at any moment (the crash tests prove it), and only a
///   power cut or an operating-system crash can lose the last commits before a checkpoint.
///
/// - `busy_timeout`: a connection that meets another writer's lock sleeps and tries again
///   instead of the driver's immediate retry, which spins a processor core. In this process
///   it never happens: every write waits its turn at the `WriteGate` before it touches a
///   connection, so only another process on the same file (a CLI command, a second server) is
///   ever waited for this way. Before the gate, the sleeping wait had been measured to put the
///   slowest 1 % of 32 clients' creations over a second (a napping connection held its event
///   loop's other requests); the gate is what made it safe (docs/PERFORMANCE.md).
enum SQLiteTuning {
  /// The statements run on every connection to a database file, in order.
  static func statements(busyTimeout: Int) -> [String] {
    [
      "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL",
      "PRAGMA busy_timeout = \(max(0, busyTimeout))",
    ]
  }
}

extension Application {
  /// Sets up the SQLite connection of every event loop. The pool keeps one connection per
  /// event loop for the life of the app, so each is set up once, here, before anything else
  /// uses it.
  func tuneSQLiteConnections(busyTimeout: Int) async throws {
    for loop in eventLoopGroup.makeIterator() {
      guard let database = databases.database(.sqlite, logger: logger, on: loop) else { continue }
      try await database.withConnection { connection in
        guard let sql = connection as? any SQLDatabase else {
          return connection.eventLoop.makeSucceededVoidFuture()
        }
        let promise = connection.eventLoop.makePromise(of: Void.self)
        promise.completeWithTask {
          for statement in SQLiteTuning.statements(busyTimeout: busyTimeout) {
            try await sql.raw(SQLQueryString(statement)).run()
          }
        }
        return promise.futureResult
      }.get()
    }
  }

  /// What one connection of `loop` reports for `pragma`, for tests and diagnostics.
  func sqlitePragma(_ pragma: String, on loop: any EventLoop) async throws -> String? {
    guard let database = databases.database(.sqlite, logger: logger, on: loop) as? any SQLDatabase
    else { return nil }
    let row = try await database.raw("PRAGMA \(unsafeRaw: pragma)").first()
    guard let row, let column = row.allColumns.first else { return nil }
    if let text = try? row.decode(column: column, as: String.self) { return text }
    return (try? row.decode(column: column, as: Int.self)).map(String.init)
  }
}
