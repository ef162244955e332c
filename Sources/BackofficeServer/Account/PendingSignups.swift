import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Sign-ups waiting for their address to be confirmed (when mail is on). The account is made
/// only when the link in the confirmation mail is used, so an address nobody controls never
/// gets one, and the sign-up page answers a taken address exactly as a new one.
enum PendingSignups {
  static let table = "pending_signups"
  static let lifetime: TimeInterval = 24 * 60 * 60
  /// Confirmation or "someone tried" mails to one address an hour, whoever asks.
  static let mailsPerAddress = 3

  struct Pending: Sendable {
    var email: String
    var passwordHash: String
    var locale: String
    var currency: String
    var uiLanguage: String
    var next: String?
  }

  static func create(_ pending: Pending, clients: AppClients, on db: any Database) async throws
    -> String
  {
    let secret = randomToken(clients)
    let now = clients.now()
    try await db.sql().insert(into: table)
      .columns(
        "id", "email", "password_hash", "locale", "currency", "ui_language", "next",
        "token_hash", "created_at", "expires_at"
      )
      .values(
        SQLBind(UUID.random()), SQLBind(pending.email), SQLBind(pending.passwordHash),
        SQLBind(pending.locale), SQLBind(pending.currency), SQLBind(pending.uiLanguage),
        SQLBind(pending.next), SQLBind(secretHash(secret)), SQLBind(now),
        SQLBind(now.addingTimeInterval(lifetime))
      )
      .run()
    // Old requests nobody confirmed go.
    try await db.sql().delete(from: table).where("expires_at", .lessThan, SQLBind(now)).run()
    return secret
  }

  static func find(secret: String, now: Date, on db: any Database) async throws -> Pending? {
    guard secret.count <= 100 else { return nil }
    let row = try await db.sql().select()
      .columns("email", "password_hash", "locale", "currency", "ui_language", "next")
      .from(table)
      .where("token_hash", .equal, SQLBind(secretHash(secret)))
      .where("expires_at", .greaterThan, SQLBind(now))
      .first()
    return try row.map {
      Pending(
        email: try $0.decode(column: "email", as: String.self),
        passwordHash: try $0.decode(column: "password_hash", as: String.self),
        locale: try $0.decode(column: "locale", as: String.self),
        currency: try $0.decode(column: "currency", as: String.self),
        uiLanguage: try $0.decode(column: "ui_language", as: String.self),
        next: try $0.decode(column: "next", as: String?.self))
    }
  }

  /// Makes the account of the link `secret`: nil when the link cannot be used, `.taken` when
  /// the address got an account meanwhile (another link of it, used first).
  enum Outcome {
    case created(User, next: String?)
    case taken
    case unusable
  }

  static func confirm(secret: String, now: Date, on db: any Database) async throws -> Outcome {
    guard let pending = try await find(secret: secret, now: now, on: db) else { return .unusable }
    let user: User
    do {
      user = try await Accounts.create(
        User(
          email: pending.email, passwordHash: pending.passwordHash, locale: pending.locale,
          currency: pending.currency, uiLanguage: pending.uiLanguage),
        on: db)
    } catch let error as DatabaseError where error.isConstraintFailure {
      return .taken
    }
    // Every other link for the address is spent with it.
    try await db.sql().delete(from: table).where("email", .equal, SQLBind(pending.email)).run()
    return .created(user, next: pending.next)
  }
}
