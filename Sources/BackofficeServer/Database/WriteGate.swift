import Vapor

/// Lets one write transaction at a time into SQLite from this process, the others waiting in
/// line without using the processor.
///
/// SQLite has one writer. The server keeps a connection per event loop, and when two of them
/// begin writing at once, the one that waits retries in a tight loop (SQLiteNIO's busy handler
/// does not sleep): under a burst of product creations most of the processor went into those
/// retries. Waiting here instead costs nothing while the writer works. PostgreSQL locks rows,
/// not the database, so it has no gate. A second server on the same SQLite file still meets
/// SQLite's own lock, as before.
actor WriteGate {
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// Runs `work` once every earlier caller's work has finished, in the order they came.
  func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
    if busy {
      await withCheckedContinuation { waiting.append($0) }
    } else {
      busy = true
    }
    defer {
      if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
    return try await work()
  }
}

extension Application {
  private struct WriteGateKey: StorageKey {
    typealias Value = WriteGate
  }

  /// The gate of a SQLite database; nil on PostgreSQL.
  var writeGate: WriteGate? {
    get { storage[WriteGateKey.self] }
    set { storage[WriteGateKey.self] = newValue }
  }
}

extension Optional where Wrapped == WriteGate {
  /// `work` through the gate when there is one.
  func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
    guard let gate = self else { return try await work() }
    return try await gate.run(work)
  }
}
