import Fluent
import Foundation
import Vapor

/// Counts failed sign-ins in a sliding window, per account and per client address.
struct SignInRateLimiter: Sendable {
  static let window: TimeInterval = 15 * 60
  static let perAccount = 5
  static let perAddress = 20

  let db: any Database
  let now: Date

  static func accountKey(_ email: String) -> String { "account:\(email)" }
  static func addressKey(_ address: String) -> String { "address:\(address)" }

  /// Minutes until the next attempt is allowed, or nil when an attempt may be made now.
  func blockedMinutes(email: String, address: String) async throws -> Int? {
    let since = now.addingTimeInterval(-Self.window)
    for (key, limit) in [
      (Self.accountKey(email), Self.perAccount), (Self.addressKey(address), Self.perAddress),
    ] {
      let attempts = try await LoginAttempt.query(on: db)
        .filter(\.$key == key).filter(\.$attemptedAt > since)
        .sort(\.$attemptedAt, .ascending)
        .all(\.$attemptedAt)
      if attempts.count >= limit, let oldest = attempts.first {
        let seconds = oldest.addingTimeInterval(Self.window).timeIntervalSince(now)
        return max(1, Int((seconds / 60).rounded(.up)))
      }
    }
    return nil
  }

  func recordFailure(email: String, address: String) async throws {
    try await LoginAttempt(key: Self.accountKey(email), attemptedAt: now).create(on: db)
    try await LoginAttempt(key: Self.addressKey(address), attemptedAt: now).create(on: db)
    // Old rows are useless; trimming here keeps the table small without a separate job.
    try await LoginAttempt.query(on: db)
      .filter(\.$attemptedAt < now.addingTimeInterval(-Self.window)).delete()
  }

  func reset(email: String) async throws {
    try await LoginAttempt.query(on: db).filter(\.$key == Self.accountKey(email)).delete()
  }
}

extension Request {
  /// The client's address as seen by this server (a proxy in front should be trusted
  /// explicitly before X-Forwarded-For is honoured, so it is not read here).
  var clientAddress: String {
    remoteAddress?.ipAddress ?? "unknown"
  }
}
