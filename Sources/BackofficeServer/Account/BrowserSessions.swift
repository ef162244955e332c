import Crypto
import Fluent
import Foundation
import SQLKit
import Vapor

/// A signed-in browser. Only signed-in browsers have a row: an anonymous visitor gets its CSRF
/// token in a cookie of its own (`AnonymousCSRF`), so a crawler fetching `/sign-in` writes
/// nothing. The cookie holds a random secret; the table keeps only its SHA-256, so a copy of the
/// database does not sign anyone in.
struct BrowserSession: Sendable, Equatable {
  /// SHA-256 of the cookie secret, hex.
  var id: String
  var userID: UUID
  /// The workspace this browser works in; nil for the account's own.
  var workspaceID: UUID? = nil
  var csrf: String
  /// Small per-browser values that outlive one request (the expense to offer "Undo" for).
  var data: [String: String]
  var createdAt: Date
  var lastSeenAt: Date

  /// A session ends after this long without a request…
  static let idleLifetime: TimeInterval = 14 * 24 * 60 * 60
  /// …and this long after sign-in, however busy it was.
  static let absoluteLifetime: TimeInterval = 30 * 24 * 60 * 60
  /// `last_seen_at` is written at most this often, so reading pages does not mean writing rows.
  static let touchInterval: TimeInterval = 10 * 60

  static let cookieName = "backoffice_session"

  func isExpired(at now: Date) -> Bool {
    now.timeIntervalSince(lastSeenAt) > Self.idleLifetime
      || now.timeIntervalSince(createdAt) > Self.absoluteLifetime
  }
}

/// Every read and write of `browser_sessions`, in plain SQL that both databases run.
struct BrowserSessionStore: Sendable {
  static let table = "browser_sessions"
  let db: any Database

  private var sql: any SQLDatabase {
    get throws { try db.sql() }
  }

  /// Stores a new session and returns it with the secret for the cookie.
  func create(userID: UUID, csrf: String, secret: String, now: Date) async throws
    -> BrowserSession
  {
    let session = BrowserSession(
      id: secretHash(secret), userID: userID, csrf: csrf, data: [:], createdAt: now,
      lastSeenAt: now)
    try await sql.insert(into: Self.table)
      .columns("id", "user_id", "csrf", "data", "created_at", "last_seen_at")
      .values(
        SQLBind(session.id), SQLBind(userID), SQLBind(csrf), SQLBind("{}"), SQLBind(now),
        SQLBind(now)
      )
      .run()
    return session
  }

  /// The session, its account, and the workspace it works in with the account's role there
  /// (no membership columns when the account is no longer a member of it).
  static let lookup = ShortRead(
    """
    SELECT s.id AS session_id, s.csrf, s.data, s.created_at AS session_created_at,
      s.last_seen_at, s.workspace_id AS session_workspace, \(Accounts.columns(of: "u")),
      m.workspace_id, m.role AS member_role, w.name AS workspace_name,
      w.currency AS workspace_currency,
      (SELECT COUNT(*) FROM memberships c WHERE c.user_id = s.user_id) AS workspace_count
    FROM browser_sessions s JOIN users u ON u.id = s.user_id
    LEFT JOIN memberships m ON m.user_id = s.user_id
      AND m.workspace_id = COALESCE(s.workspace_id, s.user_id)
    LEFT JOIN workspaces w ON w.id = m.workspace_id
    WHERE s.id = CAST(?1 AS TEXT)
    """)

  /// The session, its account and its workspace in one read; nil for an unknown secret. Every
  /// page request runs it, so on an SQLite file it is a short read on the request's thread.
  func find(secret: String) async throws
    -> (session: BrowserSession, user: User, workspace: WorkspaceContext?, workspaceCount: Int)?
  {
    guard
      let row = try await Self.lookup.first(
        on: db, [secretHash(secret)])
    else { return nil }
    let user = try User(row)
    let data = try row.decode(column: "data", as: String.self)
    let session = BrowserSession(
      id: try row.decode(column: "session_id", as: String.self), userID: try user.requireID(),
      workspaceID: try row.decode(column: "session_workspace", as: UUID?.self),
      csrf: try row.decode(column: "csrf", as: String.self),
      data: (try? JSONDecoder().decode([String: String].self, from: Data(data.utf8))) ?? [:],
      createdAt: try row.decode(column: "session_created_at", as: Date.self),
      lastSeenAt: try row.decode(column: "last_seen_at", as: Date.self))
    return (
      session, user, try WorkspaceContext.decode(row),
      try row.decode(column: "workspace_count", as: Int.self)
    )
  }

  /// Makes the session work in `workspaceID` (a workspace the account belongs to).
  func setWorkspace(id: String, workspaceID: UUID) async throws {
    try await sql.update(Self.table)
      .set("workspace_id", to: SQLBind(workspaceID))
      .where("id", .equal, SQLBind(id))
      .run()
  }

  /// Writes when the session was last seen and, when `includingData`, its data. Leaving the
  /// data alone when it did not change keeps a slow request from undoing a faster one's write.
  func save(_ session: BrowserSession, includingData: Bool) async throws {
    let update = try sql.update(Self.table)
      .set("last_seen_at", to: SQLBind(session.lastSeenAt))
      .where("id", .equal, SQLBind(session.id))
    if includingData {
      let data = String(decoding: try JSONEncoder.sortedKeys.encode(session.data), as: UTF8.self)
      update.set("data", to: SQLBind(data))
    }
    try await update.run()
  }

  func delete(id: String) async throws {
    try await sql.delete(from: Self.table).where("id", .equal, SQLBind(id)).run()
  }

  /// Ends every session of `userID` but `keeping` (the browser asking); returns how many ended.
  @discardableResult
  func deleteAll(userID: UUID, keeping: String? = nil) async throws -> Int {
    let query = try sql.delete(from: Self.table).where("user_id", .equal, SQLBind(userID))
    if let keeping { query.where("id", .notEqual, SQLBind(keeping)) }
    return try await query.returning("id").all().count
  }

  /// How many sessions of `userID` are alive at `now`, not counting `excluding`.
  func countActive(userID: UUID, excluding: String?, now: Date) async throws -> Int {
    let query = try sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")
      .from(Self.table)
      .where("user_id", .equal, SQLBind(userID))
      .where(
        "last_seen_at", .greaterThan, SQLBind(now.addingTimeInterval(-BrowserSession.idleLifetime))
      )
      .where(
        "created_at", .greaterThan,
        SQLBind(now.addingTimeInterval(-BrowserSession.absoluteLifetime)))
    if let excluding { query.where("id", .notEqual, SQLBind(excluding)) }
    return try await query.first()?.decode(column: "n", as: Int.self) ?? 0
  }

  /// Removes every expired session of every account (run on sign-in, so the table stays small
  /// without a separate job).
  func purgeExpired(now: Date) async throws {
    try await sql.delete(from: Self.table)
      .where(
        "last_seen_at", .lessThan,
        SQLBind(now.addingTimeInterval(-BrowserSession.idleLifetime))
      )
      .orWhere(
        "created_at", .lessThan,
        SQLBind(now.addingTimeInterval(-BrowserSession.absoluteLifetime))
      )
      .run()
  }
}

extension JSONEncoder {
  /// Stable output for values stored as text.
  static let sortedKeys: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()
}
