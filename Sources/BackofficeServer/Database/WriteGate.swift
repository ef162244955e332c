import Fluent
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// The turn of a writer on the SQLite file: a model-layer transaction holds it from `BEGIN`
/// to `COMMIT` (it awaits between its statements, each a separate visit to GRDB's writer),
/// and every other write waits for it in line, without using the processor
/// (`SQLiteStorage`). PostgreSQL locks rows, not the database: it has no gate.
final class WriteGate: Sendable {
  private struct Line {
    var busy = false
    var waiting: [@Sendable () -> Void] = []
  }
  private let line = NIOLockedValueBox(Line())

  /// Set while a task holds the gate, so the writes nested in its turn (a transaction's
  /// statements, a store called from inside another's transaction) do not wait for themselves.
  @TaskLocal static var held = false

  /// Runs `work` once every earlier caller's work has finished, in the order they came; at once
  /// when this task already holds the gate.
  /// `recordingWait: false` for a caller that records its writes' waits itself (the group
  /// commit of `SQLiteStorage.write`).
  func run<T>(recordingWait: Bool = true, _ work: () async throws -> T) async rethrows -> T {
    if Self.held { return try await work() }
    let asked = DispatchTime.now().uptimeNanoseconds
    await withCheckedContinuation { turn in whenFree { turn.resume() } }
    if recordingWait { Self.recordWait(since: asked) }
    defer { leave() }
    return try await Self.$held.withValue(true) { try await work() }
  }

  /// The same for work written with futures: `work` starts when the caller's turn has come,
  /// and the turn ends when its future completes.
  func run<T: Sendable>(
    on eventLoop: any EventLoop, _ work: @escaping @Sendable () -> EventLoopFuture<T>
  ) -> EventLoopFuture<T> {
    let result = eventLoop.makePromise(of: T.self)
    let asked = DispatchTime.now().uptimeNanoseconds
    whenFree {
      Self.recordWait(since: asked)
      let future = work()
      future.whenComplete { _ in self.leave() }
      result.completeWith(future)
    }
    return result.futureResult
  }

  /// How long a write waited for its turn (`backoffice_db_write_wait_seconds`).
  static func recordWait(since asked: UInt64) {
    AppMetrics.shared.writeWait.recordNanoseconds(
      Int64(DispatchTime.now().uptimeNanoseconds &- asked))
  }

  /// Calls `go` now if nobody holds the gate, or when every earlier caller has left.
  private func whenFree(_ go: @escaping @Sendable () -> Void) {
    let now = line.withLockedValue { line in
      if line.busy {
        line.waiting.append(go)
        return false
      }
      line.busy = true
      return true
    }
    if now { go() }
  }

  /// Ends the current turn, handing the gate to the next caller in line.
  private func leave() {
    let next = line.withLockedValue { line -> (@Sendable () -> Void)? in
      if line.waiting.isEmpty {
        line.busy = false
        return nil
      }
      return line.waiting.removeFirst()
    }
    next?()
  }

  /// How many callers are waiting for their turn now (for tests).
  var queued: Int { line.withLockedValue { $0.waiting.count } }
}

extension Database {
  /// A transaction for reads that need one consistent view (a backup): on a SQLite file a
  /// snapshot that does not hold up writers (`SQLiteFluentDatabase.readTransaction`);
  /// elsewhere a plain transaction.
  func readTransaction<T: Sendable>(
    _ body: @escaping @Sendable (any Database) async throws -> T
  ) async throws -> T {
    if let sqlite = self as? SQLiteFluentDatabase { return try await sqlite.readTransaction(body) }
    return try await transaction(body)
  }
}
