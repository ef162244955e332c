import Foundation

/// Where a fundraiser is in its life. While **active** its jar is asked for the balance; a
/// **closed** one is no longer asked (the money is in, the volunteer is buying and collecting
/// receipts); a **reported** one has its report on the public page. Each step can be taken
/// back: a closed fundraiser can be reopened, a report taken down.
public enum FundraiserStage: String, CaseIterable, Codable, Hashable, Sendable {
  case active
  case closed
  case reported

  /// The stage's name in the interface language.
  public var displayName: String {
    switch self {
    case .active: L("fundraisers.stage.active")
    case .closed: L("fundraisers.stage.closed")
    case .reported: L("fundraisers.stage.reported")
    }
  }

  /// Whether the jar is still asked for its balance.
  public var asksJar: Bool { self == .active }

  /// The stages one step away: forward and back.
  public var next: [FundraiserStage] {
    switch self {
    case .active: [.closed]
    case .closed: [.reported, .active]
    case .reported: [.closed]
    }
  }

  /// True when `target` is one step from here (forward or back).
  public func canMove(to target: FundraiserStage) -> Bool { next.contains(target) }
}
