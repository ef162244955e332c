import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// One message to send: rendered in its reader's language when it is queued.
struct OutgoingMail: Sendable, Equatable {
  enum Kind: String, Sendable, Codable {
    case passwordReset = "password_reset"
    case signupConfirmation = "signup_confirmation"
    case signupAttempt = "signup_attempt"
    case invitation
    case marketingPlan = "marketing_plan"
  }

  var kind: Kind
  var to: String
  var subject: String
  var body: String
  /// The account that asked for it, so it can see what became of it.
  var requestedBy: UUID? = nil
  var workspaceID: UUID? = nil
  /// Where answers go (the person who sent a plan), when not to the server's address.
  var replyTo: String? = nil
}

/// The outbox: every message is a row before any attempt to send it, so a restart or a relay
/// that is down loses nothing (`MailDelivery` sends and retries). Once a message is sent or
/// given up, its body is emptied: a password-reset link lives in the database only while its
/// message waits.
struct MailOutbox: Sendable {
  static let table = "mail_outbox"

  enum Status: String, Sendable, Codable {
    case queued, sent, failed
  }

  struct Entry: Sendable, Equatable {
    var id: UUID
    var kind: OutgoingMail.Kind
    var to: String
    var replyTo: String?
    var subject: String
    var body: String
    var status: Status
    var attempts: Int
    var nextAttemptAt: Date
    var lastError: String?
    var createdAt: Date
    var sentAt: Date?
  }

  /// What became of a message, in the reader's words: sent, waiting, retrying or not sent,
  /// with the relay's answer (the members, plan review and settings pages all say it so).
  static func stateText(_ entry: Entry) -> String {
    switch entry.status {
    case .sent: L("mail.status.sent")
    case .queued:
      entry.attempts == 0
        ? L("mail.status.queued") : L("mail.status.retrying", ["error": entry.lastError ?? ""])
    case .failed: L("mail.status.failed", ["error": entry.lastError ?? ""])
    }
  }

  /// Waits after the first, second, … failed attempt; the message is given up after the last.
  static let retryDelays: [TimeInterval] = [60, 5 * 60, 15 * 60, 60 * 60, 3 * 60 * 60, 6 * 60 * 60]

  let db: any Database

  private var sql: any SQLDatabase {
    get throws { try db.sql() }
  }

  @discardableResult
  func enqueue(_ mail: OutgoingMail, now: Date) async throws -> UUID {
    let id = UUID.random()
    try await sql.insert(into: Self.table)
      .columns(
        "id", "kind", "recipient", "reply_to", "subject", "body", "requested_by",
        "workspace_id", "status", "attempts", "next_attempt_at", "created_at"
      )
      .values(
        SQLBind(id), SQLBind(mail.kind.rawValue), SQLBind(mail.to), SQLBind(mail.replyTo),
        SQLBind(mail.subject), SQLBind(mail.body), SQLBind(mail.requestedBy),
        SQLBind(mail.workspaceID),
        SQLBind(Status.queued.rawValue), SQLBind(0), SQLBind(now), SQLBind(now)
      )
      .run()
    return id
  }

  /// Messages whose turn has come, oldest first.
  func due(now: Date, limit: Int) async throws -> [Entry] {
    try await select()
      .where("status", .equal, SQLBind(Status.queued.rawValue))
      .where("next_attempt_at", .lessThanOrEqual, SQLBind(now))
      .orderBy("next_attempt_at").limit(limit)
      .all().map(Self.entry)
  }

  func find(_ id: UUID) async throws -> Entry? {
    try await select().where("id", .equal, SQLBind(id)).first().map(Self.entry)
  }

  /// What `account` asked to send lately (of one kind, in one workspace), newest first.
  func recent(
    requestedBy account: UUID, kind: OutgoingMail.Kind, workspace: UUID, limit: Int = 10
  ) async throws -> [Entry] {
    try await select().where("requested_by", .equal, SQLBind(account))
      .where("kind", .equal, SQLBind(kind.rawValue))
      .where("workspace_id", .equal, SQLBind(workspace))
      .orderBy("created_at", .descending).limit(limit)
      .all().map(Self.entry)
  }

