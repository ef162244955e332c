import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// The SQLite file's writer and readers are in WAL mode with `synchronous = NORMAL` and foreign
/// keys on, and many writers at once all succeed.
@Suite("SQLite connections")
struct SQLiteTuningTests {
  private func withFileDatabase(_ test: (TestApp) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("backoffice-sqlite-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("data.sqlite").path
    try await withApp(config: { $0.database = .sqliteFile(path: path) }, test)
  }

  @Test func everyConnectionIsInWALModeWithNormalSync() async throws {
    try await withFileDatabase { t in
      let journal = try await t.app.sqlitePragmas("journal_mode")
      let synchronous = try await t.app.sqlitePragmas("synchronous")
      let foreignKeys = try await t.app.sqlitePragmas("foreign_keys")
      #expect(journal == ["wal", "wal"])
      #expect(synchronous == ["1", "1"])
      #expect(foreignKeys == ["1", "1"])
      // Temporary tables (a RETURNING clause's rows) stay in memory, not in /var/tmp files.
      #expect(try await t.app.sqlitePragmas("temp_store") == ["2", "2"])
    }
  }

  @Test func parallelWritersOnEveryConnectionAllSucceed() async throws {
    try await withFileDatabase { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for index in 0..<40 {
          group.addTask {
            try await t.client().send(
              .POST, "/api/v1/expenses",
              headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
              body: #"{"title":"Parallel \#(index)","amount":"1.00"}"#
            ).status
          }
        }
        var all: [HTTPStatus] = []
        for try await status in group { all.append(status) }
        return all
      }
      #expect(statuses.allSatisfy { $0 == .created }, "\(statuses.map(\.code))")
      #expect(try await ExpenseTable.query(on: t.db).count() == 40)
    }
  }
}

@Suite("Random ids")
struct RandomUUIDTests {
  /// Version 4 and the RFC variant, as Foundation's `UUID()` makes them, and never the same.
  @Test func idsAreVersionFourAndDistinct() {
    let ids = (0..<2000).map { _ in UUID.random() }
    #expect(Set(ids).count == ids.count)
    for id in ids {
      let text = id.uuidString
      #expect(Array(text)[14] == "4", "\(text)")
      #expect("89AB".contains(Array(text)[19]), "\(text)")
    }
    // Every other bit varies.
    let bytes = ids.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
    #expect(Set(bytes.map { $0[0] }).count > 100)
    #expect(Set(bytes.map { $0[15] }).count > 100)
  }
}
