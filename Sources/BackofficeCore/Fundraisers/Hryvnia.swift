import Foundation

/// Hryvnia amounts written the Ukrainian way: `15 000 грн`, `15 000,50 грн`.
///
/// Formatting is done by hand from `Decimal` digits (no `NumberFormatter`, no `Locale`) so that
/// Linux and macOS print exactly the same text.
public enum Hryvnia {
  /// The unit written after an amount.
  public static let unit = "грн"

  /// Separates thousands. A no-break space, so "15 000" never wraps across lines.
  public static let groupingSeparator: Character = "\u{00A0}"

  /// Separates hryvnias from kopiykas.
  public static let decimalSeparator: Character = ","

  /// Largest amount `parse` accepts: 999 999 999 999,99 (fits in Int64 kopiykas with room).
  public static let maximum = MinorUnits(99_999_999_999_999).decimal

  /// `"15 000 грн"`, `"15 000,50 грн"`. Whole amounts have no decimals; others have exactly two
  /// (rounded half up). The space before the unit is a no-break space too.
  public static func format(_ amount: Decimal) -> String {
    formatNumber(amount) + String(groupingSeparator) + unit
  }

  /// The number alone, for posters and cards: `"15 000"`, `"15 000,50"`, `"0,05"`.
  public static func formatNumber(_ amount: Decimal) -> String {
    guard amount.isFinite, let kopiykas = MinorUnits.digits(amount) else { return "—" }
    let negative = amount < 0 && kopiykas.contains(where: { $0 != "0" })
    let padded = String(repeating: "0", count: max(0, 3 - kopiykas.count)) + kopiykas
    let whole = padded.dropLast(2)
    let fraction = padded.suffix(2)
    var text = negative ? "-" : ""
    text += grouped(String(whole))
    if fraction != "00" {
      text.append(decimalSeparator)
      text += fraction
    }
    return text
  }

  /// Reads an amount typed by a person.
  ///
  /// Accepts `15000`, `15 000` (ASCII space, no-break space U+00A0, narrow no-break space U+202F
  /// or thin space U+2009 between groups of three), `15000,50`, `15000.50`, and an optional
  /// trailing `грн`, `грн.`, `UAH` or `₴`. Refuses anything else, negatives, and more than two
  /// decimals. `15,000` and `15.000` are refused rather than guessed at: they would be three
  /// decimals, and silently reading them as fifteen thousand (or fifteen) is worse.
  public static func parse(_ text: String) throws(HryvniaParseError) -> Decimal {
    var body = trim(Substring(text))
    guard !body.isEmpty else { throw .empty }

    for suffix in ["грн.", "грн", "uah", "₴"] where body.lowercased().hasSuffix(suffix) {
      body = trim(body.dropLast(suffix.count))
      break
    }
    if body.first == "₴" { body = trim(body.dropFirst()) }
    guard !body.isEmpty else { throw .invalidFormat }

    if let first = body.first, first == "-" || first == "−" {
      let rest = trim(body.dropFirst())
      if !rest.isEmpty,
        rest.allSatisfy({ isDigit($0) || isGroupSpace($0) || $0 == "," || $0 == "." })
      {
        throw .negative
      }
      throw .invalidFormat
    }

    let separators = body.filter { $0 == "," || $0 == "." }
    guard separators.count <= 1 else { throw .invalidFormat }

    let wholeText: Substring
    var fractionText: Substring = ""
    if let index = body.firstIndex(where: { $0 == "," || $0 == "." }) {
      wholeText = body[..<index]
      fractionText = body[body.index(after: index)...]
      guard !fractionText.isEmpty, fractionText.allSatisfy(isDigit) else { throw .invalidFormat }
    } else {
      wholeText = body
    }

    let groups = wholeText.split(
      omittingEmptySubsequences: false, whereSeparator: isGroupSpace)
    guard let firstGroup = groups.first, !firstGroup.isEmpty else { throw .invalidFormat }
    for group in groups where group.isEmpty || !group.allSatisfy(isDigit) {
      throw .invalidFormat
    }
    if groups.count > 1 {
      // Spaces are only allowed where thousands separators go.
      guard firstGroup.count <= 3, groups.dropFirst().allSatisfy({ $0.count == 3 }) else {
        throw .invalidFormat
      }
    }
    guard fractionText.count <= 2 else { throw .tooManyFractionDigits }

    var wholeDigits = groups.joined().drop(while: { $0 == "0" })
    if wholeDigits.isEmpty { wholeDigits = "0" }
    guard wholeDigits.count <= 12, let hryvnias = Int64(wholeDigits) else { throw .tooLarge }
    let kopiykas = Int64(fractionText + String(repeating: "0", count: 2 - fractionText.count)) ?? 0
    return MinorUnits(hryvnias * MinorUnits.perUnit + kopiykas).decimal
  }

  // MARK: - Helpers

  private static func grouped(_ digits: String) -> String {
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(groupingSeparator) }
      result.append(digit)
    }
    return result
  }

  private static func isDigit(_ character: Character) -> Bool {
    character.isASCII && character.isWholeNumber
  }

  /// Drops leading and trailing white space (including no-break spaces).
  private static func trim(_ text: Substring) -> Substring {
    let start = text.firstIndex(where: { !$0.isWhitespace }) ?? text.endIndex
    let end = text.lastIndex(where: { !$0.isWhitespace }).map(text.index(after:)) ?? start
    return text[start..<Swift.max(start, end)]
  }

  private static func isGroupSpace(_ character: Character) -> Bool {
    character == " " || character == "\u{00A0}" || character == "\u{202F}"
      || character == "\u{2009}"
  }
}

/// Why a typed hryvnia amount was refused. `message` is in the interface language, ready to
/// show by the field.
public enum HryvniaParseError: Error, Hashable, Sendable {
  /// Nothing was typed.
  case empty
  /// Not a number in any accepted form.
  case invalidFormat
  /// A minus sign in front of an otherwise valid-looking number.
  case negative
  /// Three or more digits after the decimal separator.
  case tooManyFractionDigits
  /// More than `Hryvnia.maximum`.
  case tooLarge

  public var message: String {
    switch self {
    case .empty: L("fundraisers.validation.empty")
    case .invalidFormat: L("fundraisers.validation.invalid_format")
    case .negative: L("fundraisers.validation.negative")
    case .tooManyFractionDigits: L("fundraisers.validation.too_many_fraction_digits")
    case .tooLarge: L("fundraisers.validation.too_large")
    }
  }
}
