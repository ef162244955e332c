import Foundation

/// How a product's numbers read on the listing, in the account's locale.
public enum ProductFormat {
  /// The price in the account's currency: "$1,694.92", "1 694,92 ₴". Rounded to the currency's
  /// minor units (the exact value stays in storage and in the edit form).
  public static func price(_ price: Decimal, currency: String, locale: BackofficeLocale) -> String {
    MoneyFormat.currency(price, currency: currency, locale: locale)
  }

  /// A percentage with as many decimals as it has (at most 2) and the locale's sign spacing:
  /// "18%" (en-US), "18 %" (de-DE), "12,5 %" (fr-FR), "7,25%" (uk-UA).
  /// The same from stored hundredths of a percent, without `Decimal` on the way.
  public static func percent(_ value: MinorUnits, locale: BackofficeLocale) -> String {
    let digits = MoneyFormat.fractionDigitCount(value)
    let number = MoneyFormat.number(value, fractionDigits: digits, locale: locale)
    return number + AmountWriter.percentSeparator(locale) + "%"
  }

  public static func percent(_ value: Decimal, locale: BackofficeLocale) -> String {
    let digits = min(2, DecimalMath.fractionDigitCount(value))
    let number = MoneyFormat.number(value, fractionDigits: digits, locale: locale)
    return number + AmountWriter.percentSeparator(locale) + "%"
  }

  /// The tax chip on a product card: "Tax: 18%".
  public static func taxChip(_ tax: Decimal, locale: BackofficeLocale) -> String {
    L("products.tax_chip", ["tax": percent(tax, locale: locale)])
  }
}
