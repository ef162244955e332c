import Foundation

/// Why a typed amount was refused, with a `message` in the interface language that names the
/// problem and shows an example written the way the locale writes numbers.
public struct AmountParseError: Error, Hashable, Sendable {
  public enum Reason: String, Hashable, Sendable {
    case empty
    case invalidCharacter
    case negative
    case misplacedSeparator
    case multipleDecimalSeparators
    case tooManyDecimals
    /// One separator followed by exactly three digits, like "12.345": thousands or decimals?
    case ambiguous
    case badGrouping
    /// Both "." and "," appear but the last one is not the locale's decimal separator.
    case wrongSeparatorOrder
    case tooLarge
  }

  public let reason: Reason
  public let message: String

  public init(reason: Reason, message: String) {
    self.reason = reason
    self.message = message
  }
}

/// Reads amounts as people type them, tolerantly but never by guessing.
///
/// Accepted, for a locale whose decimal separator is "," (de-DE): `12,50`, `12,5`, `12.5` (the
/// other separator is unambiguous before one or two digits), `12,` (trailing separator),
/// `1.234,56`, `15 000` (ASCII space, U+00A0 or U+202F), `0012`. Full-width digits and
/// separators typed with a Japanese keyboard are read as their ASCII forms.
///
/// Refused with a message: empty text, letters and symbols, negative numbers (unless allowed),
/// two decimal separators, more decimals than allowed, groups that are not three digits, and
/// a single separator followed by exactly three digits (`12.345`, `1,234`) because it may be a
/// thousands group or three decimals. That last rule is dropped when `maxFractionDigits` is 0
/// (the separator can then only group thousands) and, for the locale's own decimal separator,
/// when three decimals are allowed.
public enum AmountParser {
  /// Longest whole part accepted: up to 999 trillion.
  public static let maxIntegerDigits = 15

  /// The exact value of `text` typed in `locale`, with at most `maxFractionDigits` decimals.
  public static func parse(
    _ text: String, locale: BackofficeLocale, maxFractionDigits: Int = 2,
    allowNegative: Bool = false
  ) throws(AmountParseError) -> Decimal {
    let places = max(0, maxFractionDigits)
    let hint = Hint(locale: locale, places: places)
    var characters = Array(text.map(normalized))
    while let first = characters.first, first.isWhitespace { characters.removeFirst() }
    while let last = characters.last, last.isWhitespace { characters.removeLast() }
    guard !characters.isEmpty else { throw hint.error(.empty) }

    var negative = false
    if characters.first == "-" {
      guard allowNegative else { throw hint.error(.negative) }
      negative = true
      characters.removeFirst()
      while let first = characters.first, first.isWhitespace { characters.removeFirst() }
      guard !characters.isEmpty else { throw hint.error(.empty) }
    }

    // Split into digit runs and the single separators between them.
    var groups: [String] = [""]
    var separators: [Character] = []
    for character in characters {
      if character.isASCII, character.isWholeNumber {
        groups[groups.count - 1].append(character)
      } else if character == "." || character == "," || spaces.contains(character) {
        guard !groups[groups.count - 1].isEmpty else {
          throw hint.error(.misplacedSeparator)
        }
        separators.append(spaces.contains(character) ? " " : character)
        groups.append("")
      } else {
        throw hint.error(.invalidCharacter, detail: String(character))
      }
    }

    let decimalIndex = try findDecimal(groups, separators, locale: locale, places: places, hint)
    let integerGroups: [String]
    let fraction: String
    if let index = decimalIndex {
      integerGroups = Array(groups[...index])
      fraction = groups[index + 1]
    } else {
      integerGroups = groups
      fraction = ""
    }
    if integerGroups.count > 1 {
      let first = integerGroups[0]
      let sized =
        (1...3).contains(first.count) && first.first != "0"
        && integerGroups.dropFirst().allSatisfy { $0.count == 3 }
      guard sized else { throw hint.error(.badGrouping) }
    }
    guard fraction.count <= places else { throw hint.error(.tooManyDecimals) }

    let integer = integerGroups.joined().drop { $0 == "0" }
    guard integer.count <= maxIntegerDigits else { throw hint.error(.tooLarge) }
    let value =
      DecimalMath.make(negative: negative, integer: integer, fraction: Substring(fraction)) ?? 0
    return value
  }

  /// The API and CSV form: optional "-", digits, optionally "." and digits ("12.50", "-3",
  /// "0.125"). No spaces, grouping, comma or exponent; nil for anything else.
  public static func parseStrictDecimalString(_ text: String) -> Decimal? {
    var rest = Substring(text)
    let negative = rest.first == "-"
    if negative { rest = rest.dropFirst() }
    let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    let isDigits: (Substring) -> Bool = { part in
      !part.isEmpty && part.utf8.allSatisfy { (48...57).contains($0) }
    }
    guard isDigits(parts[0]), parts.count == 1 || isDigits(parts[1]) else { return nil }
    return DecimalMath.make(
      negative: negative, integer: parts[0], fraction: parts.count == 2 ? parts[1] : "")
  }

