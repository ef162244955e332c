import Foundation

/// An amount in hundredths of its currency unit: cents, kopiykas. Every stored amount of the app
/// (product prices and taxes, expenses, fundraiser goals) and every amount the Monobank API
/// sends is a whole number of these, so they are the one exact integer form of money.
public struct MinorUnits: Sendable, Hashable, Comparable, Codable {
  /// Hundredths per unit.
  public static let perUnit: Int64 = 100
  /// Decimals an amount in minor units can have.
  public static let fractionDigits = 2

  public var value: Int64

  public init(_ value: Int64) {
    self.value = value
  }

  /// Exactly `amount`, or nil when it has more than two decimals or does not fit in 64 bits.
  public init?(exactly amount: Decimal) {
    guard amount.isFinite, DecimalMath.fractionDigitCount(amount) <= Self.fractionDigits,
      let value = Self.digits(amount).flatMap({ Int64($0) })
    else { return nil }
    self.value = amount < 0 ? -value : value
  }

  /// `amount` rounded half away from zero to whole hundredths, or nil when it is not finite or
  /// does not fit in 64 bits.
  public init?(rounding amount: Decimal) {
    guard amount.isFinite, let value = Self.digits(amount).flatMap({ Int64($0) }) else {
      return nil
    }
    self.value = amount < 0 ? -value : value
  }

  /// The amount in units, exactly: `MinorUnits(1500050).decimal` is 15000.5.
  public var decimal: Decimal {
    Decimal(
      sign: value < 0 ? .minus : .plus, exponent: -Self.fractionDigits,
      significand: Decimal(value.magnitude))
  }

  /// A whole number of hundredths written as digits ("-1234567", as a database prints a sum),
  /// as an exact amount in units. Sums may exceed 64 bits; `Decimal` holds 38 digits.
  public static func decimal(digits text: String) -> Decimal? {
    let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
    guard !unsigned.isEmpty, unsigned.count <= 36,
      unsigned.allSatisfy({ $0.isASCII && $0.isNumber }),
      let magnitude = Decimal(string: String(unsigned), locale: Locale(identifier: "en_US_POSIX"))
    else { return nil }
    return Decimal(
      sign: text.hasPrefix("-") && magnitude != 0 ? .minus : .plus,
      exponent: -fractionDigits, significand: magnitude)
  }

  public static func < (lhs: MinorUnits, rhs: MinorUnits) -> Bool { lhs.value < rhs.value }

  /// The magnitude of `amount` in hundredths, rounded half up, as plain digits.
  static func digits(_ amount: Decimal) -> String? {
    var magnitude = amount < 0 ? -amount : amount
    var rounded = Decimal()
    NSDecimalRound(&rounded, &magnitude, fractionDigits, .plain)
    var scaled = rounded * Decimal(perUnit)
    var whole = Decimal()
    NSDecimalRound(&whole, &scaled, 0, .plain)
    // `Decimal.description` is locale-independent and prints whole numbers as plain digits.
    let text = whole.description
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return text
  }
}
