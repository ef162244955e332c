import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Password-reset links: one use, one hour, only the SHA-256 of the secret kept. Using one
/// sets the password and ends every session and API token of the account.
enum PasswordResets {
  static let table = "password_resets"
  static let lifetime: TimeInterval = 60 * 60

  /// A new link's secret for `userID`.
  static func create(userID: UUID, clients: AppClients, on db: any Database) async throws
    -> String
  {
    let secret = randomToken(clients)
    let now = clients.now()
    try await db.sql().insert(into: table)
      .columns("id", "user_id", "token_hash", "created_at", "expires_at")
      .values(
        SQLBind(UUID.random()), SQLBind(userID), SQLBind(secretHash(secret)), SQLBind(now),
        SQLBind(now.addingTimeInterval(lifetime))
      )
      .run()
    return secret
  }

  /// The account whose link `secret` is, if the link can still be used at `now`.
  static func account(secret: String, now: Date, on db: any Database) async throws -> UUID? {
    guard secret.count <= 100 else { return nil }
    let row = try await db.sql().select().column("user_id").from(table)
      .where("token_hash", .equal, SQLBind(secretHash(secret)))
      .where("used_at", .is, SQLLiteral.null)
      .where("expires_at", .greaterThan, SQLBind(now))
      .first()
    return try row?.decode(column: "user_id", as: UUID.self)
  }

  /// Uses the link: in one transaction, claims it (of two uses at once exactly one wins),
  /// stores the new password's hash, and ends every session, API token and other reset link
  /// of the account. Nil when the link could not be used.
  static func use(secret: String, passwordHash: String, now: Date, on db: any Database)
    async throws -> UUID?
  {
    guard secret.count <= 100 else { return nil }
    return try await db.transaction { db in
      let sql = try db.sql()
      let claimed = try await sql.update(table)
        .set("used_at", to: SQLBind(now))
        .where("token_hash", .equal, SQLBind(secretHash(secret)))
        .where("used_at", .is, SQLLiteral.null)
        .where("expires_at", .greaterThan, SQLBind(now))
        .returning("user_id").all()
      guard let userID = try claimed.first?.decode(column: "user_id", as: UUID.self) else {
        return nil
      }
      try await sql.update(User.schema).set("password_hash", to: SQLBind(passwordHash))
        .where("id", .equal, SQLBind(userID)).run()
      try await endEverything(of: userID, on: db)
      return userID
    }
  }

  /// Gives `user` the password `hash` and signs it out everywhere (`endEverything`), in one
  /// transaction (`backoffice user password`).
  static func setPassword(_ user: User, hash: String, on db: any Database) async throws {
    let userID = user.id
    var user = user
    user.passwordHash = hash
    let changed = user
    try await db.transaction { db in
      try await Accounts.save(changed, on: db)
      try await endEverything(of: userID, on: db)
    }
  }

  /// Ends every browser session and API token of `userID` and drops its unused reset links.
  static func endEverything(of userID: UUID, on db: any Database) async throws {
    let sql = try db.sql()
    _ = try await BrowserSessionStore(db: db).deleteAll(userID: userID)
    try await APITokens.revokeAll(of: userID, on: db)
    try await sql.delete(from: table).where("user_id", .equal, SQLBind(userID))
      .where("used_at", .is, SQLLiteral.null).run()
  }
}

/// How often reset links may be asked for: per client address (answered 429), and per
/// address asked about (silently: the answer must not differ by account).
enum PasswordResetLimits {
  static let window: TimeInterval = 60 * 60
  static let perAddress = 10
  static let perAccount = 3

  static func addressRule(_ address: String) -> AttemptLimiter.Rule {
    .init(key: "reset-address:\(address)", limit: perAddress)
  }

  static func accountRule(_ email: String) -> AttemptLimiter.Rule {
    .init(key: "reset-account:\(email)", limit: perAccount)
  }
}
