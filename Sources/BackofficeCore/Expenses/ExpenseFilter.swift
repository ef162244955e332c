import Foundation

/// What a list of expenses is narrowed to: a category, a period (one month, or a range of
/// days), a piece of title text and the fundraiser the money was spent for. Pages, exports, the
/// API and its summary all read the same query parameters (`category`, `month`, `from`, `to`,
/// `q`, `fundraiser`) through `parse`.
///
/// A period leaves undated expenses out, since they belong to no period.
public struct ExpenseFilter: Hashable, Sendable {
  /// Longest search text kept; the rest is ignored.
  public static let maxTextLength = 100

  public var category: ExpenseCategory?
  public var month: ExpenseMonth?
  /// First day of the range, inclusive.
  public var from: ExpenseDay?
  /// Last day of the range, inclusive.
  public var to: ExpenseDay?
  /// Trimmed search text; empty means no text filter.
  public var text: String
  /// Only the expenses of this fundraiser (an id of the workspace's; any other matches none).
  public var fundraiser: UUID?

  public init(
    category: ExpenseCategory? = nil, month: ExpenseMonth? = nil, from: ExpenseDay? = nil,
    to: ExpenseDay? = nil, text: String = "", fundraiser: UUID? = nil
  ) {
    self.category = category
    self.month = month
    self.from = from
    self.to = to
    self.text = text
    self.fundraiser = fundraiser
  }

  /// The filter named by query values (nil or empty means "any"), and a message for every
  /// value that could not be used, keyed by parameter name. Values that are fine are kept
  /// even when others are wrong.
  public static func parse(
    category: String? = nil, month: String? = nil, from: String? = nil, to: String? = nil,
    text: String? = nil, fundraiser: String? = nil
  ) -> (filter: ExpenseFilter, errors: [String: String]) {
    var filter = ExpenseFilter()
    var errors: [String: String] = [:]

    if let raw = nonEmpty(category) {
      if let value = ExpenseCategory(label: raw) {
        filter.category = value
      } else {
        errors["category"] = ExpenseMessages.categoryUnknown
      }
    }
    if let raw = nonEmpty(month) {
      if let value = ExpenseMonth(raw) {
        filter.month = value
      } else {
        errors["month"] = ExpenseMessages.monthInvalid
      }
    }
    if let raw = nonEmpty(from) {
      if let value = ExpenseDay(raw) {
        filter.from = value
      } else {
        errors["from"] = ExpenseMessages.dayInvalid
      }
    }
    if let raw = nonEmpty(to) {
      if let value = ExpenseDay(raw) {
        filter.to = value
      } else {
        errors["to"] = ExpenseMessages.dayInvalid
      }
    }
    if let first = filter.from, let last = filter.to, last < first {
      errors["to"] = ExpenseMessages.rangeReversed
      filter.to = nil
    }
    if filter.month != nil, filter.from != nil || filter.to != nil {
      errors["month"] = ExpenseMessages.monthAndRange
      filter.month = nil
    }
    let trimmed = String((text ?? "").filter { !Expense.isControl($0) })
      .trimmingCharacters(in: .whitespacesAndNewlines)
    filter.text = String(trimmed.prefix(maxTextLength))
    if let raw = nonEmpty(fundraiser) {
      if let value = UUID(uuidString: raw) {
        filter.fundraiser = value
      } else {
        errors["fundraiser"] = L("expenses.filter.fundraiser_invalid")
      }
    }
    return (filter, errors)
  }

  /// True when nothing narrows the list.
  public var isEmpty: Bool { self == ExpenseFilter() }

  /// True when a month or a day range is set (undated expenses are then left out).
  public var hasPeriod: Bool { month != nil || from != nil || to != nil }

  /// The instants of the period in `timeZone`, as `date >= lower AND date < upper`; a missing
  /// bound is open. Nil when there is no period.
  public func period(in timeZone: TimeZone) -> (lower: Date?, upper: Date?)? {
    if let month {
      let range = month.range(in: timeZone)
      return (range.lowerBound, range.upperBound)
    }
    guard from != nil || to != nil else { return nil }
    return (from?.start(in: timeZone), to?.next.start(in: timeZone))
  }

  /// The key to look for in titles' search keys (see `SearchNormalizer`); empty for none.
  public var searchKey: String { SearchNormalizer.normalize(text) }

  /// The filter as query values, only those that are set, for links that keep it.
  public var queryItems: [String: String] {
    var items: [String: String] = [:]
    if let category { items["category"] = category.rawValue }
    if let month { items["month"] = month.description }
    if let from { items["from"] = from.description }
    if let to { items["to"] = to.description }
    if !text.isEmpty { items["q"] = text }
    if let fundraiser { items["fundraiser"] = fundraiser.uuidString.lowercased() }
    return items
  }

  private static func nonEmpty(_ value: String?) -> String? {
    guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty
    else { return nil }
    return trimmed
  }
}

/// A calendar day, the unit of a date range filter: "2025-11-22" (an HTML `date` field value).
public struct ExpenseDay: Hashable, Sendable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// Nil unless the numbers name a real day of the years 1–9999.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...ExpenseDate.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Reads exactly "yyyy-MM-dd".
  public init?(_ text: String) {
    let parts = text.trimmingCharacters(in: .whitespaces).split(
      separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// "2025-11-22"
  public var description: String {
    ExpenseDate.pad(year, 4) + "-" + ExpenseDate.pad(month, 2) + "-" + ExpenseDate.pad(day, 2)
  }

  /// The following day (the last day of 9999 has none and stays itself).
  public var next: ExpenseDay {
    if day < ExpenseDate.daysIn(month: month, year: year) {
      return ExpenseDay(year: year, month: month, day: day + 1) ?? self
    }
    if month < 12 { return ExpenseDay(year: year, month: month + 1, day: 1) ?? self }
    return ExpenseDay(year: year + 1, month: 1, day: 1) ?? self
  }

  /// Midnight at the start of the day in `timeZone`.
  public func start(in timeZone: TimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    return calendar.date(from: DateComponents(year: year, month: month, day: day))
      ?? Date(timeIntervalSince1970: 0)
  }

  /// The day as people write it in `locale`, e.g. "22.11.2025".
  public func formatted(locale: BackofficeLocale) -> String {
    locale.formatDate(year: year, month: month, day: day)
  }

  public static func < (lhs: ExpenseDay, rhs: ExpenseDay) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }
}
