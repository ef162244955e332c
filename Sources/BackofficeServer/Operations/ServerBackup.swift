import Foundation
import GRDB
import Metrics
import NIOConcurrencyHelpers
import Vapor

/// When scheduled backups run (`BACKOFFICE_BACKUP_SCHEDULE`): every hour on the hour, or every
/// day at a time of day in UTC (03:00 unless given).
public enum BackupSchedule: Sendable, Equatable {
  case hourly
  case daily(hour: Int, minute: Int)

  public static let `default` = BackupSchedule.daily(hour: 3, minute: 0)

  /// `hourly`, `daily` or `daily HH:MM`.
  public init?(_ text: String) {
    let parts = text.lowercased().split(separator: " ", omittingEmptySubsequences: true)
    switch parts.first {
    case "hourly" where parts.count == 1: self = .hourly
    case "daily" where parts.count == 1: self = .default
    case "daily" where parts.count == 2:
      let time = parts[1].split(separator: ":")
      guard time.count == 2, time.allSatisfy({ $0.count == 2 }),
        let hour = Int(time[0]), let minute = Int(time[1]),
        (0...23).contains(hour), (0...59).contains(minute)
      else { return nil }
      self = .daily(hour: hour, minute: minute)
    default: return nil
    }
  }

  /// The first moment of the schedule strictly after `date`.
  public func next(after date: Date) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    switch self {
    case .hourly:
      let hour = calendar.dateInterval(of: .hour, for: date)?.start ?? date
      return hour.addingTimeInterval(3600)
    case .daily(let hour, let minute):
      let day = calendar.startOfDay(for: date)
      let today = day.addingTimeInterval(TimeInterval(hour * 3600 + minute * 60))
      return today > date ? today : today.addingTimeInterval(24 * 3600)
    }
  }
}

/// Scheduled backups (`BACKOFFICE_BACKUP_DIR`): where, when, how many are kept.
public struct BackupSettings: Sendable, Equatable {
  public var folder: String
  public var schedule: BackupSchedule = .default
  public var keep: Int = 14

  public init(folder: String, schedule: BackupSchedule = .default, keep: Int = 14) {
    self.folder = folder
    self.schedule = schedule
    self.keep = keep
  }

  static func load(
    from environment: [String: String], database: AppConfig.Database, problems: inout [String]
  ) -> BackupSettings? {
    func value(_ name: String) -> String? {
      guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty
      else { return nil }
      return raw
    }
    guard let folder = value("BACKOFFICE_BACKUP_DIR") else {
      for name in ["BACKOFFICE_BACKUP_SCHEDULE", "BACKOFFICE_BACKUP_KEEP"] where value(name) != nil
      {
        problems.append("\(name) needs BACKOFFICE_BACKUP_DIR, the folder backups go to.")
      }
      return nil
    }
    if case .postgres = database {
      problems.append(
        "BACKOFFICE_BACKUP_DIR backs up a SQLite database; with PostgreSQL use pg_dump "
          + "(docs/deploy.md, \"Backups\") and unset BACKOFFICE_BACKUP_DIR.")
      return nil
    }
    var settings = BackupSettings(folder: folder)
    if let raw = value("BACKOFFICE_BACKUP_SCHEDULE") {
      if let schedule = BackupSchedule(raw) {
        settings.schedule = schedule
      } else {
        problems.append(
          "BACKOFFICE_BACKUP_SCHEDULE must be hourly, daily or daily HH:MM (UTC), not \"\(raw)\".")
      }
    }
    if let raw = value("BACKOFFICE_BACKUP_KEEP") {
      if let keep = Int(raw), (1...10_000).contains(keep) {
        settings.keep = keep
      } else {
        problems.append("BACKOFFICE_BACKUP_KEEP must be a whole number from 1 to 10000.")
      }
    }
    return settings
  }
}

/// One backup of the whole server: the SQLite database copied online (GRDB's backup, from a
/// reader's snapshot, so requests and writes go on), checked with `PRAGMA integrity_check`,
/// and only then moved into place and the oldest beyond `keep` removed. Photos live in the
/// database, so the one file is everything.
enum ServerBackup {
  static let prefix = "backoffice-"
  static let suffix = ".sqlite"

  struct Made: Sendable, Equatable {
    var path: String
    var bytes: Int
    var removed: [String]
  }

  enum Failure: Error, CustomStringConvertible {
    case notSQLiteFile
    case folder(String, String)
    case check(String)

