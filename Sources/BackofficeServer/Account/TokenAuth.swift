import BackofficeCore
import Crypto
import Fluent
import SQLKit
import Vapor

enum APITokens {
  static let secretPrefix = "bo_"

  /// `userID`'s tokens for `workspaceID` (a token acts in one), newest first.
  static func list(userID: UUID, workspaceID: UUID, on db: any Database) async throws
    -> [APIToken]
  {
    try await db.sql().raw(
      """
      SELECT \(unsafeRaw: APIToken.columns) FROM api_tokens
      WHERE user_id = \(bind: userID) AND workspace_id = \(bind: workspaceID)
      ORDER BY created_at DESC, id
      """
    ).all().map(APIToken.init)
  }

  /// The token with this id, when it is `userID`'s for `workspaceID`.
  static func find(_ id: UUID, userID: UUID, workspaceID: UUID, on db: any Database)
    async throws -> APIToken?
  {
    try await db.sql().raw(
      """
      SELECT \(unsafeRaw: APIToken.columns) FROM api_tokens
      WHERE id = \(bind: id) AND user_id = \(bind: userID) AND workspace_id = \(bind: workspaceID)
      """
    ).first().map(APIToken.init)
  }

  static func create(_ token: APIToken, on db: any Database) async throws {
    try await PreparedInsert([token.newRow]).run(on: db)
  }

  /// Notes that the token was used `at` (the settings page shows it).
  static func markUsed(_ id: UUID, at date: Date, on db: any Database) async throws {
    try await db.sql().raw(
      "UPDATE api_tokens SET last_used_at = \(bind: date) WHERE id = \(bind: id)"
    )
    .run()
  }

  static func revoke(_ token: APIToken, on db: any Database) async throws {
    try await db.sql().raw("DELETE FROM api_tokens WHERE id = \(bind: token.id)").run()
  }

  /// Removes `userID`'s tokens for `workspaceID` (a member leaving the workspace).
  static func revokeAll(of userID: UUID, in workspaceID: UUID, on db: any Database) async throws {
    try await db.sql().raw(
      """
      DELETE FROM api_tokens WHERE user_id = \(bind: userID) AND workspace_id = \(bind: workspaceID)
      """
    ).run()
  }

  /// Removes every token of `userID` (a password reset).
  static func revokeAll(of userID: UUID, on db: any Database) async throws {
    try await db.sql().raw("DELETE FROM api_tokens WHERE user_id = \(bind: userID)").run()
  }

  /// A token acts for its member in its workspace, with the member's role there: a member
  /// removed from the workspace finds the token refused (no membership, no row).
  static let lookup = ShortRead(
    """
    SELECT t.id AS token_id, t.last_used_at, \(Accounts.columns(of: "u")),
      m.workspace_id, m.role AS member_role, w.name AS workspace_name,
      w.currency AS workspace_currency
    FROM api_tokens t JOIN users u ON u.id = t.user_id
    JOIN memberships m ON m.user_id = t.user_id AND m.workspace_id = t.workspace_id
    JOIN workspaces w ON w.id = t.workspace_id
    WHERE t.token_hash = CAST(?1 AS TEXT)
    """)

  /// A token's row, its account and its workspace, read with one plain SQL statement: this
  /// runs before every API request, so it skips the model layer's per-query work and, on an
  /// SQLite file, any thread hand-off. The workspace's change versions are not read here: only
  /// a read the cache may answer needs one (`Request.cached`), and most API requests do not.
  static func account(forHash hash: String, on db: any Database)
    async throws -> (tokenID: UUID, lastUsedAt: Date?, user: User, workspace: WorkspaceContext)?
  {
    guard let row = try await lookup.first(on: db, [hash]),
      let workspace = try WorkspaceContext.decode(row)
    else { return nil }
    let user = try User(row)
    return (
      try row.decode(column: "token_id", as: UUID.self),
      try row.decode(column: "last_used_at", as: Date?.self), user, workspace
    )
  }
}

/// What is kept of a secret handed to a person (an API token, a browser session, an invitation
/// link): its SHA-256, in hex. The secret itself is never stored.
func secretHash(_ secret: String) -> String {
  // The secret's bytes are hashed where they are (every API call hashes its token).
  var text = secret
  let digest = text.withUTF8 { bytes in SHA256.hash(data: UnsafeRawBufferPointer(bytes)) }
  return hexString(digest)
}

/// Lower-case hexadecimal, without the cost of formatting each byte as a string.
func hexString(_ bytes: some Sequence<UInt8>) -> String {
  let digits: StaticString = "0123456789abcdef"
  return digits.withUTF8Buffer { digits in
    var out: [UInt8] = []
    out.reserveCapacity(64)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
