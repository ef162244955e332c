import Foundation

/// How far a fundraiser has got: collected ÷ goal, where the goal is the campaign's own
/// target if set and above zero, else the jar's goal if above zero, else there is no progress.
///
/// Named so as not to clash with `Foundation.Progress` in files that import both modules.
public struct FundraiserProgress: Hashable, Sendable {
  /// Where the goal came from.
  public enum Basis: String, Hashable, Sendable, Codable {
    case target
    case jarGoal
  }

  /// Collected so far, in hryvnias (negative input counts as zero).
  public let collected: Decimal
  /// The amount progress is measured against, in hryvnias; always > 0.
  public let goal: Decimal
  public let basis: Basis

  /// `nil` when there is nothing to measure against.
  public init?(collected: Decimal, target: Decimal?, jarGoal: Decimal?) {
    if let target, target > 0 {
      self.goal = target
      self.basis = .target
    } else if let jarGoal, jarGoal > 0 {
      self.goal = jarGoal
      self.basis = .jarGoal
    } else {
      return nil
    }
    self.collected = collected > 0 ? collected : 0
  }

  /// Whole percent, rounded down so 100% appears only once the goal is reached, and not capped:
  /// an overfunded jar honestly shows e.g. 134%.
  public var percent: Int {
    var ratio = collected * 100 / goal
    var floored = Decimal()
    NSDecimalRound(&floored, &ratio, 0, .down)
    return Int(floored.description) ?? Int.max
  }

  /// Filled part of a progress bar, 0…1 (capped at 1), to six decimal places.
  public var fraction: Double {
    guard collected < goal else { return 1 }
    var ratio = collected * 1_000_000 / goal
    var floored = Decimal()
    NSDecimalRound(&floored, &ratio, 0, .down)
    return Double(Int(floored.description) ?? 0) / 1_000_000
  }

  /// Whether the goal has been reached.
  public var isReached: Bool { collected >= goal }

  /// Card text, e.g. "Progress 42%" ("Прогрес 42%").
  public var label: String { L("fundraisers.progress.label", ["percent": String(percent)]) }

  /// Percent shown on cards, or `nil` without a goal.
  public static func percent(collected: Decimal, target: Decimal?, jarGoal: Decimal?) -> Int? {
    FundraiserProgress(collected: collected, target: target, jarGoal: jarGoal)?.percent
  }

  /// Bar fill 0…1, or `nil` without a goal.
  public static func fraction(collected: Decimal, target: Decimal?, jarGoal: Decimal?) -> Double? {
    FundraiserProgress(collected: collected, target: target, jarGoal: jarGoal)?.fraction
  }
}
