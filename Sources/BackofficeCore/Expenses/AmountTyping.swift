import Foundation

/// The keystroke rule of the amount field: digits, then at most one decimal separator, then at
/// most two digits (`^\d+<sep>?\d?\d?$`), where the empty field and a trailing separator
/// ("12,") are allowed because people pass through them while typing.
///
/// Both "," and "." are accepted as the separator in every locale: with at most two digits
/// after it, a separator can never be a thousands separator, so either reading is unambiguous.
/// Grouping, spaces and signs are never accepted. The server applies `accepts` and the browser
/// runs `regexPattern` on every input event, so both refuse exactly the same texts.
public enum AmountTyping {
  /// Decimals allowed while typing: 2, or fewer for a currency such as JPY.
  public static let defaultMaxFractionDigits = 2

  /// True when `text` may stand in the amount field (including unfinished states).
  public static func accepts(
    _ text: String, locale: BackofficeLocale,
    maxFractionDigits: Int = defaultMaxFractionDigits
  ) -> Bool {
    let places = clamp(maxFractionDigits)
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    if index == 0 { return bytes.isEmpty }
    guard index < bytes.count else { return true }
    let separator = bytes[index]
    guard places > 0, separator == UInt8(ascii: ".") || separator == UInt8(ascii: ",") else {
      return false
    }
    let decimals = bytes[(index + 1)...]
    return decimals.count <= places && decimals.allSatisfy(isDigit)
  }

  /// The text to keep after a keystroke: `proposed` when it is acceptable, else `previous`
  /// (the field reverts the keystroke, as the original app did).
  public static func apply(
    _ proposed: String, previous: String, locale: BackofficeLocale,
    maxFractionDigits: Int = defaultMaxFractionDigits
  ) -> String {
    accepts(proposed, locale: locale, maxFractionDigits: maxFractionDigits) ? proposed : previous
  }

  /// The same rule as a JavaScript regular expression source (valid with the `u` and `v`
  /// flags and in an HTML `pattern` attribute), e.g. `^(?:[0-9]+[,.]?[0-9]{0,2})?$`.
  /// The locale's own separator is listed first; the accepted texts do not depend on it.
  public static func regexPattern(
    for locale: BackofficeLocale, maxFractionDigits: Int = defaultMaxFractionDigits
  ) -> String {
    let places = clamp(maxFractionDigits)
    guard places > 0 else { return "^(?:[0-9]+)?$" }
    let separators = locale.decimalSeparator == "," ? ",." : ".,"
    return "^(?:[0-9]+[\(separators)]?[0-9]{0,\(places)})?$"
  }

  static func clamp(_ places: Int) -> Int { min(max(places, 0), defaultMaxFractionDigits) }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
