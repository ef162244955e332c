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
/// - `busy_timeout`: a connection that finds another one writing sleeps and retries until the
///   deadline, instead of the driver's default of retrying at once in a tight loop.
enum SQLiteTuning {
  static let busyTimeoutMilliseconds = 5_000

  /// The statements run on every connection, in order.
  static func statements(file: Bool) -> [String] {
    (file ? ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"] : [])
      + ["PRAGMA busy_timeout = \(busyTimeoutMilliseconds)"]
  }
}

extension Application {
  /// Sets up the SQLite connection of every event loop. The pool keeps one connection per
  /// event loop for the life of the app, so each is set up once, here, before anything else
  /// uses it.
  func tuneSQLiteConnections(file: Bool) async throws {
    for loop in eventLoopGroup.makeIterator() {
      guard let database = databases.database(.sqlite, logger: logger, on: loop) else { continue }
      try await database.withConnection { connection in
        guard let sql = connection as? any SQLDatabase else {
          return connection.eventLoop.makeSucceededVoidFuture()
        }
        let promise = connection.eventLoop.makePromise(of: Void.self)
        promise.completeWithTask {
          for statement in SQLiteTuning.statements(file: file) {
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
    let row = try await database.raw(SQLQueryString("PRAGMA \(pragma)")).first()
    guard let row, let column = row.allColumns.first else { return nil }
    if let text = try? row.decode(column: column, as: String.self) { return text }
    return (try? row.decode(column: column, as: Int.self)).map(String.init)
  }
}
