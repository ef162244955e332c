import Fluent
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import BackofficeServer

/// A backup reads one snapshot for as long as it takes, on a connection of its own
/// (`readTransaction`): before, a backup held its event loop's one connection, and every other
/// request of the loop waited, the writer's turn included, until the pool gave up ("connection
/// deadlock") under backups in a loop.
@Suite("SQLite: long reads")
struct LongReadTests {
  @Test func whileLongReadsAreOpenOthersWriteAndRead() async throws {
    try await withApp(store: .sqliteFile) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.get("/settings")
      let backup = try await client.get("/settings/backup")
      #expect(backup.status == .ok)

      // More long reads open than the pool has readers, as backups downloaded in a loop keep
      // them.
      let released = NIOLockedValueBox(false)
      let opened = NIOLockedValueBox(0)
      let loops = Array(0..<(SQLiteStorage.maximumReaders + 2))
      var holders: [Task<Void, any Error>] = []
      for _ in loops {
        let database = t.db
        holders.append(
          Task {
            try await database.readTransaction { db in
              _ = try await Accounts.all(on: db).count
              opened.withLockedValue { $0 += 1 }
              while !released.withLockedValue({ $0 }) {
                try await Task.sleep(for: .milliseconds(5))
              }
            }
          })
      }
      while opened.withLockedValue({ $0 }) < loops.count {
        try await Task.sleep(for: .milliseconds(5))
      }

      // Writes (each takes the writer's turn and a request connection) and reads still answer.
      for index in 0..<8 {
        let created = try await client.productAPI(
          .POST, "/api/v1/products", token: token,
          body: #"{"name": "During \#(index)", "type": "T", "price": "1", "tax": "0"}"#)
        #expect(created.status == .created)
      }
      #expect(try await client.get("/products").status == .ok)
      #expect(try await client.get("/settings").status == .ok)

      released.withLockedValue { $0 = true }
      for holder in holders { try await holder.value }
      #expect(try await client.get("/products").productNames.count == 8)
    }
  }
}
