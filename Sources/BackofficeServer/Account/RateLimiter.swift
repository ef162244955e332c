import Fluent
import Foundation
import SQLKit
import Vapor

/// Limits attempts in a sliding window, per key (an account, a client address), in a way that
/// holds however many requests arrive at once and however many app instances share the
/// database.
///
/// An attempt first *reserves* its place: it stores its row (committed on its own), then counts
/// the rows in the window. Rows are visible to every later count once committed, so the k-th
/// reservation to commit sees at least k rows, and only the first `limit` ever go on to check a
/// password. A refused attempt takes its row back, so a flood of refused attempts does not
/// stretch the lock-out; a failed attempt leaves its row as the record of the failure; a
/// successful one removes its row again.
struct AttemptLimiter: Sendable {
  struct Rule: Sendable {
    var key: String
    var limit: Int
  }

  /// The rows one attempt reserved, to be kept (failure) or released (success).
  struct Reservation: Sendable {
    var ids: [UUID]
  }

  enum Outcome: Sendable {
    case allowed(Reservation)
    /// Minutes until the oldest counted attempt leaves the window.
    case blocked(minutes: Int)
  }

  /// One row per failed (or reserved) sign-in: `id`, `key`, `attempted_at`. Kept in the
  /// database so several app instances behind a load balancer share the limit.
  static let table = "login_attempts"

  let window: TimeInterval
  let db: any Database
  let now: Date

  func reserve(_ rules: [Rule]) async throws -> Outcome {
    let sql = try sqlDatabase
    let since = now.addingTimeInterval(-window)
    var ids: [UUID] = []
    for rule in rules {
      let id = UUID.random()
      try await sql.insert(into: Self.table)
        .columns("id", "key", "attempted_at")
        .values(SQLBind(id), SQLBind(rule.key), SQLBind(now))
        .run()
      ids.append(id)
    }
    for rule in rules {
      let rows = try await sql.select()
        .column("attempted_at")
        .from(Self.table)
        .where("key", .equal, SQLBind(rule.key))
        .where("attempted_at", .greaterThan, SQLBind(since))
        .orderBy("attempted_at")
        .limit(rule.limit + 1)
        .all()
      if rows.count > rule.limit {
        try await release(Reservation(ids: ids))
        let oldest = try rows[0].decode(column: "attempted_at", as: Date.self)
        let seconds = oldest.addingTimeInterval(window).timeIntervalSince(now)
        return .blocked(minutes: max(1, Int((seconds / 60).rounded(.up))))
      }
    }
    return .allowed(Reservation(ids: ids))
  }

  /// Takes the reservation back: the attempt does not count.
  func release(_ reservation: Reservation) async throws {
    guard !reservation.ids.isEmpty else { return }
    try await sqlDatabase.delete(from: Self.table)
      .where("id", .in, SQLBind.group(reservation.ids))
      .run()
  }

  /// Forgets every attempt under `key` (after a successful sign-in, its account's failures).
  func reset(key: String) async throws {
    try await sqlDatabase.delete(from: Self.table).where("key", .equal, SQLBind(key))
      .run()
  }

  /// Old rows count for nothing; trimming them keeps the table small without a separate job.
  func purge() async throws {
    try await sqlDatabase.delete(from: Self.table)
      .where("attempted_at", .lessThan, SQLBind(now.addingTimeInterval(-window)))
      .run()
  }

  private var sqlDatabase: any SQLDatabase {
    get throws { try db.sql() }
  }
}

/// Sign-in: 5 attempts per account and 20 per client address in 15 minutes.
enum SignInLimits {
  static let window: TimeInterval = 15 * 60
  static let perAccount = 5
  static let perAddress = 20

  static func rules(email: String, address: String) -> [AttemptLimiter.Rule] {
    [
      .init(key: accountKey(email), limit: perAccount),
      .init(key: "address:\(address)", limit: perAddress),
    ]
  }

  static func accountKey(_ email: String) -> String { "account:\(email)" }
}

/// Sign-up: by default 10 attempts per client address an hour
/// (`BACKOFFICE_SIGNUPS_PER_HOUR`), so nobody can script account creation or probe which
/// addresses have accounts.
enum SignUpLimits {
  static let window: TimeInterval = 60 * 60

  static func rules(address: String, perHour: Int) -> [AttemptLimiter.Rule] {
    [.init(key: "signup:\(address)", limit: perHour)]
  }
}