  /// The latest messages that were given up or are waiting for another try, newest first:
  /// for the administrator, who sees what the people who asked (a reset, a sign-up) cannot.
  func recentFailures(limit: Int) async throws -> [Entry] {
    try await select().where("last_error", .isNot, SQLLiteral.null)
      .where("status", .notEqual, SQLBind(Status.sent.rawValue))
      .orderBy("created_at", .descending).limit(limit)
      .all().map(Self.entry)
  }

  func all() async throws -> [Entry] {
    try await select().orderBy("created_at").all().map(Self.entry)
  }

  func count(_ status: Status) async throws -> Int {
    let row = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
      .from(Self.table).where("status", .equal, SQLBind(status.rawValue)).first()
    return try row?.decode(column: "n", as: Int.self) ?? 0
  }

  func markSent(_ id: UUID, now: Date) async throws {
    try await sql.update(Self.table)
      .set("status", to: SQLBind(Status.sent.rawValue))
      .set("sent_at", to: SQLBind(now))
      .set("body", to: SQLBind(""))
      .set("last_error", to: SQLLiteral.null)
      .where("id", .equal, SQLBind(id))
      .run()
  }

  /// A failed attempt: tried again after the next delay, or given up (body emptied) when it
  /// was permanent or the delays are used up. Returns whether it was given up.
  @discardableResult
  func markFailed(_ entry: Entry, error: String, permanent: Bool, now: Date) async throws -> Bool {
    let attempts = entry.attempts + 1
    let giveUp = permanent || attempts > Self.retryDelays.count
    let query = try sql.update(Self.table)
      .set("attempts", to: SQLBind(attempts))
      .set("last_error", to: SQLBind(String(error.prefix(500))))
      .where("id", .equal, SQLBind(entry.id))
    if giveUp {
      query.set("status", to: SQLBind(Status.failed.rawValue)).set("body", to: SQLBind(""))
    } else {
      query.set(
        "next_attempt_at", to: SQLBind(now.addingTimeInterval(Self.retryDelays[attempts - 1])))
    }
    try await query.run()
    return giveUp
  }

  /// Forgets sent and given-up messages older than `age`.
  func prune(olderThan age: TimeInterval, now: Date) async throws {
    try await sql.delete(from: Self.table)
      .where("status", .notEqual, SQLBind(Status.queued.rawValue))
      .where("created_at", .lessThan, SQLBind(now.addingTimeInterval(-age)))
      .run()
  }

  private func select() throws -> SQLSelectBuilder {
    try sql.select()
      .columns(
        "id", "kind", "recipient", "reply_to", "subject", "body", "status", "attempts",
        "next_attempt_at",
        "last_error", "created_at", "sent_at"
      )
      .from(Self.table)
  }

  private static func entry(_ row: any SQLRow) throws -> Entry {
    Entry(
      id: try row.decode(column: "id", as: UUID.self),
      kind: OutgoingMail.Kind(rawValue: try row.decode(column: "kind", as: String.self))
        ?? .invitation,
      to: try row.decode(column: "recipient", as: String.self),
      replyTo: try row.decode(column: "reply_to", as: String?.self),
      subject: try row.decode(column: "subject", as: String.self),
      body: try row.decode(column: "body", as: String.self),
      status: Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .failed,
      attempts: try row.decode(column: "attempts", as: Int.self),
      nextAttemptAt: try row.decode(column: "next_attempt_at", as: Date.self),
      lastError: try row.decode(column: "last_error", as: String?.self),
      createdAt: try row.decode(column: "created_at", as: Date.self),
      sentAt: try row.decode(column: "sent_at", as: Date?.self))
  }
}
