import Foundation

/// An exact amount of money in one currency.
///
/// Encodes as `{"amount": "12.50", "currency": "EUR"}`: the amount is a decimal string so no
/// JSON reader turns it into a binary floating-point number on the way. Decoding also takes a
/// JSON number for leniency, but a string is what Backoffice writes.
public struct Money: Hashable, Sendable, Codable {
  public var amount: Decimal
  /// ISO 4217 code, upper case.
  public var currency: String

  public init(amount: Decimal, currency: String) {
    self.amount = amount
    self.currency = currency
  }

  /// The amount rounded half up to the currency's minor units.
  public var rounded: Money {
    Money(
      amount: DecimalMath.rounded(amount, fractionDigits: Currency.minorUnits(for: currency)),
      currency: currency)
  }

  /// Text for people in `locale`, e.g. "1 234,56 ₴".
  public func formatted(locale: BackofficeLocale) -> String {
    MoneyFormat.currency(amount, currency: currency, locale: locale)
  }

  /// The amount in API form with at least the currency's minor units and never fewer digits
  /// than it holds, so encoding is lossless: "12.50", "1235" (JPY), "0.125".
  public var decimalString: String {
    let digits = max(Currency.minorUnits(for: currency), DecimalMath.fractionDigitCount(amount))
    return MoneyFormat.decimalString(amount, fractionDigits: digits)
  }

  private enum CodingKeys: String, CodingKey {
    case amount, currency
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    currency = try container.decode(String.self, forKey: .currency)
    if let text = try? container.decode(String.self, forKey: .amount) {
      guard let value = AmountParser.parseStrictDecimalString(text) else {
        throw DecodingError.dataCorruptedError(
          forKey: .amount, in: container,
          debugDescription: "Amount must be a decimal string such as \"12.50\".")
      }
      amount = value
    } else {
      amount = try container.decode(Decimal.self, forKey: .amount)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(decimalString, forKey: .amount)
    try container.encode(currency, forKey: .currency)
  }
}
