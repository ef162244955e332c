import Foundation

/// A decimal number as an API client sent it: a decimal string (`"5800.00"`, also what a
/// multipart text part holds) or a JSON number (`5800.0`).
///
/// The value is always built from text with exact decimal arithmetic. A JSON number reaches
/// `Decodable` only as a `Double`; it is turned back into text with Swift's shortest
/// round-trip spelling (`5800.0`, `1694.92`, `0.1`), which gives back exactly the digits the
/// client wrote whenever they have at most 15 significant digits — every valid price and tax
/// does. No arithmetic is done on the `Double`.
public struct DecimalInput: Hashable, Sendable, Decodable, CustomStringConvertible {
  /// The number as text: the string as sent, or the number's shortest spelling.
  public let text: String
  /// Whether the client sent a JSON number (which may use exponent notation).
  public let isNumber: Bool

  /// A value sent as a string. Surrounding whitespace is ignored; the rest must be plain
  /// digits with an optional leading `-` and one `.` (no grouping, comma or exponent).
  public init(_ text: String) {
    self.text = text
    isNumber = false
  }

  /// A value sent as a JSON number.
  public init(number: Double) {
    text = number.description
    isNumber = true
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      self.init(text)
    } else {
      self.init(number: try container.decode(Double.self))
    }
  }

  public var description: String { text }

  /// Whether nothing but whitespace was sent (treated like a missing value).
  public var isBlank: Bool { !isNumber && ProductRules.trimmed(text).isEmpty }

  /// The exact value, or nil when the text is not a number of the accepted form.
  public var value: Decimal? {
    if isNumber { return Self.parseNumber(text) }
    return AmountParser.parseStrictDecimalString(ProductRules.trimmed(text))
  }

  /// Reads Swift's spelling of a finite `Double`: `-`? digits (`.` digits)? (`e` sign? digits)?
  private static func parseNumber(_ text: String) -> Decimal? {
    let lower = text.lowercased()
    let parts = lower.split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
    guard let mantissa = AmountParser.parseStrictDecimalString(String(parts[0])) else {
      return nil
    }
    guard parts.count == 2 else { return mantissa }
    var exponentText = parts[1]
    if exponentText.first == "+" { exponentText = exponentText.dropFirst() }
    // Decimal's exponent range is about ±128; anything beyond is no price or tax anyway.
    guard let exponent = Int(exponentText), (-100...100).contains(exponent) else { return nil }
    if mantissa == 0 { return 0 }
    return Decimal(
      sign: mantissa < 0 ? .minus : .plus, exponent: exponent,
      significand: mantissa < 0 ? -mantissa : mantissa)
  }
}
