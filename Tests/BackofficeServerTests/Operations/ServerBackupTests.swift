import Fluent
import Foundation
import GRDB
import Testing
import Vapor

@testable import BackofficeServer

private func temporaryFolder(_ name: String) -> String {
  FileManager.default.temporaryDirectory
    .appendingPathComponent("backoffice-\(name)-\(UUID().uuidString)").path
}

@Suite("Whole-server backups and restore")
struct ServerBackupTests {
  @Test func scheduleSettings() throws {
    #expect(BackupSchedule("daily") == .daily(hour: 3, minute: 0))
    #expect(BackupSchedule("Daily 23:05") == .daily(hour: 23, minute: 5))
    #expect(BackupSchedule("hourly") == .hourly)
    for bad in ["weekly", "daily 24:00", "daily 3:00", "daily 03:60", "hourly 05", "", "daily x"] {
      #expect(BackupSchedule(bad) == nil, "\(bad)")
    }
    let at = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21 14:13:20 UTC
    #expect(BackupSchedule.hourly.next(after: at) == Date(timeIntervalSince1970: 1_790_002_800))
    let daily = BackupSchedule.daily(hour: 3, minute: 0).next(after: at)
    #expect(daily == Date(timeIntervalSince1970: 1_790_046_000))  // next day 03:00
    #expect(BackupSchedule.daily(hour: 3, minute: 0).next(after: daily) == daily + 86_400)
    #expect(
      BackupSchedule.daily(hour: 23, minute: 0).next(after: at)
        == Date(timeIntervalSince1970: 1_790_031_600))

