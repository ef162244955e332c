import BackofficeCore
import Foundation
import SQLKit
import Vapor

/// An account, as plain values: what the session or token read gives every request and what
/// the accounts' store (`Accounts`, the only place with its SQL) reads and writes.
struct User: Sendable, Equatable {
  static let schema = "users"

  var id: UUID
  var email: String
  var passwordHash: String
  var locale: String
  var currency: String
  /// The interface's language ("en", "uk"); nil follows the browser's `Accept-Language`.
  var uiLanguage: String?
  /// May change what every account shares (the marketing catalog). The first account created
  /// on a server is one; `backoffice user create --admin` makes more.
  var isAdmin: Bool
  var createdAt: Date?

  /// A new account (not stored until `Accounts.create`).
  init(
    id: UUID = .random(), email: String, passwordHash: String, locale: String, currency: String,
    uiLanguage: String? = nil, isAdmin: Bool = false, createdAt: Date? = nil
  ) {
    self.id = id
    self.email = email
    self.passwordHash = passwordHash
    self.locale = locale
    self.currency = currency
    self.uiLanguage = uiLanguage
    self.isAdmin = isAdmin
    self.createdAt = createdAt
  }

  /// The columns `Accounts` selects (`users.*` under their own names), from a row of any
  /// database, by name (also inside a joined row that names them so).
  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    email = try row.decode(column: "email", as: String.self)
    passwordHash = try row.decode(column: "password_hash", as: String.self)
    locale = try row.decode(column: "locale", as: String.self)
    currency = try row.decode(column: "currency", as: String.self)
    uiLanguage = try row.decode(column: "ui_language", as: String?.self)
    isAdmin = try row.decode(column: "is_admin", as: Bool.self)
    createdAt = try row.decode(column: "created_at", as: Date?.self)
  }

  /// The id, as a record's `requireID()` gives its own (an account always has one).
  func requireID() throws -> UUID { id }
}
