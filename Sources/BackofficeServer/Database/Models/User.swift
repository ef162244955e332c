import Fluent
import Foundation
import Vapor

/// An account. Every other record belongs to exactly one of these.
final class User: Model, Authenticatable, @unchecked Sendable {
  static let schema = "users"

  @ID(key: .id) var id: UUID?
  @Field(key: "email") var email: String
  @Field(key: "password_hash") var passwordHash: String
  @Field(key: "locale") var locale: String
  @Field(key: "currency") var currency: String
  /// The interface's language ("en", "uk"); nil follows the browser's `Accept-Language`.
  @OptionalField(key: "ui_language") var uiLanguage: String?
  /// May change what every account shares (the marketing catalog). The first account created
  /// on a server is one; `backoffice user create --admin` makes more.
  @Field(key: "is_admin") var isAdmin: Bool
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(id: UUID? = nil, email: String, passwordHash: String, locale: String, currency: String) {
    self.id = id
    self.email = email
    self.passwordHash = passwordHash
    self.locale = locale
    self.currency = currency
    self.isAdmin = false
  }

  func requireID() throws -> UUID {
    guard let id else { throw Abort(.internalServerError, reason: "User without id") }
    return id
  }
}
