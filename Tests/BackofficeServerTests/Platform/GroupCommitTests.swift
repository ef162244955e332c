import Foundation
import GRDB
import NIOConcurrencyHelpers
import Testing

@testable import BackofficeServer

/// Closure writes that wait for the SQLite writer are committed together (`SQLiteStorage.write`):
/// one transaction for the group, each write in its own savepoint.
@Suite("Group commit")
struct GroupCommitTests {
  /// Counts the commits of the writer connection.
  final class Commits: TransactionObserver, @unchecked Sendable {
    let count = NIOLockedValueBox(0)
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: GRDB.Database) { count.withLockedValue { $0 += 1 } }
    func databaseDidRollback(_ db: GRDB.Database) {}
  }

  private func withStorage(_ test: (SQLiteStorage, Commits) async throws -> Void) async throws {
    try await withItemsStorage { storage in
      let commits = Commits()
      try await storage.writer.write { db in db.add(transactionObserver: commits) }
      try await test(storage, commits)
    }
  }

  private func waitUntil(_ condition: () -> Bool) async throws {
    while !condition() { try await Task.sleep(for: .milliseconds(5)) }
  }

  private func insert(_ storage: SQLiteStorage, _ name: String) async throws -> String {
    try await storage.write { db in
      try db.execute(sql: "INSERT INTO items (name) VALUES (?)", arguments: [name])
      return name
    }
  }

  private func names(_ storage: SQLiteStorage) async throws -> [String] {
    try await storage.writer.read { db in
      try String.fetchAll(db, sql: "SELECT name FROM items ORDER BY name")
    }
  }

  @Test func writesThatWaitedAreCommittedTogether() async throws {
    try await withStorage { storage, commits in
      let before = commits.count.withLockedValue { $0 }
      let release = await storage.holdWriterForTest()
      try await withThrowingTaskGroup(of: String.self) { group in
        for index in 0..<6 { group.addTask { try await insert(storage, "item \(index)") } }
        try await waitUntil { storage.waitingWrites == 6 }
        release()
        var answers: [String] = []
        for try await name in group { answers.append(name) }
        #expect(answers.sorted() == (0..<6).map { "item \($0)" })
      }
      #expect(try await names(storage) == (0..<6).map { "item \($0)" })
      #expect(commits.count.withLockedValue { $0 } - before == 1)
    }
  }

  /// A burst is committed in groups of at most `largestGroup` writes.
  @Test func aGroupHoldsAtMostTheLargestGroup() async throws {
    try await withStorage { storage, commits in
      let before = commits.count.withLockedValue { $0 }
      let count = SQLiteStorage.largestGroup + 6
      let release = await storage.holdWriterForTest()
      try await withThrowingTaskGroup(of: String.self) { group in
        for index in 0..<count { group.addTask { try await insert(storage, "item \(index)") } }
        try await waitUntil { storage.waitingWrites == count }
        release()
        for try await _ in group {}
      }
      #expect(try await names(storage).count == count)
      #expect(commits.count.withLockedValue { $0 } - before == 2)
    }
  }

  /// A write that fails in a group is rolled back alone: the others are committed, and its
  /// caller gets its error.
  @Test func aFailingWriteInAGroupTakesOnlyItselfBack() async throws {
    try await withStorage { storage, _ in
      _ = try await insert(storage, "taken")
      let release = await storage.holdWriterForTest()
      let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
        group.addTask { ("first", (try? await insert(storage, "first")) != nil) }
        try await waitUntil { storage.waitingWrites == 1 }
        group.addTask {
          let written: Void? = try? await storage.write { db in
            try db.execute(sql: "INSERT INTO items (name) VALUES ('half of it')")
            try db.execute(sql: "INSERT INTO items (name) VALUES ('taken')")
          }
          return ("duplicate", written != nil)
        }
        try await waitUntil { storage.waitingWrites == 2 }
        group.addTask { ("last", (try? await insert(storage, "last")) != nil) }
        try await waitUntil { storage.waitingWrites == 3 }
        release()
        var outcomes: [String: Bool] = [:]
        for try await (name, written) in group { outcomes[name] = written }
        return outcomes
      }
      #expect(outcomes == ["first": true, "duplicate": false, "last": true])
      #expect(try await names(storage) == ["first", "last", "taken"])
    }
  }

  /// A write on an idle writer does not wait for company.
  @Test func aWriteAloneIsCommittedAtOnce() async throws {
    try await withStorage { storage, commits in
      let before = commits.count.withLockedValue { $0 }
      _ = try await insert(storage, "alone")
      #expect(commits.count.withLockedValue { $0 } - before == 1)
      #expect(storage.waitingWrites == 0)
    }
  }
}
