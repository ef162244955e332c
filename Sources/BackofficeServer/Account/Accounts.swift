import Fluent
import SQLKit
import Vapor

/// Creating accounts, for the sign-up page and `backoffice user create` alike.
enum Accounts {
  /// Stores `user`. The first account on the server becomes its administrator (as does one
  /// created with `admin`): the check and the change are one conditional `UPDATE`, so two
  /// accounts signing up at the same moment on an empty server do not both become one.
  static func create(_ user: User, admin: Bool = false, on db: any Database) async throws {
    user.isAdmin = admin
    try await user.create(on: db)
    guard !admin, let sql = db as? any SQLDatabase else { return }
    let claimed = try await sql.raw(
      """
      UPDATE users SET is_admin = \(bind: true)
      WHERE id = \(bind: try user.requireID())
        AND NOT EXISTS (SELECT 1 FROM users other WHERE other.is_admin = \(bind: true))
      RETURNING id
      """
    ).all()
    user.isAdmin = !claimed.isEmpty
  }
}
