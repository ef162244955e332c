import Foundation

/// What a member of a workspace may do. Every record belongs to a workspace; each person who
/// works in it is a member with one role.
public enum WorkspaceRole: String, CaseIterable, Codable, Sendable, Comparable {
  /// Everything: the records, the members and their roles, invitations, the backup, deleting
  /// the workspace.
  case owner
  /// Creates, changes and deletes records.
  case editor
  /// Reads; changes nothing (forms and buttons are hidden, writes are refused).
  case viewer

  /// Most rights first.
  private var rank: Int {
    switch self {
    case .owner: 0
    case .editor: 1
    case .viewer: 2
    }
  }

  public static func < (lhs: WorkspaceRole, rhs: WorkspaceRole) -> Bool { lhs.rank < rhs.rank }

  public func allows(_ access: WorkspaceAccess) -> Bool {
    switch access {
    case .read, .personal: true
    case .write: self != .viewer
    case .manage: self == .owner
    }
  }

  /// The role's name in the interface language ("Owner", "Власник").
  public var title: String {
    switch self {
    case .owner: L("workspace.role.owner")
    case .editor: L("workspace.role.editor")
    case .viewer: L("workspace.role.viewer")
    }
  }

  /// One line on what the role may do.
  public var summary: String {
    switch self {
    case .owner: L("workspace.role.owner_summary")
    case .editor: L("workspace.role.editor_summary")
    case .viewer: L("workspace.role.viewer_summary")
    }
  }
}

/// What a request needs of its member's role.
public enum WorkspaceAccess: String, Sendable, CaseIterable {
  /// Reading the workspace's records.
  case read
  /// The person's own things, whatever their role: their password, locale, API tokens,
  /// favourites, signing out, switching workspace.
  case personal
  /// Creating, changing or deleting records.
  case write
  /// Members, roles, invitations, the backup, deleting the workspace.
  case manage
}
