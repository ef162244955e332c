import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit
import Vapor

/// Members and invitations of one workspace: every change of who is in it goes through here,
/// for the pages and the API alike, with the rules of `MembershipRules`.
struct WorkspaceMembers: Sendable {
  let db: any Database
  let workspaceID: UUID

  struct Member: Sendable, Equatable {
    var userID: UUID
    var email: String
    var role: WorkspaceRole
    var joinedAt: Date?
    /// The account that created the workspace: its owner for as long as it exists.
    var isCreator = false
  }

  /// The account that created the workspace.
  func creator() async throws -> UUID? {
    try await WorkspaceStore(db: db).find(workspaceID)?.creatorID
  }

  struct PendingInvitation: Sendable, Equatable {
    var id: UUID
    var role: WorkspaceRole
    var expiresAt: Date
    var createdAt: Date?
    var createdBy: String
  }

  /// The members, owners first, then by email.
  func list() async throws -> [Member] {
    let memberships = try await memberships()
    let users = try await Accounts.find(ids: memberships.map(\.userID), on: db)
    let emails = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0.email) })
    let creator = try await creator()
    return memberships.map {
      Member(
        userID: $0.userID, email: emails[$0.userID] ?? "", role: $0.workspaceRole,
        joinedAt: $0.createdAt, isCreator: $0.userID == creator)
    }
    .sorted { ($0.role, $0.email) < ($1.role, $1.email) }
  }

  /// The members as the rules see them: who and which role (no emails needed).
  private var rules: [MembershipRules.Member] {
    get async throws {
      try await memberships().map {
        MembershipRules.Member(userID: $0.userID, role: $0.workspaceRole)
      }
    }
  }

  /// The workspace's memberships, oldest first.
  private func memberships() async throws -> [Membership] {
    try await DirectQuery.rows(
      """
      SELECT \(unsafeRaw: Membership.columns) FROM memberships
      WHERE workspace_id = \(bind: workspaceID) ORDER BY created_at, id
      """ as SQLQueryString, on: db
    ).map(Membership.init)
  }

  /// Gives `member` the role `role`; the refusal of `MembershipRules` otherwise.
  func setRole(of member: UUID, to role: WorkspaceRole) async throws -> MembershipRules.Refusal? {
    if let refusal = MembershipRules.changeRole(
      of: member, to: role, members: try await rules, creator: try await creator())
    {
      return refusal
    }
    let workspaceID = workspaceID
    try await db.transaction { db in
      try await db.sql().raw(
        """
        UPDATE memberships SET role = \(bind: role.rawValue)
        WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: member)
        """
      ).run()
      if role != .owner {
        try await Self.revokeInvitations(by: member, in: workspaceID, on: db)
      }
    }
    return nil
  }

  /// The links someone made stop working once they can no longer invite: a removed or
  /// demoted owner's unused link would otherwise let them (or a second account of theirs)
  /// back in with the role it names.
  static func revokeInvitations(by member: UUID, in workspaceID: UUID, on db: any Database)
    async throws
  {
    try await db.sql().raw(
      """
      UPDATE invitations SET revoked_at = \(bind: Date())
      WHERE workspace_id = \(bind: workspaceID) AND created_by = \(bind: member)
        AND used_at IS NULL AND revoked_at IS NULL
      """
    ).run()
  }

  /// Takes `member` out of the workspace: their membership and their API tokens for it go, so
  /// their next request there is refused (a browser of theirs falls back to their own).
  func remove(_ member: UUID) async throws -> MembershipRules.Refusal? {
    if let refusal = MembershipRules.remove(
      member, members: try await rules, creator: try await creator())
    {
      return refusal
    }
    let workspaceID = workspaceID
    try await db.transaction { db in
      try await db.sql().raw(
        """
        DELETE FROM memberships
        WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: member)
        """
      ).run()
      try await APITokens.revokeAll(of: member, in: workspaceID, on: db)
      try await ProductStore(db: db, workspaceID: workspaceID, viewerID: member)
        .removeFavorites(of: member)
      try await Self.revokeInvitations(by: member, in: workspaceID, on: db)
    }
    return nil
  }

  // MARK: invitations

  /// Invitations not yet used, revoked or expired at `now`, newest first.
  func pendingInvitations(now: Date) async throws -> [PendingInvitation] {
    let invitations = try await DirectQuery.rows(
      """
      SELECT \(unsafeRaw: Invitation.columns) FROM invitations
      WHERE workspace_id = \(bind: workspaceID) AND used_at IS NULL AND revoked_at IS NULL
        AND expires_at > \(bind: now)
      ORDER BY created_at DESC, id
      """ as SQLQueryString, on: db
    ).map(Invitation.init)
    let users = try await Accounts.find(ids: invitations.map(\.createdBy), on: db)
    let emails = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0.email) })
    return invitations.map { invitation in
      PendingInvitation(
        id: invitation.id, role: invitation.workspaceRole, expiresAt: invitation.expiresAt,
        createdAt: invitation.createdAt, createdBy: emails[invitation.createdBy] ?? "")
    }
  }

  /// A new invitation; the secret for its link is returned here only (its hash is kept).
  func invite(role: WorkspaceRole, days: Int, by creator: UUID, now: Date, clients: AppClients)
    async throws -> (id: UUID, secret: String, expiresAt: Date)
  {
    let secret = randomToken(clients)
    let invitation = Invitation(
      workspaceID: workspaceID, tokenHash: secretHash(secret), role: role, createdBy: creator,
      expiresAt: now.addingTimeInterval(Double(days) * 24 * 60 * 60), createdAt: now)
    try await PreparedInsert([invitation.newRow]).run(on: db)
    return (invitation.id, secret, invitation.expiresAt)
  }

  /// Revokes a pending invitation of this workspace; false when there is none by that id.
  /// One conditional statement, like joining's claim: of a revocation and a join at the same
  /// moment exactly one wins, and a link someone has just used is not reported revoked.
  func revoke(_ id: UUID, now: Date) async throws -> Bool {
    let sql = try db.sql()
    let revoked = try await sql.update(Invitation.table)
      .set("revoked_at", to: SQLBind(now))
      .where("workspace_id", .equal, SQLBind(workspaceID))
      .where("id", .equal, SQLBind(id))
      .where("used_at", .is, SQLLiteral.null)
      .where("revoked_at", .is, SQLLiteral.null)
      .returning("id").all()
    return !revoked.isEmpty
  }
}

