import Foundation

/// Exact helpers on `Decimal` that behave the same on every platform.
///
/// Rounding is "half up" in the schoolbook sense: a trailing 5 rounds away from zero
/// (`2.345 → 2.35`, `-2.345 → -2.35`). Banker's rounding would surprise people checking
/// a receipt by hand, so it is not used anywhere in Backoffice.
public enum DecimalMath {
  /// `amount` rounded half away from zero to `fractionDigits` decimals (negative counts are 0).
  public static func rounded(_ amount: Decimal, fractionDigits: Int) -> Decimal {
    let places = max(0, fractionDigits)
    guard let digits = DecimalDigits(amount), digits.fraction.count > places else { return amount }
    return digits.rounded(to: places).decimal
  }

  /// How many decimals `amount` really needs: `12.50 → 1`, `12 → 0`, `0.125 → 3`.
  public static func fractionDigitCount(_ amount: Decimal) -> Int {
    DecimalDigits(amount)?.fraction.count ?? 0
  }

  /// `amount` built exactly from a sign and ASCII digit strings, or nil when `limited` and there
  /// are more than 38 significant digits (the precision of `Decimal`).
  static func make(
    negative: Bool, integer: Substring, fraction: Substring, limited: Bool = true
  ) -> Decimal? {
    var significand = Decimal(0)
    var significant = 0
    for byte in Array(integer.utf8) + Array(fraction.utf8) {
      let digit = Int(byte) - 48
      guard (0...9).contains(digit) else { return nil }
      if significant > 0 || digit != 0 { significant += 1 }
      guard significant <= 38 || !limited else { return nil }
      significand = significand * 10 + Decimal(digit)
    }
    if significand == 0 { return Decimal(0) }
    return Decimal(
      sign: negative ? .minus : .plus, exponent: -fraction.count, significand: significand)
  }
}

/// A `Decimal` spelled out as sign + integer digits + fraction digits (no trailing zeros),
/// read from `Decimal.description`, which is plain positional notation on Linux and macOS.
struct DecimalDigits: Equatable {
  var negative: Bool
  /// Integer digits without leading zeros ("" for zero).
  var integer: [UInt8]
  /// Fraction digits without trailing zeros.
  var fraction: [UInt8]

  init?(_ value: Decimal) {
    guard !value.isNaN else { return nil }
    var text = Substring(value.description)
    negative = text.first == "-"
    if negative { text = text.dropFirst() }
    let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    var intDigits: [UInt8] = []
    var fracDigits: [UInt8] = []
    for byte in parts[0].utf8 {
      guard (48...57).contains(byte) else { return nil }
      if intDigits.isEmpty && byte == 48 { continue }
      intDigits.append(byte - 48)
    }
    if parts.count == 2 {
      for byte in parts[1].utf8 {
        guard (48...57).contains(byte) else { return nil }
        fracDigits.append(byte - 48)
      }
    }
    while fracDigits.last == 0 { fracDigits.removeLast() }
    integer = intDigits
    fraction = fracDigits
    if integer.isEmpty && fraction.isEmpty { negative = false }
  }

  /// The digits of `minor` hundredths (or `scale` decimals), read straight from the integer:
  /// the busy lists format stored amounts this way, never through `Decimal`'s text.
  init(minor: Int64, scale: Int = MinorUnits.fractionDigits) {
    var magnitude = minor.magnitude
    // The last `scale` digits are the fraction, read from the right; trailing zeros go.
    var fraction = [UInt8](repeating: 0, count: max(0, scale))
    for index in fraction.indices.reversed() {
      fraction[index] = UInt8(magnitude % 10)
      magnitude /= 10
    }
    while fraction.last == 0 { fraction.removeLast() }
    var integer: [UInt8] = []
    while magnitude > 0 {
      integer.append(UInt8(magnitude % 10))
      magnitude /= 10
    }
    integer.reverse()
    self.init(negative: minor < 0, integer: integer, fraction: fraction)
  }

  private init(negative: Bool, integer: [UInt8], fraction: [UInt8]) {
    self.negative = negative
    self.integer = integer
    self.fraction = fraction
  }

  var isZero: Bool { integer.isEmpty && fraction.isEmpty }

  /// Rounded half away from zero to `places` decimals.
  func rounded(to places: Int) -> DecimalDigits {
    guard fraction.count > places else { return self }
    var kept = integer + fraction.prefix(places)
    if fraction[places] >= 5 {
      var index = kept.count - 1
      var carry = true
      while carry && index >= 0 {
        if kept[index] == 9 {
          kept[index] = 0
          index -= 1
        } else {
          kept[index] += 1
          carry = false
        }
      }
      if carry { kept.insert(1, at: 0) }
    }
    let integerCount = kept.count - places
    var newFraction = Array(kept.suffix(places))
    while newFraction.last == 0 { newFraction.removeLast() }
    var newInteger = Array(kept.prefix(integerCount))
    while newInteger.first == 0 { newInteger.removeFirst() }
    let zero = newInteger.isEmpty && newFraction.isEmpty
    return DecimalDigits(negative: negative && !zero, integer: newInteger, fraction: newFraction)
  }

  /// Integer digits as text, "0" for zero.
  var integerText: String {
    integer.isEmpty ? "0" : String(decoding: integer.map { $0 + 48 }, as: UTF8.self)
  }

  /// Fraction digits as text padded with zeros to at least `minimum` places.
  func fractionText(minimum: Int) -> String {
    var digits = fraction
    while digits.count < minimum { digits.append(0) }
    return String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
  }

  var decimal: Decimal {
    let integerText = Substring(integerText)
    let fractionText = Substring(fractionText(minimum: 0))
    return DecimalMath.make(
      negative: negative, integer: integerText, fraction: fractionText, limited: false) ?? 0
  }
}
