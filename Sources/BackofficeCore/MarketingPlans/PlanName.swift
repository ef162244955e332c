import Foundation

/// The name a person gives a plan so they can find it again in their list.
public enum PlanName {
  public static let maxLength = 100

  /// Trimmed, with runs of whitespace (including line breaks) made single spaces.
  public static func normalize(_ raw: String) -> String {
    raw.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// Why a (normalized) name cannot be used, or nil.
  public static func problem(with name: String) -> String? {
    if name.hasNothingVisible { return L("marketing.plan_name.blank") }
    if name.count > maxLength {
      return L("marketing.validation.too_long", count: maxLength)
    }
    return nil
  }

  /// "Plan of 11/22/2025": a new plan's name until it is renamed.
  public static func defaultName(on date: Date, locale: BackofficeLocale, timeZone: TimeZone)
    -> String
  {
    L("marketing.plan_name.default", ["date": locale.formatDate(date, timeZone: timeZone)])
  }

  /// "Copy of Spring push", cut to fit the length limit.
  public static func copyName(of name: String) -> String {
    String(L("marketing.plan_name.copy", ["name": name]).prefix(maxLength))
  }
}
