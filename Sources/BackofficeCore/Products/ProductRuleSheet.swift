import Foundation

/// The product rules as data for the browser: every limit and message the server's checks use
/// (`ProductRules`), so the offline form refuses what the server would refuse without its own
/// copy of the numbers or the words. Messages are in the interface language of the moment it
/// is made.
public struct ProductRuleSheet: Encodable, Sendable, Equatable {
  public struct Text: Encodable, Sendable, Equatable {
    public var max: Int
    public var blank: String
    public var tooLong: String
    public var control: String
  }

  /// An amount's range and precision. Bounds are decimal strings, exact as the server's.
  public struct Amount: Encodable, Sendable, Equatable {
    public var min: String
    public var minInclusive: Bool
    public var max: String
    public var maxInclusive: Bool
    public var fractionDigits: Int
    public var missing: String
    public var tooLow: String
    public var tooHigh: String
    public var tooPrecise: String
  }

  public var name: Text
  public var type: Text
  public var price: Amount
  public var tax: Amount
  /// How the account's locale writes numbers: the one decimal mark, and the grouping mark (a
  /// space stands for every kind of space).
  public var decimalSeparator: String
  public var groupingSeparator: String

  public init(locale: BackofficeLocale) {
    name = Text(
      max: Product.nameMaxLength, blank: ProductMessage.nameBlank,
      tooLong: ProductMessage.nameTooLong, control: ProductMessage.nameControl)
    type = Text(
      max: Product.typeMaxLength, blank: ProductMessage.typeBlank,
      tooLong: ProductMessage.typeTooLong, control: ProductMessage.typeControl)
    price = Amount(
      min: "0", minInclusive: false,
      max: MoneyFormat.decimalString(Product.priceLimit, fractionDigits: 0), maxInclusive: false,
      fractionDigits: 2, missing: ProductMessage.priceMissing,
      tooLow: ProductMessage.priceNotPositive, tooHigh: ProductMessage.priceTooLarge,
      tooPrecise: ProductMessage.priceTooPrecise)
    tax = Amount(
      min: "0", minInclusive: true, max: "100", maxInclusive: true, fractionDigits: 2,
      missing: ProductMessage.taxMissing, tooLow: ProductMessage.taxOutOfRange,
      tooHigh: ProductMessage.taxOutOfRange, tooPrecise: ProductMessage.taxTooPrecise)
    decimalSeparator = String(locale.decimalSeparator)
    groupingSeparator =
      locale.groupingSeparator.isWhitespace ? " " : String(locale.groupingSeparator)
  }

  /// The sheet as JSON, safe inside `<script type="application/json">` ("<" escaped).
  public func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(self) else { return "{}" }
    return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
  }
}
