import Foundation
import GRDB

/// `backoffice restore --from FILE`: brings a whole server back from a backup file (one made
/// by the scheduled backups or `backoffice backup`) into an empty data folder. It runs before
/// anything opens the database, with the server stopped. A data folder whose database already
/// has accounts is never overwritten.
public enum ServerRestore {
  public struct Summary: Sendable, Equatable, CustomStringConvertible {
    public var accounts: Int
    public var workspaces: Int
    public var description: String {
      "\(accounts) account\(accounts == 1 ? "" : "s"), "
        + "\(workspaces) workspace\(workspaces == 1 ? "" : "s")"
    }
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  /// Runs the command with its arguments (after `restore`); the exit status.
  public static func main(arguments: [String], environment: [String: String]) -> Int32 {
    var from: String?
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if argument == "--from" {
        from = rest.popFirst()
      } else if argument.hasPrefix("--from=") {
        from = String(argument.dropFirst("--from=".count))
      } else if argument == "--help" || argument == "-h" {
        print(usage)
        return 0
      } else {
        FileHandle.standardError.write(Data("Unknown argument \(argument).\n\(usage)\n".utf8))
        return 64
      }
    }
    guard let from, !from.isEmpty else {
      FileHandle.standardError.write(Data("--from is required.\n\(usage)\n".utf8))
      return 64
    }
    do {
      let config = try AppConfig.load(from: environment)
      guard case .sqliteFile(let path) = config.database else {
        throw Failure(
          "restore brings back a SQLite server; this one uses PostgreSQL (use pg_restore, "
            + "docs/deploy.md).")
      }
      let summary = try restore(from: from, to: path)
      print(
        "Restored \(from) into \(path): \(summary). Start the server; it brings an older "
          + "backup's schema up to date as it starts.")
      return 0
    } catch {
      FileHandle.standardError.write(Data("Restore failed: \(error)\n".utf8))
      return 1
    }
  }

  static let usage = """
    Usage: backoffice restore --from FILE
    Copies the backup FILE into the data folder's database (BACKOFFICE_DATA_DIR or
    DATABASE_URL=sqlite://PATH). Stop the server first; the data folder must be empty or hold
    a database without accounts.
    """

  /// Checks `file` and copies it to `path`, which must not hold a database with accounts.
  public static func restore(from file: String, to path: String) throws -> Summary {
    let manager = FileManager.default
    guard manager.isReadableFile(atPath: file) else {
      throw Failure("\(file) does not exist or cannot be read.")
    }
    var readOnly = Configuration()
    readOnly.readonly = true
    let source: DatabaseQueue
    let summary: Summary
    do {
      source = try DatabaseQueue(path: file, configuration: readOnly)
      summary = try source.read { db in
        let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        guard check == ["ok"] else {
          throw Failure("\(file) is damaged: \(check.prefix(3).joined(separator: "; ")).")
        }
        guard try db.tableExists("_fluent_migrations"), try db.tableExists("users") else {
          throw Failure("\(file) is not a Backoffice backup (no accounts table).")
        }
        return Summary(
          accounts: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0,
          workspaces: try db.tableExists("workspaces")
            ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM workspaces") ?? 0 : 0)
      }
    } catch let failure as Failure {
      throw failure
    } catch {
      throw Failure("\(file) is not a readable SQLite database: \(error).")
    }

    if manager.fileExists(atPath: path) {
      let accounts = try DatabaseQueue(path: path, configuration: readOnly).read { db in
        try db.tableExists("users") ? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users") ?? 0 : 0
      }
      guard accounts == 0 else {
        throw Failure(
          "\(path) already holds a database with \(accounts) account(s); it is not "
            + "overwritten. Stop the server, move it (and its -wal and -shm files) away, and "
            + "run restore again into the empty folder.")
      }
    }
    let folder = (path as NSString).deletingLastPathComponent
    try manager.createDirectory(
      atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
    let partial = path + ".restoring"
    try? manager.removeItem(atPath: partial)
    do {
      let copy = try DatabaseQueue(path: partial)
      try source.backup(to: copy)
      try copy.close()
      try source.close()
      for old in [path, path + "-wal", path + "-shm"] where manager.fileExists(atPath: old) {
        try manager.removeItem(atPath: old)
      }
      try manager.moveItem(atPath: partial, toPath: path)
    } catch {
      try? manager.removeItem(atPath: partial)
      throw Failure("Could not write \(path): \(error).")
    }
    return summary
  }
}
