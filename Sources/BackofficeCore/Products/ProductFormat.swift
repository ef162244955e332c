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
    return number + percentSeparator(locale) + "%"
  }

  public static func percent(_ value: Decimal, locale: BackofficeLocale) -> String {
    let digits = min(2, DecimalMath.fractionDigitCount(value))
    let number = MoneyFormat.number(value, fractionDigits: digits, locale: locale)
    return number + percentSeparator(locale) + "%"
  }

  /// The tax chip on a product card: "Tax: 18%".
  public static func taxChip(_ tax: Decimal, locale: BackofficeLocale) -> String {
    L("products.tax_chip", ["tax": percent(tax, locale: locale)])
  }

  /// CLDR's percent patterns: German and Spanish put a no-break space before the sign, French a
  /// narrow no-break space; the other supported languages write it right after the number.
  private static func percentSeparator(_ locale: BackofficeLocale) -> String {
    // The language read from the tag's bytes: this runs for every tax shown in a list.
    let language = locale.identifier.utf8.prefix { $0 != UInt8(ascii: "-") }
    if language.elementsEqual("de".utf8) || language.elementsEqual("es".utf8) {
      return "\u{00A0}"
    }
    if language.elementsEqual("fr".utf8) { return "\u{202F}" }
    return ""
  }
}