    func load(_ environment: [String: String]) -> Result<AppConfig, ConfigError> {
      Result { () throws(ConfigError) in try AppConfig.load(from: environment) }
    }
    #expect(try load([:]).get().backup == nil)
    let on = try load(["BACKOFFICE_BACKUP_DIR": "/var/backups/bo"]).get().backup
    #expect(on == BackupSettings(folder: "/var/backups/bo", schedule: .default, keep: 14))
    guard
      case .failure(let error) = load([
        "BACKOFFICE_BACKUP_DIR": "/b", "BACKOFFICE_BACKUP_SCHEDULE": "weekly",
        "BACKOFFICE_BACKUP_KEEP": "0",
      ])
    else {
      Issue.record("bad backup settings accepted")
      return
    }
    #expect(error.problems.count == 2)
    #expect(throws: ConfigError.self) {
      try AppConfig.load(from: ["BACKOFFICE_BACKUP_KEEP": "3"])
    }
    #expect(throws: ConfigError.self) {
      try AppConfig.load(from: [
        "BACKOFFICE_BACKUP_DIR": "/b", "DATABASE_URL": "postgres://u:p@localhost/db",
      ])
    }
  }

  @Test func aBackupIsCheckedAndOnlyTheNewestAreKept() async throws {
    try await withApp(store: .sqliteFile) { t in
      let storage = try #require(t.app.sqliteStorage)
      let folder = temporaryFolder("backups")
      defer { try? FileManager.default.removeItem(atPath: folder) }
      // Something that is not a backup stays.
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
      var made: [ServerBackup.Made] = []
      for hour in 0..<4 {
        made.append(
          try ServerBackup.run(
            storage: storage, folder: folder, keep: 3,
            now: t.clock.now.addingTimeInterval(Double(hour) * 3600)))
      }
      #expect(made.last?.removed == [URL(fileURLWithPath: made[0].path).lastPathComponent])
      #expect(ServerBackup.list(folder: folder).count == 3)
      #expect(FileManager.default.fileExists(atPath: folder + "/notes.txt"))
      // One self-contained file, not in WAL mode, and sound.
      let copy = try DatabaseQueue(path: try #require(made.last?.path))
      let mode = try copy.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
      #expect(mode == "delete")
      #expect(try copy.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
      let contents = try FileManager.default.contentsOfDirectory(atPath: folder)
      #expect(!contents.contains { $0.hasSuffix(".partial") || $0.hasSuffix("-wal") })
    }
  }

  /// The drill: write, back up, destroy, restore, compare every API list.
  @Test func theWholeServerComesBackFromABackup() async throws {
    let folder = temporaryFolder("drill")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let lists = [
      "/api/v1/products", "/api/v1/expenses", "/api/v1/ad-payments", "/api/v1/fundraisers",
      "/api/v1/favorites", "/api/v1/product-types", "/api/v1/workspace",
      "/api/v1/workspace/members", "/api/v1/me", "/api/v1/expenses/summary",
    ]
    var before: [String: String] = [:]
    var backupPath = ""
    var token = ""
    try await withApp(store: .sqliteFile) { t in
      let client = t.client()
      try await client.signUp(email: "drill@example.com")
      token = try await client.createToken()
      let auth: HTTPHeaders = [
        "Authorization": "Bearer \(token)", "Content-Type": "application/json",
      ]
      for name in ["Кава", "Tea", "Cocoa"] {
        let made = try await client.send(
          .POST, "/api/v1/products", headers: auth, body: productJSON(name: name))
        #expect(made.status == .created, "\(made.body)")
      }
      let expense = try await client.send(
        .POST, "/api/v1/expenses", headers: auth,
        body:
          #"{"title":"Rent","amount":"1200.50","category":"food","date":"2026-11-01T10:00:00Z"}"#)
      #expect(expense.status == .created, "\(expense.body)")
      let payment = try await client.send(
        .POST, "/api/v1/ad-payments", headers: auth,
        body: #"{"name":"Spring","url":"https://pay.example.com/spring"}"#)
      #expect(payment.status == .created, "\(payment.body)")
      let fundraiser = try await client.send(
        .POST, "/api/v1/fundraisers", headers: auth,
        body:
          #"{"purpose":"На дрон","target":"15000.50","template":1,"photo":"data:image/png;base64,"#
          + FundraiserImages.png().base64EncodedString() + #""}"#)
      #expect(fundraiser.status == .created, "\(fundraiser.body)")
      for path in lists {
        let answer = try await client.send(.GET, path, headers: auth)
        #expect(answer.status == .ok, "\(path): \(answer.status)")
        before[path] = answer.body
      }
      let storage = try #require(t.app.sqliteStorage)
      backupPath = try ServerBackup.run(
        storage: storage, folder: folder + "/backups", keep: 5, now: t.clock.now
      ).path
    }
    // The old server and its folder are gone; a new, empty data folder.
    let database = folder + "/data/backoffice.sqlite"
    let summary = try ServerRestore.restore(from: backupPath, to: database)
    #expect(summary == .init(accounts: 1, workspaces: 1))
    // Restoring again over a database with accounts is refused.
    #expect(throws: ServerRestore.Failure.self) {
      try ServerRestore.restore(from: backupPath, to: database)
    }
    let restored: (inout AppConfig) -> Void = { $0.database = .sqliteFile(path: database) }
    try await withApp(config: restored) { t in
      let client = t.client()
      let auth: HTTPHeaders = ["Authorization": "Bearer \(token)"]
      for path in lists {
        let answer = try await client.send(.GET, path, headers: auth)
        #expect(answer.status == .ok, "\(path)")
        #expect(answer.body == before[path], "\(path) differs after the restore")
      }
      #expect(try await client.signIn(email: "drill@example.com").status == .seeOther)
    }
  }

  @Test func restoreRefusesWhatIsNotABackup() throws {
    let folder = temporaryFolder("restore-bad")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let junk = folder + "/junk.sqlite"
    try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: junk))
    #expect(throws: ServerRestore.Failure.self) {
      try ServerRestore.restore(from: junk, to: folder + "/data/db.sqlite")
    }
    #expect(throws: ServerRestore.Failure.self) {
      try ServerRestore.restore(from: folder + "/missing.sqlite", to: folder + "/data/db.sqlite")
    }
    let other = folder + "/other.sqlite"
    try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE t (x)") }
    #expect(throws: ServerRestore.Failure.self) {
      try ServerRestore.restore(from: other, to: folder + "/data/db.sqlite")
    }
    #expect(!FileManager.default.fileExists(atPath: folder + "/data/db.sqlite"))
  }
}
