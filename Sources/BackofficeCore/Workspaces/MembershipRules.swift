import Foundation

/// The rules for changing who is in a workspace, in one place for the pages and the API.
///
/// A workspace is made with its account at sign-up, and that account — its creator — stays
/// its owner for as long as the workspace exists: it cannot be demoted, removed or leave (it
/// can delete the workspace). So a workspace always has an owner, and the rule that its last
/// owner cannot leave or be demoted holds by construction; the checks below say so anyway.
public enum MembershipRules {
  public struct Member: Sendable, Equatable {
    public var userID: UUID
    public var role: WorkspaceRole

    public init(userID: UUID, role: WorkspaceRole) {
      self.userID = userID
      self.role = role
    }
  }

  public enum Refusal: Error, Equatable, Sendable {
    case creatorStaysOwner
    case lastOwner
    case notAMember

    public var message: String {
      switch self {
      case .creatorStaysOwner: L("workspace.members.creator_stays")
      case .lastOwner: L("workspace.members.last_owner")
      case .notAMember: L("workspace.members.not_a_member")
      }
    }
  }

  /// Whether `member` may be given `role` in the workspace created by `creator`.
  public static func changeRole(
    of member: UUID, to role: WorkspaceRole, members: [Member], creator: UUID?
  ) -> Refusal? {
    guard let current = members.first(where: { $0.userID == member }) else { return .notAMember }
    if current.role == role { return nil }
    if member == creator { return .creatorStaysOwner }
    if current.role == .owner, members.filter({ $0.role == .owner }).count <= 1 {
      return .lastOwner
    }
    return nil
  }

  /// Whether `member` may leave, or be removed from, the workspace created by `creator`.
  public static func remove(_ member: UUID, members: [Member], creator: UUID?) -> Refusal? {
    guard let current = members.first(where: { $0.userID == member }) else { return .notAMember }
    if member == creator { return .creatorStaysOwner }
    if current.role == .owner, members.filter({ $0.role == .owner }).count <= 1 {
      return .lastOwner
    }
    return nil
  }
}

/// An invitation's settings: the role it gives and how long it can be used.
public enum InvitationRules {
  /// The choices offered, in days; the form's default is the middle one.
  public static let lifetimes: [Int] = [1, 7, 30]
  public static let defaultLifetime = 7
  /// Invitations always give a role below or equal to the owner's; an owner may invite owners.
  public static let roles: [WorkspaceRole] = [.editor, .viewer, .owner]

  public enum Problem: Error, Equatable, Sendable {
    case role
    case lifetime

    public var message: String {
      switch self {
      case .role: L("workspace.invitations.role_invalid")
      case .lifetime: L("workspace.invitations.lifetime_invalid")
      }
    }
  }

  /// Every problem of a request, by its field (`role`, `days`).
  public struct Problems: Error, Equatable, Sendable {
    public var fields: [String: Problem]
  }

  /// Reads the form's or the API's `role` and `days`; every problem by its field.
  public static func read(role: String?, days: String?) -> Result<
    (role: WorkspaceRole, days: Int), Problems
  > {
    var problems: [String: Problem] = [:]
    let parsedRole = role.flatMap {
      WorkspaceRole(rawValue: $0.trimmingCharacters(in: .whitespaces))
    }
    if parsedRole == nil { problems["role"] = .role }
    var lifetime = defaultLifetime
    if let days, !days.trimmingCharacters(in: .whitespaces).isEmpty {
      if let value = Int(days.trimmingCharacters(in: .whitespaces)), lifetimes.contains(value) {
        lifetime = value
      } else {
        problems["days"] = .lifetime
      }
    }
    guard problems.isEmpty, let parsedRole else { return .failure(Problems(fields: problems)) }
    return .success((parsedRole, lifetime))
  }
}
