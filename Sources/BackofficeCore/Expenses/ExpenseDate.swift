import Foundation

/// Reads and writes expense dates in ISO 8601 without `DateFormatter`, so every platform agrees.
///
/// Accepted: `2025-11-22` (the start of that day), `2025-11-22T15:05` (what an HTML
/// `datetime-local` field sends), `2025-11-22T15:05:30`, optional fractions of a second, a space
/// instead of `T`, and an offset `Z`, `+02:00`, `+0200` or `+02`. Without an offset the time is
/// read in the given time zone (the account's).
public enum ExpenseDate {
  /// The instant `text` names, or nil when it is not one of the accepted forms or not a real
  /// calendar date (2025-02-30).
  public static func parse(_ text: String, timeZone: TimeZone) -> Date? {
    var scanner = Scanner(Array(text.trimmingCharacters(in: .whitespaces).utf8))
    guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2),
      scanner.skip("-"), let day = scanner.number(2),
      (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), year >= 1
    else { return nil }
    var hour = 0
    var minute = 0
    var second = 0
    var nanosecond = 0
    var offset: Int?
    if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
      guard let h = scanner.number(2), scanner.skip(":"), let m = scanner.number(2),
        h < 24, m < 60
      else { return nil }
      hour = h
      minute = m
      if scanner.skip(":") {
        guard let s = scanner.number(2), s < 60 else { return nil }
        second = s
        if scanner.skip(".") || scanner.skip(",") {
          let digits = scanner.digits()
          guard !digits.isEmpty else { return nil }
          let nine = (digits + Array(repeating: 0, count: 9)).prefix(9)
          nanosecond = nine.reduce(0) { $0 * 10 + $1 }
        }
      }
      if scanner.skip("Z") || scanner.skip("z") {
        offset = 0
      } else if let sign = scanner.sign() {
        guard let oh = scanner.number(2), oh <= 23 else { return nil }
        let colon = scanner.skip(":")
        let om = scanner.number(2) ?? (colon ? 60 : 0)
        guard om < 60 else { return nil }
        offset = sign * (oh * 3600 + om * 60)
      }
    }
    guard scanner.atEnd else { return nil }

    // With an offset, the wall time is read in UTC and the offset taken off: time zones only go
    // to ±18:00, while RFC 3339 offsets go to ±23:59.
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = offset == nil ? timeZone : utc
    let parts = DateComponents(
      year: year, month: month, day: day, hour: hour, minute: minute, second: second,
      nanosecond: nanosecond)
    guard let wall = calendar.date(from: parts) else { return nil }
    let date = wall.addingTimeInterval(-TimeInterval(offset ?? 0))
    // The instant must still be a four-digit year in UTC, so it is written back as it was read.
    guard (earliest...latest).contains(date) else { return nil }
    return date
  }

  /// 0001-01-01T00:00:00Z and the end of 9999 in UTC (by the calendar `iso8601` writes with):
  /// what `iso8601` can write with a four-digit year.
  static let earliest = edge(year: 1)
  static let latest = edge(year: 10_000).addingTimeInterval(-0.001)

  private static func edge(year: Int) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = utc
    return calendar.date(from: DateComponents(year: year, month: 1, day: 1))
      ?? Date(timeIntervalSince1970: 0)
  }

  /// ISO 8601 with the offset of `timeZone` at that instant: "2025-11-22T17:05:00+02:00",
  /// or "…Z" in UTC. Seconds are kept; fractions of a second are dropped.
  public static func iso8601(_ date: Date, timeZone: TimeZone = utc) -> String {
    let fields = components(of: date, in: timeZone)
    let offset = timeZone.secondsFromGMT(for: date)
    var zone = "Z"
    if offset != 0 {
      let minutes = abs(offset) / 60
      zone = (offset < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }
    return fields.day + "T" + fields.time + ":" + pad(fields.second, 2) + zone
  }

  /// The value for an HTML `datetime-local` field in `timeZone`: "2025-11-22T15:05".
  public static func inputValue(_ date: Date, timeZone: TimeZone) -> String {
    let fields = components(of: date, in: timeZone)
    return fields.day + "T" + fields.time
  }

  /// UTC, the zone used when none is known.
  public static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }

  private static func components(of date: Date, in timeZone: TimeZone) -> (
    day: String, time: String, second: Int
  ) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    let day = pad(c.year ?? 1970, 4) + "-" + pad(c.month ?? 1, 2) + "-" + pad(c.day ?? 1, 2)
    let time = pad(c.hour ?? 0, 2) + ":" + pad(c.minute ?? 0, 2)
    return (day, time, c.second ?? 0)
  }

  /// Just enough of a scanner for fixed-width ISO fields.
  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
      index += 1
      return true
    }

    /// Exactly `width` ASCII digits.
    mutating func number(_ width: Int) -> Int? {
      guard index + width <= bytes.count else { return nil }
      var value = 0
      for byte in bytes[index..<(index + width)] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      index += width
      return value
    }

    mutating func digits() -> [Int] {
      var result: [Int] = []
      while index < bytes.count, (48...57).contains(bytes[index]) {
        result.append(Int(bytes[index] - 48))
        index += 1
      }
      return result
    }

    mutating func sign() -> Int? {
      if skip("+") { return 1 }
      if skip("-") { return -1 }
      return nil
    }
  }
}

/// A calendar month, the unit of the expense filter and the chart: "2025-11".
public struct ExpenseMonth: Hashable, Sendable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int

  /// Nil unless `month` is 1–12 and `year` is 1–9999.
  public init?(year: Int, month: Int) {
    guard (1...12).contains(month), (1...9999).contains(year) else { return nil }
    self.year = year
    self.month = month
  }

  /// Reads "2025-11" (the value of an HTML `month` field).
  public init?(_ text: String) {
    let parts = text.trimmingCharacters(in: .whitespaces).split(
      separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
      parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) } }),
      let year = Int(parts[0]), let month = Int(parts[1])
    else { return nil }
    self.init(year: year, month: month)
  }

  /// The month that holds `date` in `timeZone`.
  public init(containing date: Date, timeZone: TimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month], from: date)
    year = parts.year ?? 1970
    month = parts.month ?? 1
  }

  /// "2025-11"
  public var description: String { ExpenseDate.pad(year, 4) + "-" + ExpenseDate.pad(month, 2) }

  public var next: ExpenseMonth? {
    month == 12
      ? ExpenseMonth(year: year + 1, month: 1) : ExpenseMonth(year: year, month: month + 1)
  }

  public var previous: ExpenseMonth? {
    month == 1
      ? ExpenseMonth(year: year - 1, month: 12) : ExpenseMonth(year: year, month: month - 1)
  }

  /// From the first instant of the month to the first instant of the next, in `timeZone`:
  /// use it as `date >= lower AND date < upper`.
  public func range(in timeZone: TimeZone) -> Range<Date> {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let start = calendar.date(from: DateComponents(year: year, month: month, day: 1))
    let following = month == 12 ? (year + 1, 1) : (year, month + 1)
    let end = calendar.date(
      from: DateComponents(year: following.0, month: following.1, day: 1))
    let lower = start ?? Date(timeIntervalSince1970: 0)
    return lower..<max(lower, end ?? lower)
  }

  /// Heading in `locale`, e.g. "November 2025".
  public func title(locale: BackofficeLocale) -> String {
    locale.formatMonth(year: year, month: month)
  }

  public static func < (lhs: ExpenseMonth, rhs: ExpenseMonth) -> Bool {
    (lhs.year, lhs.month) < (rhs.year, rhs.month)
  }
}
