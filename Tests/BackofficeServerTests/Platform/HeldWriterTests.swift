import Foundation
import GRDB
import NIOConcurrencyHelpers
import Testing

@testable import BackofficeServer

/// A block that awaits between its statements holds GRDB's writer for its whole length
/// (`HeldWriter`): GRDB's queue is the one line every write waits in.
@Suite("Holding the SQLite writer")
struct HeldWriterTests {
  /// SQLite's own waiting off: a write that met another connection's lock would fail at once.
  private func withStorage(_ test: (SQLiteStorage) async throws -> Void) async throws {
    try await withItemsStorage(busyTimeoutMilliseconds: 0, test)
  }

  private func names(_ storage: SQLiteStorage) async throws -> [String] {
    try await storage.writer.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM items ORDER BY name")
    }
  }

  /// `body`'s value, or nil when it has not finished in a minute (so a hang fails the test).
  private func withinAMinute<T: Sendable>(_ body: @escaping @Sendable () async throws -> T)
    async throws -> T?
  {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(for: .seconds(60))
        return nil
      }
      let first = try await group.next() ?? nil
      group.cancelAll()
      return first
    }
  }

  /// The statements of two blocks never interleave, however the blocks await between them.
  @Test func oneBlockAtATime() async throws {
    try await withStorage { storage in
      let log = NIOLockedValueBox([Int]())
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<40 {
          group.addTask {
            try await storage.holdingWriter { held in
              for step in 0..<3 {
                try await held.run { db in
                  log.withLockedValue { $0.append(index) }
                  if step == 0 {
                    try db.execute(
                      sql: "INSERT INTO items (name) VALUES (?)", arguments: ["\(index)"])
                  }
                }
                // Give the others every chance to get in between two statements.
                for _ in 0..<3 { await Task.yield() }
              }
            }
          }
        }
        try await group.waitForAll()
      }
      let seen = log.withLockedValue { $0 }
      #expect(seen.count == 120)
      // Each block's three statements one after another.
      #expect(
        stride(from: 0, to: seen.count, by: 3).allSatisfy { Set(seen[$0..<$0 + 3]).count == 1 })
      #expect(try await names(storage).count == 40)
      #expect(storage.waitingForWriter == 0)
    }
  }

  /// Nothing else writes between a transaction's statements, though it awaits between them:
  /// a write asked for meanwhile waits for its commit.
  @Test func aWriteWaitsForTheTransactionHoldingTheWriter() async throws {
    try await withStorage { storage in
      let order = NIOLockedValueBox([String]())
      let (begun, begunGo) = AsyncStream<Void>.makeStream()
      let (finish, finishGo) = AsyncStream<Void>.makeStream()
      let transaction = Task {
        try await storage.holdingWriter { held in
          try await held.run { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "INSERT INTO items (name) VALUES ('first')")
          }
          begunGo.yield()
          for await _ in finish { break }
          try await held.run { db in
            try db.execute(sql: "INSERT INTO items (name) VALUES ('second')")
            try db.execute(sql: "COMMIT")
          }
          order.withLockedValue { $0.append("committed") }
        }
      }
      for await _ in begun { break }
      let other = Task {
        try await storage.onWriter { db in
          // SQLite's own waiting is off: a write beside the open transaction would fail.
          try db.execute(sql: "INSERT INTO items (name) VALUES ('other')")
        }
        order.withLockedValue { $0.append("other") }
      }
      for _ in 0..<60_000 where storage.waitingForWriter < 1 {
        try await Task.sleep(for: .milliseconds(1))
      }
      #expect(storage.waitingForWriter == 1)
      finishGo.yield()
      try await transaction.value
      try await other.value
      #expect(order.withLockedValue { $0 } == ["committed", "other"])
      #expect(try await names(storage) == ["first", "other", "second"])
    }
  }

  /// A block that fails with its transaction open leaves a clean writer behind: what it wrote
  /// is rolled back and the next write goes in.
  @Test func aFailedBlockLeavesNothingOpen() async throws {
    try await withStorage { storage in
      struct Failed: Error {}
      await #expect(throws: Failed.self) {
        try await storage.holdingWriter { held in
          try await held.run { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "INSERT INTO items (name) VALUES ('lost')")
          }
          throw Failed()
        }
      }
      let open = try await storage.onWriter { db in db.isInsideTransaction }
      #expect(!open)
      try await storage.onWriter { db in
        try db.execute(sql: "INSERT INTO items (name) VALUES ('next')")
      }
      #expect(try await names(storage) == ["next"])
    }
  }

  /// Inside a hold, the task's own writes (a nested hold, a statement, a store's closure
  /// write) run in it instead of waiting for themselves.
  @Test func aHoldersOwnWritesDoNotWaitForThemselves() async throws {
    try await withStorage { storage in
      let written = try await withinAMinute {
        try await storage.holdingWriter { held in
          try await held.run { db in try db.execute(sql: "BEGIN IMMEDIATE") }
          try await storage.holdingWriter { inner in
            #expect(inner === held)
            try await storage.onWriter { db in
              try db.execute(sql: "INSERT INTO items (name) VALUES ('statement')")
            }
          }
          // A closure write joins as a savepoint; one that fails is taken back alone.
          try await storage.write { db in
            try db.execute(sql: "INSERT INTO items (name) VALUES ('closure')")
          }
          _ = try? await storage.write { db in
            try db.execute(sql: "INSERT INTO items (name) VALUES ('half')")
            try db.execute(sql: "INSERT INTO items (name) VALUES ('closure')")
          }
          // Child tasks share the hold.
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
              try await storage.onWriter { db in
                try db.execute(sql: "INSERT INTO items (name) VALUES ('child')")
              }
            }
            try await group.waitForAll()
          }
          try await held.run { db in try db.execute(sql: "COMMIT") }
          return true
        }
      }
      #expect(written == true, "a write inside the hold waited for the hold")
      #expect(try await names(storage) == ["child", "closure", "statement"])
    }
  }

  /// A task started inside a block that writes after the block ended takes a turn of its
  /// own instead of waiting for a hold that is over.
  @Test func aTaskThatOutlivesItsBlockTakesItsOwnTurn() async throws {
    try await withStorage { storage in
      let (later, laterGo) = AsyncStream<Void>.makeStream()
      let leftBehind = try await storage.holdingWriter { held in
        try await held.run { _ in }
        return Task {
          for await _ in later { break }
          try await storage.onWriter { db in
            try db.execute(sql: "INSERT INTO items (name) VALUES ('after')")
          }
          try await storage.write { db in
            try db.execute(sql: "INSERT INTO items (name) VALUES ('closure after')")
          }
          return true
        }
      }
      laterGo.yield()
      let done = try await withinAMinute { try await leftBehind.value }
      #expect(done == true, "the write waited for a hold that had ended")
      #expect(try await names(storage) == ["after", "closure after"])
    }
  }

  /// Closing at shutdown waits for a transaction still holding the writer without holding up
  /// the thread it was asked on, which the transaction may need to reach its end.
  @Test func closingWaitsForTheWriterWithoutBlockingItsThread() async throws {
    try await withStorage { storage in
      let hold = await storage.heldWriterForTest()
      let oneThread = BackgroundWork(threads: 1)
      let closing = Task {
        try await oneThread.run { await storage.closeWhenWritesAreDone() }
      }
      // The thread that asked for the close still runs other work meanwhile. Raced against a
      // minute, after which the hold is let go so that a blocked thread fails the test instead
      // of hanging it.
      let timedOut = NIOLockedValueBox(false)
      let free = try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask { try await oneThread.run { true } }
        group.addTask {
          try await Task.sleep(for: .seconds(60))
          timedOut.withLockedValue { $0 = true }
          hold.release()
          return false
        }
        let first = try await group.next() ?? false
        group.cancelAll()
        return first
      }
      #expect(free && !timedOut.withLockedValue { $0 }, "closing held up its thread")
      hold.release()
      try await closing.value
      await #expect(throws: (any Error).self) {
        try await storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
      }
    }
  }
}
