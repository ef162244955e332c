import Foundation
import Testing

@testable import BackofficeCore

private let nbsp = "\u{00A0}"

private func dec(_ text: String) -> Decimal {
  AmountParser.parseStrictDecimalString(text) ?? .nan
}

@Suite("MoneyFormat")
struct MoneyFormatTests {
  @Test(arguments: [
    // en-US: sign before, minus before the sign.
    ("1234.56", "USD", "en-US", "$1,234.56"),
    ("-12.5", "USD", "en-US", "-$12.50"),
    ("0", "USD", "en-US", "$0.00"),
    ("-0.004", "USD", "en-US", "$0.00"),
    ("0.005", "USD", "en-US", "$0.01"),
    ("2.345", "USD", "en-US", "$2.35"),
    ("-2.345", "USD", "en-US", "-$2.35"),
    ("999.995", "USD", "en-US", "$1,000.00"),
    ("1234567.891", "USD", "en-US", "$1,234,567.89"),
    ("1234.56", "EUR", "en-US", "€1,234.56"),
    ("1234.56", "CHF", "en-US", "1,234.56\(nbsp)CHF"),
    ("1234.56", "PLN", "en-US", "1,234.56\(nbsp)zł"),
    ("1.2345", "KWD", "en-US", "1.235\(nbsp)KWD"),
    ("12.5", "xyz", "en-US", "12.50\(nbsp)XYZ"),
    ("1234.56", "CAD", "en-US", "CA$1,234.56"),
    // en-GB
    ("1234.56", "GBP", "en-GB", "£1,234.56"),
    // de-DE: sign after a no-break space.
    ("1234.56", "EUR", "de-DE", "1.234,56\(nbsp)€"),
    ("-12.5", "EUR", "de-DE", "-12,50\(nbsp)€"),
    ("1234.56", "USD", "de-DE", "1.234,56\(nbsp)$"),
    ("1234.56", "CHF", "de-DE", "1.234,56\(nbsp)CHF"),
    ("1234567.5", "EUR", "de-DE", "1.234.567,50\(nbsp)€"),
    // uk-UA: no-break space groups.
    ("1234.56", "UAH", "uk-UA", "1\(nbsp)234,56\(nbsp)₴"),
    ("-1234.56", "UAH", "uk-UA", "-1\(nbsp)234,56\(nbsp)₴"),
    ("15000", "UAH", "uk-UA", "15\(nbsp)000,00\(nbsp)₴"),
    ("0.1", "UAH", "uk-UA", "0,10\(nbsp)₴"),
    // fr-FR
    ("1234.56", "EUR", "fr-FR", "1\(nbsp)234,56\(nbsp)€"),
    ("-0.5", "EUR", "fr-FR", "-0,50\(nbsp)€"),
    // ja-JP: no decimals for yen.
    ("1234.5", "JPY", "ja-JP", "¥1,235"),
    ("1234.4", "JPY", "ja-JP", "¥1,234"),
    ("-1234.5", "JPY", "ja-JP", "-¥1,235"),
    ("0", "JPY", "ja-JP", "¥0"),
    ("1234.56", "USD", "ja-JP", "$1,234.56"),
    ("1234.5", "JPY", "en-US", "¥1,235"),
    // es-ES and pl-PL group only from five digits on.
    ("1234.56", "EUR", "es-ES", "1234,56\(nbsp)€"),
    ("12345.67", "EUR", "es-ES", "12.345,67\(nbsp)€"),
    ("1234.56", "PLN", "pl-PL", "1234,56\(nbsp)zł"),
    ("12345.67", "PLN", "pl-PL", "12\(nbsp)345,67\(nbsp)zł"),
    // it-IT and nl-NL
    ("1234.56", "EUR", "it-IT", "1.234,56\(nbsp)€"),
    ("1234.56", "EUR", "nl-NL", "€\(nbsp)1.234,56"),
    ("-12.5", "EUR", "nl-NL", "€\(nbsp)-12,50"),
  ])
  func currency(_ amount: String, _ code: String, _ locale: String, _ expected: String) {
    let formatted = MoneyFormat.currency(
      dec(amount), currency: code, locale: BackofficeLocale.resolve(locale))
    #expect(formatted == expected)
  }

  @Test(arguments: [
    ("1234.5", 2, "uk-UA", "1\(nbsp)234,50"),
    ("1234.5", 2, "de-DE", "1.234,50"),
    ("1234.5", 2, "en-US", "1,234.50"),
    ("1234.5", 2, "fr-FR", "1\(nbsp)234,50"),
    ("1234.5", 2, "ja-JP", "1,234.50"),
    ("1234.5", 0, "ja-JP", "1,235"),
    ("0.5", 0, "en-US", "1"),
    ("1.5", 0, "en-US", "2"),
    ("2.5", 0, "en-US", "3"),
    ("-2.5", 0, "en-US", "-3"),
    ("123", 2, "en-US", "123.00"),
    ("1000", 2, "es-ES", "1000,00"),
    ("10000", 2, "es-ES", "10.000,00"),
    ("12.3456", 3, "de-DE", "12,346"),
    ("7", -1, "en-US", "7"),
  ])
  func number(_ amount: String, _ digits: Int, _ locale: String, _ expected: String) {
    let formatted = MoneyFormat.number(
      dec(amount), fractionDigits: digits, locale: BackofficeLocale.resolve(locale))
    #expect(formatted == expected)
  }

