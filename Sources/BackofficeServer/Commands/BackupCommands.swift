import BackofficeCore
import Fluent
import Foundation
import Vapor

/// `backoffice export --email … [--output file]`: one account as one JSON file.
struct ExportCommand: AsyncCommand {
  struct Signature: CommandSignature {
    @Option(name: "email", help: "Email address of the account to export.")
    var email: String?

    @Option(name: "output", short: "o", help: "File to write (default: standard output).")
    var output: String?

    init() {}
  }

  var help: String {
    "Write one account (settings, products, expenses, ad payments, marketing plans and "
      + "fundraisers, photos included) to a JSON file that `backoffice import` reads back."
  }

  func run(using context: CommandContext, signature: Signature) async throws {
    let app = context.application
    let user = try await BackupCommandSupport.account(signature.email, on: app.db)
    // The workspace the account created.
    guard let own = try await WorkspaceStore(db: app.db).own(of: try user.requireID()) else {
      throw StartupError("\(user.email) has no workspace of its own (it was deleted).")
    }
    let backup = try await AccountBackup.export(
      workspaceID: own.id, person: try user.requireID(), on: app.db, now: Date())
    let data = try backup.encoded() + Data("\n".utf8)
    if let output = signature.output, output != "-" {
      let url = URL(fileURLWithPath: output)
      do {
        // Written next to the target and moved into place, so a failed export never leaves
        // half a file where a good one was.
        try data.write(to: url, options: .atomic)
      } catch {
        throw StartupError("Could not write \(output): \(error.localizedDescription)")
      }
      FileHandle.standardError.write(
        Data("Exported \(user.email) to \(output): \(backup.counts.summary).\n".utf8))
    } else {
      FileHandle.standardOutput.write(data)
    }
  }
}

/// `backoffice import --email … [--merge] file`: reads a file made by `backoffice export`.
struct ImportCommand: AsyncCommand {
  struct Signature: CommandSignature {
    @Option(name: "email", help: "Email address of the account to import into (it must exist).")
    var email: String?

    @Flag(
      name: "merge",
      help: "Add the file's records to an account that already has some (records it already "
        + "has are skipped).")
    var merge: Bool

    @Argument(name: "file", help: "The backup file, or - for standard input.")
    var file: String

    init() {}
  }

  var help: String {
    "Read a file written by `backoffice export` into an account. An account that already has "
      + "records is refused unless --merge is given. All or nothing."
  }

  func run(using context: CommandContext, signature: Signature) async throws {
    let app = context.application
    let user = try await BackupCommandSupport.account(signature.email, on: app.db)
    let data: Data
    do {
      if signature.file == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
      } else {
        data = try Data(contentsOf: URL(fileURLWithPath: signature.file))
      }
    } catch {
      throw StartupError("Could not read \(signature.file): \(error.localizedDescription)")
    }
    do {
      let backup = try AccountBackup.decode(data)
      let outcome = try await AccountRestore.run(
        backup, into: try user.requireID(), merge: signature.merge,
        maxPhotoBytes: app.config.maxUploadBytes, on: app.db)
      context.console.print("\(user.email): \(outcome.summary)")
    } catch let error as BackupError {
      throw StartupError(error.message)
    }
  }
}

enum BackupCommandSupport {
  static func account(_ email: String?, on db: any Database) async throws -> User {
    let address = EmailAddress.normalize(email ?? "")
    guard !address.isEmpty else { throw StartupError("--email: name the account.") }
    guard let user = try await Accounts.find(email: address, on: db) else {
      throw StartupError("There is no account with the email \(address).")
    }
    return user
  }
}

/// `backoffice backup [--to FOLDER]`: one whole-server backup now, while the server may keep
/// running (the same copy and check as the scheduled ones).
struct BackupCommand: AsyncCommand {
  struct Signature: CommandSignature {
    @Option(name: "to", help: "Folder for the backup (default: BACKOFFICE_BACKUP_DIR).")
    var to: String?

    init() {}
  }

  var help: String {
    "Back up the whole server (a SQLite database) into a folder, checked before it counts; "
      + "`backoffice restore --from FILE` brings it back."
  }

  func run(using context: CommandContext, signature: Signature) async throws {
    let app = context.application
    guard let storage = app.sqliteStorage, storage.path != nil else {
      throw StartupError(
        "backup copies a SQLite database file; with PostgreSQL use pg_dump (docs/deploy.md).")
    }
    guard let folder = signature.to ?? app.config.backup?.folder else {
      throw StartupError("Name the folder with --to, or set BACKOFFICE_BACKUP_DIR.")
    }
    let keep = app.config.backup?.keep ?? Int.max
    let made = try await BackupThread.run {
      try ServerBackup.run(storage: storage, folder: folder, keep: keep, now: Date())
    }
    context.console.print(
      "Backed up to \(made.path) (\(made.bytes) bytes)"
        + (made.removed.isEmpty ? "." : "; removed \(made.removed.count) older backup(s)."))
  }
}