    var description: String {
      switch self {
      case .notSQLiteFile:
        "Only a SQLite database file can be backed up this way (with PostgreSQL use pg_dump)."
      case .folder(let path, let why): "The backup folder \(path) cannot be used: \(why)"
      case .check(let result): "The copy failed its integrity check: \(result)"
      }
    }
  }

  static let made = Metrics.Counter(
    label: "backoffice_backups_total", dimensions: [("outcome", "ok")])
  static let failed = Metrics.Counter(
    label: "backoffice_backups_total", dimensions: [("outcome", "failed")])
  static let lastSuccess = Metrics.Gauge(label: "backoffice_backup_last_success_timestamp_seconds")

  /// `backoffice-20261127-030000Z.sqlite`: names sort by time.
  static func fileName(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
    return prefix + String(format: "%04d", c.year ?? 0) + two(c.month) + two(c.day) + "-"
      + two(c.hour) + two(c.minute) + two(c.second) + "Z" + suffix
  }

  /// Makes a backup of `storage` in `folder` at `now` and keeps the newest `keep`.
  static func run(storage: SQLiteStorage, folder: String, keep: Int, now: Date) throws -> Made {
    guard storage.path != nil else { throw Failure.notSQLiteFile }
    let manager = FileManager.default
    do {
      try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw Failure.folder(folder, error.localizedDescription)
    }
    let target = (folder as NSString).appendingPathComponent(fileName(now))
    let partial = target + ".partial"
    for leftover in [partial, partial + "-wal", partial + "-shm"] {
      try? manager.removeItem(atPath: leftover)
    }
    do {
      let copy = try DatabaseQueue(path: partial)
      try storage.writer.backup(to: copy)
      // One self-contained file: out of WAL mode, checked before it counts.
      try copy.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA journal_mode = DELETE")
      }
      let check = try copy.read { db in
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
      }
      try copy.close()
      guard check == ["ok"] else { throw Failure.check(check.prefix(5).joined(separator: "; ")) }
      if manager.fileExists(atPath: target) { try manager.removeItem(atPath: target) }
      try manager.moveItem(atPath: partial, toPath: target)
    } catch {
      for leftover in [partial, partial + "-wal", partial + "-shm"] {
        try? manager.removeItem(atPath: leftover)
      }
      failed.increment()
      throw error
    }
    let removed = try prune(folder: folder, keep: keep)
    made.increment()
    lastSuccess.record(now.timeIntervalSince1970)
    let bytes = (try? manager.attributesOfItem(atPath: target)[.size] as? Int) ?? 0
    return Made(path: target, bytes: bytes, removed: removed)
  }

  /// The backups in `folder`, oldest first (only files this server named).
  static func list(folder: String) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
  }

  /// Removes the oldest backups beyond `keep`; returns their names.
  static func prune(folder: String, keep: Int) throws -> [String] {
    let all = list(folder: folder)
    guard all.count > keep else { return [] }
    let old = Array(all.prefix(all.count - keep))
    for name in old {
      try FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
    }
    return old
  }
}

/// Runs the scheduled backups while the server runs, on a thread of their own.
struct BackupLifecycle: LifecycleHandler {
  let settings: BackupSettings
  let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

  func didBoot(_ application: Application) throws {
    guard let storage = application.sqliteStorage else { return }
    let app = application
    let settings = self.settings
    let loop = Task.detached {
      while !Task.isCancelled {
        let now = app.clients.now()
        let next = settings.schedule.next(after: now)
        do {
          try await Task.sleep(for: .seconds(next.timeIntervalSince(now)))
        } catch {
          return
        }
        do {
          let made = try await BackupThread.run {
            try ServerBackup.run(
              storage: storage, folder: settings.folder, keep: settings.keep,
              now: app.clients.now())
          }
          app.logger.info(
            "backup made",
            metadata: [
              "path": .string(made.path), "bytes": .stringConvertible(made.bytes),
              "removed": .stringConvertible(made.removed.count),
            ])
        } catch {
          app.logger.error("backup failed: \(String(describing: error))")
        }
      }
    }
    task.withLockedValue { $0 = loop }
  }

  func shutdownAsync(_ application: Application) async {
    let loop = task.withLockedValue { current in
      defer { current = nil }
      return current
    }
    loop?.cancel()
    await loop?.value
  }
}

/// Copying a database takes a while: off the event loops and Swift's pool.
enum BackupThread {
  static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
  }
}
