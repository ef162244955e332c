import Fluent
import SQLKit
import Vapor

/// The accounts' store, the only place with the `users` table's SQL: creating accounts (for the
/// sign-up page and `backoffice user create` alike), finding them and saving their settings.
/// Plain SQL through SQLKit, the same on SQLite and PostgreSQL; the session and token reads
/// (`BrowserSessions`, `APITokens`) select the same columns joined to theirs.
enum Accounts {
  /// The columns of an account, as `User.init(_:)` reads them.
  static let columnNames = [
    "id", "email", "password_hash", "locale", "currency", "ui_language", "is_admin", "created_at",
  ]
  static let columns = columnNames.joined(separator: ", ")

  /// The same columns of the `users` table joined as `alias` (the session and token reads).
  static func columns(of alias: String) -> String {
    columnNames.map { "\(alias).\($0)" }.joined(separator: ", ")
  }

  /// The account with this email (already normalized, as it is stored), if there is one.
  static func find(email: String, on db: any Database) async throws -> User? {
    try await db.sql().raw(
      "SELECT \(unsafeRaw: columns) FROM users WHERE email = \(bind: email)"
    ).first().map(User.init)
  }

  /// The account with this id, if it still exists.
  static func find(id: UUID, on db: any Database) async throws -> User? {
    try await db.sql().raw("SELECT \(unsafeRaw: columns) FROM users WHERE id = \(bind: id)")
      .first().map(User.init)
  }

  /// The accounts with these ids (those that still exist), in no particular order.
  static func find(ids: some Collection<UUID>, on db: any Database) async throws -> [User] {
    guard !ids.isEmpty else { return [] }
    let list = SQLList(Set(ids).map { SQLBind($0) })
    return try await db.sql().raw(
      "SELECT \(unsafeRaw: columns) FROM users WHERE id IN (\(list))"
    ).all().map(User.init)
  }

  /// Every account, by email (the command line and tests).
  static func all(on db: any Database) async throws -> [User] {
    try await db.sql().raw("SELECT \(unsafeRaw: columns) FROM users ORDER BY email")
      .all().map(User.init)
  }

  /// Writes `user`'s email, password hash, settings and role over its stored row.
  static func save(_ user: User, on db: any Database) async throws {
    try await db.sql().raw(
      """
      UPDATE users SET email = \(bind: user.email), password_hash = \(bind: user.passwordHash),
        locale = \(bind: user.locale), currency = \(bind: user.currency),
        ui_language = \(bind: user.uiLanguage), is_admin = \(bind: user.isAdmin)
      WHERE id = \(bind: user.id)
      """
    ).run()
  }

  /// Stores `user` with its own workspace (`WorkspaceStore.createOwn`) and returns it as stored.
  /// The first account on the server becomes its administrator (as does one created with
  /// `admin`). Which account is first is decided by one insert into a table whose only
  /// possible row has a fixed key, in the same transaction as the account: of two accounts
  /// signing up at the same moment on an empty server, the database lets exactly one insert it,
  /// on SQLite and on PostgreSQL with any number of app instances.
  ///
  /// `beforeCommit` runs inside the transaction just before it ends (tests hold it open there).
  static func create(
    _ user: User, admin: Bool = false, now: Date = Date(), on db: any Database,
    beforeCommit: @escaping @Sendable () async throws -> Void = {}
  ) async throws -> User {
    var user = user
    user.isAdmin = admin
    user.createdAt = now
    let stored = user
    return try await db.transaction { db in
      var user = stored
      let sql = try db.sql()
      try await sql.raw(
        """
        INSERT INTO users (\(unsafeRaw: columns))
        VALUES (\(bind: user.id), \(bind: user.email), \(bind: user.passwordHash),
          \(bind: user.locale), \(bind: user.currency), \(bind: user.uiLanguage),
          \(bind: user.isAdmin), \(bind: now))
        """
      ).run()
      try await WorkspaceStore.createOwn(for: user, on: db)
      let claimed = try await sql.raw(
        """
        INSERT INTO \(ident: M083_CreateAdministratorClaim.table) (slot, user_id)
        VALUES (1, \(bind: user.id))
        ON CONFLICT (slot) DO NOTHING
        RETURNING slot
        """
      ).all()
      if !admin, !claimed.isEmpty {
        user.isAdmin = true
        try await save(user, on: db)
      }
      try await beforeCommit()
      return user
    }
  }
}