  // MARK: - Internals

  private static let asciiDigits = Array("0123456789")
  private static let spaces: Set<Character> = [" ", "\u{00A0}", "\u{202F}", "\u{2009}"]

  /// Full-width digits and separators (Japanese input) and typographic minus signs are read
  /// as their ASCII forms.
  private static func normalized(_ character: Character) -> Character {
    guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1
    else { return character }
    switch scalar.value {
    case 0xFF10...0xFF19: return asciiDigits[Int(scalar.value - 0xFF10)]
    case 0xFF0C: return ","
    case 0xFF0E: return "."
    case 0x2212, 0xFF0D: return "-"
    default: return character
    }
  }

  /// Index of the group that ends the whole part (the separator after it is the decimal
  /// separator), or nil when there is no decimal separator.
  private static func findDecimal(
    _ groups: [String], _ separators: [Character], locale: BackofficeLocale, places: Int,
    _ hint: Hint
  ) throws(AmountParseError) -> Int? {
    let marks = separators.indices.filter { separators[$0] != " " }
    guard let last = marks.last else { return nil }
    let mark = separators[last]
    let kinds = Set(marks.map { separators[$0] })
    let spaced = separators.contains(" ")
    let trailing = separators[(last + 1)...]

    if kinds.count == 2 {
      // "1,234.56": the last mark decides, and it must be this locale's decimal separator.
      guard mark == locale.decimalSeparator else { throw hint.error(.wrongSeparatorOrder) }
      guard marks.filter({ separators[$0] == mark }).count == 1 else {
        throw hint.error(.multipleDecimalSeparators)
      }
      guard trailing.isEmpty else { throw hint.error(.misplacedSeparator) }
      guard !spaced else { throw hint.error(.badGrouping) }
      return last
    }

    if marks.count > 1 {
      // The same mark several times can only be grouping ("1.234.567" in de-DE).
      guard mark != locale.decimalSeparator else { throw hint.error(.multipleDecimalSeparators) }
      guard !spaced else { throw hint.error(.badGrouping) }
      return nil
    }

    guard trailing.isEmpty else { throw hint.error(.misplacedSeparator) }
    let after = groups[last + 1].count
    if after == 3 {
      let before = groups[last]
      let couldGroup = !spaced && (1...3).contains(before.count) && before.first != "0"
      if couldGroup {
        if places == 0 { return nil }
        if !(mark == locale.decimalSeparator && places >= 3) {
          throw hint.error(.ambiguous, detail: groups.joined())
        }
      }
    }
    return last
  }

  /// Builds the messages with examples in the locale's style.
  private struct Hint {
    let locale: BackofficeLocale
    let places: Int

    func error(_ reason: AmountParseError.Reason, detail: String = "") -> AmountParseError {
      AmountParseError(reason: reason, message: message(reason, detail))
    }

    private var example: String {
      let value = places == 0 ? Decimal(12) : Decimal(125) / 10
      return MoneyFormat.number(value, fractionDigits: min(places, 2), locale: locale)
    }

    private var groupedExample: String {
      let value = places == 0 ? Decimal(12_345) : Decimal(1_234_567) / 100
      return MoneyFormat.number(value, fractionDigits: min(places, 2), locale: locale)
    }

    /// A separator as the message names it: “,” («,» in Ukrainian).
    private func mark(_ character: Character) -> String {
      L("money.amount.mark", ["mark": String(character)])
    }

    private var decimalName: String { mark(locale.decimalSeparator) }

    private var groupingName: String {
      locale.groupingSeparator.isWhitespace
        ? L("money.amount.space") : mark(locale.groupingSeparator)
    }

    private func message(_ reason: AmountParseError.Reason, _ detail: String) -> String {
      switch reason {
      case .empty:
        return L("money.amount.empty", ["example": example])
      case .invalidCharacter:
        return places > 0
          ? L(
            "money.amount.invalid_character",
            ["character": detail, "decimal": decimalName, "example": example])
          : L("money.amount.invalid_character_whole", ["character": detail, "example": example])
      case .negative:
        return L("money.amount.negative", ["example": example])
      case .misplacedSeparator:
        return L("money.amount.misplaced_separator", ["example": groupedExample])
      case .multipleDecimalSeparators:
        return L(
          "money.amount.multiple_decimal_separators",
          ["decimal": decimalName, "example": example])
      case .tooManyDecimals:
        guard places > 0 else { return L("money.amount.whole_number", ["example": example]) }
        return L("money.amount.too_many_decimals", count: places, ["example": example])
      case .ambiguous:
        return L("money.amount.ambiguous", count: places, ["digits": detail, "example": example])
      case .badGrouping:
        return L("money.amount.bad_grouping", ["example": groupedExample])
      case .wrongSeparatorOrder:
        return L(
          "money.amount.wrong_separator_order",
          ["decimal": decimalName, "grouping": groupingName, "example": groupedExample])
      case .tooLarge:
        return L("money.amount.too_large", ["digits": String(AmountParser.maxIntegerDigits)])
      }
    }
  }
}