/// Opening an invitation's link: what it offers, and joining with it.
enum Invitations {
  struct Offer: Sendable, Equatable {
    var invitationID: UUID
    var workspaceID: UUID
    var workspaceName: String
    var role: WorkspaceRole
    var expiresAt: Date
  }

  enum Problem: Error, Equatable {
    /// Unknown, used, revoked or expired: the same answer for all, so a guessed link tells
    /// nothing.
    case unusable
    case alreadyMember(UUID)
  }

  /// The invitation behind `secret`, if it can still be used at `now`.
  static func offer(secret: String, now: Date, on db: any Database) async throws -> Offer? {
    guard SessionMiddleware.looksLikeSecret(secret),
      let invitation = try await DirectQuery.first(
        """
        SELECT \(unsafeRaw: Invitation.columns) FROM invitations
        WHERE token_hash = \(bind: secretHash(secret))
        """ as SQLQueryString, on: db
      ).map(Invitation.init),
      invitation.usedAt == nil, invitation.revokedAt == nil, invitation.expiresAt > now,
      let workspace = try await WorkspaceStore(db: db).find(invitation.workspaceID),
      // Only while whoever made it is still an owner there.
      try await role(of: invitation.createdBy, in: invitation.workspaceID, on: db) == .owner
    else { return nil }
    return Offer(
      invitationID: invitation.id, workspaceID: invitation.workspaceID,
      workspaceName: workspace.name,
      role: invitation.workspaceRole, expiresAt: invitation.expiresAt)
  }

  /// `userID`'s role in `workspaceID`; nil when they are not a member.
  static func role(of userID: UUID, in workspaceID: UUID, on db: any Database) async throws
    -> WorkspaceRole?
  {
    try await DirectQuery.first(
      """
      SELECT role FROM memberships
      WHERE workspace_id = \(bind: workspaceID) AND user_id = \(bind: userID)
      """ as SQLQueryString, on: db
    ).map { WorkspaceRole(rawValue: try $0.decode(column: "role", as: String.self)) ?? .viewer }
  }

  /// `userID` joins with the invitation behind `secret`: it is used up in one conditional
  /// statement (of two people opening one link at once, one joins) in the same transaction
  /// as the membership. A member already is not given a second role, and the link stays
  /// usable for the person it was meant for.
  static func join(secret: String, userID: UUID, now: Date, on db: any Database) async throws
    -> Result<Offer, Problem>
  {
    guard let offer = try await offer(secret: secret, now: now, on: db) else {
      return .failure(.unusable)
    }
    if try await role(of: userID, in: offer.workspaceID, on: db) != nil {
      return .failure(.alreadyMember(offer.workspaceID))
    }
    do {
      return try await db.transaction { db in
        let sql = try db.sql()
        let claimed = try await sql.update(Invitation.table)
          .set("used_at", to: SQLBind(now))
          .set("used_by", to: SQLBind(userID))
          .where("id", .equal, SQLBind(offer.invitationID))
          .where("used_at", .is, SQLLiteral.null)
          .where("revoked_at", .is, SQLLiteral.null)
          .where("expires_at", .greaterThan, SQLBind(now))
          .returning("id").all()
        guard !claimed.isEmpty else { return .failure(.unusable) }
        // The same person joining through a second link at the same moment: the first
        // membership stands, and this link is given back (the transaction is rolled back).
        let joined = try await sql.insert(into: Membership.table)
          .columns("id", "workspace_id", "user_id", "role", "created_at")
          .values(
            SQLBind(UUID.random()), SQLBind(offer.workspaceID), SQLBind(userID),
            SQLBind(offer.role.rawValue), SQLBind(now)
          )
          .ignoringConflicts(with: ["workspace_id", "user_id"])
          .returning("id").all()
        guard !joined.isEmpty else { throw AlreadyJoined() }
        return .success(offer)
      }
    } catch is AlreadyJoined {
      return .failure(.alreadyMember(offer.workspaceID))
    }
  }

  /// Rolls a join back when the person became a member meanwhile.
  private struct AlreadyJoined: Error {}
}
