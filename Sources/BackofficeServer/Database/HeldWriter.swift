import Dispatch
import FluentKit
import GRDB
import NIOConcurrencyHelpers

/// GRDB's writer connection while one block holds it: a model-layer transaction (its `BEGIN`,
/// its statements and its `COMMIT`, with awaits between them) or a `withConnection` block.
///
/// GRDB serializes every access to its writer; one access is one synchronous closure. A block
/// that awaits between its statements is made one such access: the closure (`serve`) runs on
/// GRDB's writer queue from the block's start to its end and runs the statements the block
/// hands it (`run`), one after another. So GRDB's own queue is the only line writers wait in:
/// every other write waits there until the block ends, reads go on on the pool's readers, and
/// nothing else decides whether a statement may write.
///
/// The block's task (and the tasks it starts) finds the hold through `SQLiteStorage.held`, so
/// a store called from inside a transaction writes in it instead of waiting for itself. A task
/// that outlives its block (an unstructured task started inside it) finds the hold ended and
/// takes a turn of its own.
final class HeldWriter: Sendable {
  private struct State {
    var jobs: [@Sendable (GRDB.Database) -> Void] = []
    var ended = false
  }
  private let state = NIOLockedValueBox(State())
  /// Signalled once for every job handed over and once at the end.
  private let ready = DispatchSemaphore(value: 0)
  /// The storage whose writer this is.
  let owner: ObjectIdentifier

  init(owner: SQLiteStorage) { self.owner = ObjectIdentifier(owner) }

  /// Whether the block holding the writer has ended.
  var ended: Bool { state.withLockedValue { $0.ended } }

  /// `work` on the held connection after the statements handed over before it.
  /// - Throws: `Ended` when the block has ended (nothing of `work` ran).
  func run<T: Sendable>(_ work: @escaping @Sendable (GRDB.Database) throws -> T) async throws
    -> T
  {
    try await withCheckedThrowingContinuation { continuation in
      let accepted = state.withLockedValue { state in
        if state.ended { return false }
        state.jobs.append { db in continuation.resume(with: Result { try work(db) }) }
        return true
      }
      if accepted {
        ready.signal()
      } else {
        continuation.resume(throwing: Ended())
      }
    }
  }

  /// Ends the hold: once the statements already handed over have run, GRDB's writer goes on
  /// to the next access in its queue.
  func end() {
    state.withLockedValue { $0.ended = true }
    ready.signal()
  }

  /// The access that holds the writer: runs the block's statements until it ends. A
  /// transaction left open (a failed `ROLLBACK`) is rolled back, so the next writer starts on
  /// a clean connection.
  func serve(_ db: GRDB.Database) {
    while true {
      ready.wait()
      let job = state.withLockedValue { state in
        state.jobs.isEmpty ? nil : state.jobs.removeFirst()
      }
      guard let job else { break }
      job(db)
    }
    if db.isInsideTransaction { try? db.execute(sql: "ROLLBACK") }
  }

  /// The hold asked for has ended.
  struct Ended: Error, CustomStringConvertible {
    var description: String { "The writer is no longer held by this block." }
  }
}

extension SQLiteStorage {
  /// The writer held by the running task's block, if any (see `HeldWriter`).
  @TaskLocal static var held: HeldWriter?

  /// The hold of this storage's writer that the running task is inside, if it still holds it.
  var heldByThisTask: HeldWriter? {
    guard let held = Self.held, held.owner == ObjectIdentifier(self), !held.ended else {
      return nil
    }
    return held
  }

  /// `body` holding the writer connection from its start to its end (see `HeldWriter`); at
  /// once inside the hold when this task holds it already.
  func holdingWriter<T>(_ body: (HeldWriter) async throws -> T) async throws -> T {
    if let held = heldByThisTask { return try await body(held) }
    let held = HeldWriter(owner: self)
    let turn = waitForTurn()
    writer.asyncWriteWithoutTransaction { db in
      turn.began()
      held.serve(db)
    }
    defer { held.end() }
    return try await Self.$held.withValue(held) { try await body(held) }
  }

  /// `work` on the writer connection: in this task's hold while it lasts, otherwise in a turn
  /// of its own in GRDB's queue.
  func onWriter<T: Sendable>(_ work: @escaping @Sendable (GRDB.Database) throws -> T)
    async throws -> T
  {
    if let held = heldByThisTask {
      do {
        return try await held.run(work)
      } catch is HeldWriter.Ended {
        // The block ended while this task went on: a turn of its own below.
      }
    }
    let turn = waitForTurn()
    defer { turn.began() }
    return try await writer.writeWithoutTransaction { db in
      turn.began()
      return try work(db)
    }
  }
}
