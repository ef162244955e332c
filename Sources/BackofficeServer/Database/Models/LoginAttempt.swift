import Fluent
import Foundation

/// One failed sign-in, counted per account and per client address. Kept in the database so
/// several app instances behind a load balancer share the limit.
final class LoginAttempt: Model, @unchecked Sendable {
  static let schema = "login_attempts"

  @ID(key: .id) var id: UUID?
  @Field(key: "key") var key: String
  @Field(key: "attempted_at") var attemptedAt: Date

  init() {}

  init(key: String, attemptedAt: Date) {
    self.key = key
    self.attemptedAt = attemptedAt
  }
}