  @Test(arguments: [
    ("12.5", 2, "12.50"), ("-0.1", 2, "-0.10"), ("1234", 2, "1234.00"), ("0.005", 2, "0.01"),
    ("-0.004", 2, "0.00"), ("12.5", 0, "13"), ("1234567.891", 3, "1234567.891"),
    ("0", 2, "0.00"), ("99999999999999.995", 2, "100000000000000.00"),
  ])
  func decimalString(_ amount: String, _ digits: Int, _ expected: String) {
    #expect(MoneyFormat.decimalString(dec(amount), fractionDigits: digits) == expected)
  }

  @Test func editableUsesTheLocaleSeparatorWithoutGrouping() {
    #expect(MoneyFormat.editable(dec("12.5"), locale: .deDE) == "12,50")
    #expect(MoneyFormat.editable(dec("1234.5"), locale: .ukUA) == "1234,50")
    #expect(MoneyFormat.editable(dec("12.5"), locale: .enUS) == "12.50")
  }

  @Test(arguments: [
    ("2.345", 2, "2.35"), ("-2.345", 2, "-2.35"), ("2.344", 2, "2.34"), ("9.995", 2, "10"),
    ("0.5", 0, "1"), ("2.5", 0, "3"), ("-0.5", 0, "-1"), ("0.049", 1, "0"), ("12.5", 4, "12.5"),
  ])
  func roundsHalfUp(_ amount: String, _ digits: Int, _ expected: String) {
    #expect(DecimalMath.rounded(dec(amount), fractionDigits: digits) == dec(expected))
  }

  @Test func fractionDigitCount() {
    #expect(DecimalMath.fractionDigitCount(dec("12.50")) == 1)
    #expect(DecimalMath.fractionDigitCount(dec("12")) == 0)
    #expect(DecimalMath.fractionDigitCount(dec("0.125")) == 3)
    #expect(DecimalMath.fractionDigitCount(Decimal(sign: .plus, exponent: 3, significand: 5)) == 0)
  }

  /// Whatever Backoffice prints in an amount field it must read back to the same value.
  @Test(arguments: BackofficeLocale.supported)
  func formattedNumbersParseBack(_ locale: BackofficeLocale) throws {
    let values = ["0.01", "0.1", "1", "12.5", "999.99", "1000", "1234.56", "15000", "1234567.89"]
    for text in values {
      let value = dec(text)
      let shown = MoneyFormat.number(value, fractionDigits: 2, locale: locale)
      #expect(try AmountParser.parse(shown, locale: locale) == value, "\(shown)")
      let typed = MoneyFormat.editable(value, locale: locale)
      #expect(try AmountParser.parse(typed, locale: locale) == value, "\(typed)")
    }
  }
}

@Suite("Money")
struct MoneyTests {
  @Test func encodesTheAmountAsADecimalString() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let cases: [(Money, String)] = [
      (Money(amount: dec("12.5"), currency: "EUR"), #"{"amount":"12.50","currency":"EUR"}"#),
      (Money(amount: dec("1235"), currency: "JPY"), #"{"amount":"1235","currency":"JPY"}"#),
      (Money(amount: dec("0.125"), currency: "USD"), #"{"amount":"0.125","currency":"USD"}"#),
      (Money(amount: dec("-3"), currency: "KWD"), #"{"amount":"-3.000","currency":"KWD"}"#),
    ]
    for (money, json) in cases {
      let data = try encoder.encode(money)
      #expect(String(decoding: data, as: UTF8.self) == json)
      #expect(try JSONDecoder().decode(Money.self, from: data) == money)
    }
  }

  @Test func decodesANumberButRefusesALocalisedString() throws {
    let number = try JSONDecoder().decode(
      Money.self, from: Data(#"{"amount":12,"currency":"EUR"}"#.utf8))
    #expect(number.amount == 12)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Money.self, from: Data(#"{"amount":"12,50","currency":"EUR"}"#.utf8))
    }
  }

  @Test func formatsAndRounds() {
    let money = Money(amount: dec("1234.565"), currency: "UAH")
    #expect(money.formatted(locale: .ukUA) == "1\(nbsp)234,57\(nbsp)₴")
    #expect(money.rounded.amount == dec("1234.57"))
    #expect(Money(amount: dec("10.5"), currency: "JPY").rounded.amount == 11)
  }
}
