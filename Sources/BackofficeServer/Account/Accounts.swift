import Fluent
import SQLKit
import Vapor

/// The accounts' store: creating accounts (for the sign-up page and `backoffice user create`
/// alike), finding them by email and saving their settings.
enum Accounts {
  /// The account with this email (already normalized, as it is stored), if there is one.
  static func find(email: String, on db: any Database) async throws -> User? {
    try await User.query(on: db).filter(\.$email == email).first()
  }

  /// The account with this id, if it still exists.
  static func find(id: UUID, on db: any Database) async throws -> User? {
    try await User.find(id, on: db)
  }

  /// Saves what was changed on `user` (its settings, its password hash).
  static func save(_ user: User, on db: any Database) async throws {
    try await user.save(on: db)
  }

  /// Stores `user` with its own workspace (`WorkspaceStore.createOwn`). The first account on the server becomes its administrator (as does one
  /// created with `admin`). Which account is first is decided by one insert into a table whose
  /// only possible row has a fixed key, in the same transaction as the account: of two accounts
  /// signing up at the same moment on an empty server, the database lets exactly one insert it,
  /// on SQLite and on PostgreSQL with any number of app instances.
  ///
  /// `beforeCommit` runs inside the transaction just before it ends (tests hold it open there).
  static func create(
    _ user: User, admin: Bool = false, on db: any Database,
    beforeCommit: @escaping @Sendable () async throws -> Void = {}
  ) async throws {
    try await db.transaction { db in
      user.isAdmin = admin
      try await user.create(on: db)
      try await WorkspaceStore.createOwn(for: user, on: db)
      guard let sql = db as? any SQLDatabase else { return try await beforeCommit() }
      let claimed = try await sql.raw(
        """
        INSERT INTO \(ident: M083_CreateAdministratorClaim.table) (slot, user_id)
        VALUES (1, \(bind: try user.requireID()))
        ON CONFLICT (slot) DO NOTHING
        RETURNING slot
        """
      ).all()
      if !admin, !claimed.isEmpty {
        user.isAdmin = true
        try await user.save(on: db)
      }
      try await beforeCommit()
    }
  }
}
