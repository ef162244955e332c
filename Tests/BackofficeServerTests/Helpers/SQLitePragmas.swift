import GRDB
import Testing
import Vapor

@testable import BackofficeServer

extension Application {
  /// What the SQLite writer and a reader report for `pragma`, in that order.
  func sqlitePragmas(_ pragma: String) async throws -> [String] {
    let storage = try #require(sqliteStorage)
    let sql = "PRAGMA \(pragma)"
    let writer = try await storage.writer.writeWithoutTransaction { db in
      try String.fetchOne(db, sql: sql)
    }
    let reader = try storage.readNow { db in try String.fetchOne(db, sql: sql) }
    return [writer ?? "", reader ?? ""]
  }
}
