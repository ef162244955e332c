import Fluent
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLiteKit
import SQLiteNIO
import Vapor

/// Write transactions run whole on one thread of their own, over one connection that keeps
/// its prepared statements: the counterpart of `SQLiteDirectReads` for the busiest write,
/// product creation through the API.
///
/// Through the driver, each statement of a transaction is handed to its thread pool and back
/// and prepared again; a creation's eight statements cost more in those hand-offs and in the
/// model layer than in SQLite (docs/PERFORMANCE.md). Here a transaction is one hand-off: the
/// caller's closure runs on the writer's thread between `BEGIN IMMEDIATE` and `COMMIT`, and
/// the caller resumes only after the commit, so an acknowledged write is as durable as the
/// driver's (WAL, `synchronous = NORMAL`, foreign keys on, as the driver's connections). The
/// writer waits for another connection's write lock by sleeping (on its own thread, that
/// blocks nobody), up to `lockWait`.
final class SQLiteDirectWriter: Sendable {
  let path: String
  /// The app's one writer lane, shared with the driver's connections (`WriteGate`).
  let gate: WriteGate?
  private let thread: NIOThreadPool
  private let connection: NIOLockedValueBox<SQLiteDirectReads.Connection?>
  static let lockWait: Int32 = 10_000
  static let setUp = [
    "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON",
  ]

  init(path: String, gate: WriteGate?) {
    self.path = path
    self.gate = gate
    thread = NIOThreadPool(numberOfThreads: 1)
    thread.start()
    connection = NIOLockedValueBox(nil)
  }

  func shutdown() async {
    try? await thread.shutdownGracefully()
    connection.withLockedValue { $0?.close() }
  }

  struct Unavailable: Error, CustomStringConvertible {
    var description: String { "The SQLite file could not be opened for writing." }
  }

  /// `body`'s value after its writes are committed; nothing is written when it throws.
  func transaction<T: Sendable>(
    on eventLoop: any EventLoop,
    _ body: @escaping @Sendable (SQLiteDirectReads.Connection) throws -> T
  ) async throws -> T {
    let path = path
    let connection = connection
    let thread = thread
    return try await gate.run {
      try await thread.runIfActive(eventLoop: eventLoop) {
        try connection.withLockedValue { kept in
          if kept == nil {
            kept = SQLiteDirectReads.Connection.open(path: path, setUp: Self.setUp)
            kept?.waitForLocks(milliseconds: Self.lockWait)
          }
          guard let writer = kept else { throw Unavailable() }
          try writer.run("BEGIN IMMEDIATE")
          do {
            let value = try body(writer)
            try writer.run("COMMIT")
            return value
          } catch {
            // A failed COMMIT leaves the transaction open as well.
            _ = try? writer.run("ROLLBACK")
            throw error
          }
        }
      }.get()
    }
  }
}

extension Application {
  private struct DirectWriterKey: StorageKey {
    typealias Value = SQLiteDirectWriter
  }

  /// The direct writer of the SQLite file, when the app stores its data in one.
  var directWriter: SQLiteDirectWriter? {
    get { storage[DirectWriterKey.self] }
    set { storage[DirectWriterKey.self] = newValue }
  }
}

/// Shuts the writer's thread down with the app.
struct DirectWriterLifecycle: LifecycleHandler {
  func shutdownAsync(_ application: Application) async {
    await application.directWriter?.shutdown()
  }
}
