import Foundation

/// A workspace's name: what the header shows and invitations name ("Join “Kyiv bakery”").
public enum WorkspaceName {
  public static let maxLength = 60

  public enum Problem: Error, Equatable, Sendable {
    case blank
    case tooLong
    case control

    public var message: String {
      switch self {
      case .blank: L("workspace.name.blank")
      case .tooLong: L("workspace.name.too_long", ["max": String(WorkspaceName.maxLength)])
      case .control: L("workspace.name.control")
      }
    }
  }

  /// The name trimmed, or why it cannot be one.
  public static func validate(_ raw: String) -> Result<String, Problem> {
    let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { return .failure(.blank) }
    guard name.count <= maxLength else { return .failure(.tooLong) }
    guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { return .failure(.control) }
    return .success(name)
  }

  /// The name a new account's workspace gets: the part of its email before the "@", which
  /// the owner can change in Settings → Members.
  public static func initial(forEmail email: String) -> String {
    let local = email.split(separator: "@").first.map(String.init) ?? email
    let trimmed = String(local.prefix(maxLength))
    return trimmed.isEmpty ? "Workspace" : trimmed
  }
}
