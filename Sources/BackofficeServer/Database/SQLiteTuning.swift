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
/// No `busy_timeout`: SQLite's sleeping wait backs off to 100 ms naps, and as each event loop
/// has one connection, every request of a loop whose connection naps waits with it. Measured
/// with 32 clients creating products, that doubled throughput but put the slowest 1 % at over a
/// second; the driver's immediate retry keeps them near 140 ms (docs/PERFORMANCE.md). One
/// writer for the whole process is what removes the wait altogether.
enum SQLiteTuning {
  /// The statements run on every connection to a database file, in order.
  static let statements = ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"]
}

extension Application {
  /// Sets up the SQLite connection of every event loop. The pool keeps one connection per
  /// event loop for the life of the app, so each is set up once, here, before anything else
  /// uses it.
  func tuneSQLiteConnections() async throws {
    for loop in eventLoopGroup.makeIterator() {
      guard let database = databases.database(.sqlite, logger: logger, on: loop) else { continue }
      try await database.withConnection { connection in
        guard let sql = connection as? any SQLDatabase else {
          return connection.eventLoop.makeSucceededVoidFuture()
        }
        let promise = connection.eventLoop.makePromise(of: Void.self)
        promise.completeWithTask {
          for statement in SQLiteTuning.statements {
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
