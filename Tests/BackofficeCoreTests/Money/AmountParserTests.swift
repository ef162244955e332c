import Foundation
import Testing

@testable import BackofficeCore

private let nbsp = "\u{00A0}"
private let narrow = "\u{202F}"

/// One typed amount, the locale it is typed in, and either the exact value ("12.5") or the
/// reason it must be refused.
struct ParseCase: CustomTestStringConvertible, Sendable {
  let text: String
  let locale: String
  let expected: Expected
  var maxFractionDigits = 2

  enum Expected: Sendable {
    case value(String)
    case refused(AmountParseError.Reason)
  }

  var testDescription: String { "\(locale) “\(text)”" }
}

private func ok(_ text: String, _ locale: String, _ value: String, max: Int = 2) -> ParseCase {
  ParseCase(text: text, locale: locale, expected: .value(value), maxFractionDigits: max)
}

private func no(
  _ text: String, _ locale: String, _ reason: AmountParseError.Reason, max: Int = 2
) -> ParseCase {
  ParseCase(text: text, locale: locale, expected: .refused(reason), maxFractionDigits: max)
}

private let mainLocales = ["en-US", "uk-UA", "de-DE", "fr-FR", "ja-JP"]

/// Cases that behave the same in every one of the five main locales.
private let everywhere: [ParseCase] = mainLocales.flatMap { id in
  [
    ok("12", id, "12"),
    ok("0", id, "0"),
    ok("0012", id, "12"),
    ok("  12  ", id, "12"),
    ok("\t7\n", id, "7"),
    ok("15 000", id, "15000"),
    ok("15\(nbsp)000", id, "15000"),
    ok("15\(narrow)000", id, "15000"),
    ok("1 234 567", id, "1234567"),
    ok("１２", id, "12"),
    no("", id, .empty),
    no("   ", id, .empty),
    no("\(nbsp)", id, .empty),
    no("12.345", id, .ambiguous),
    no("12,345", id, .ambiguous),
    no("1.234", id, .ambiguous),
    no("abc", id, .invalidCharacter),
    no("12a", id, .invalidCharacter),
    no("1e3", id, .invalidCharacter),
    no("$12", id, .invalidCharacter),
    no("12€", id, .invalidCharacter),
    no("+12", id, .invalidCharacter),
    no("12-3", id, .invalidCharacter),
    no("-12", id, .negative),
    no("−12", id, .negative),
    no("12,,5", id, .misplacedSeparator),
    no("12..5", id, .misplacedSeparator),
    no(",50", id, .misplacedSeparator),
    no(".50", id, .misplacedSeparator),
    no("1 2", id, .badGrouping),
    no("15 00", id, .badGrouping),
    no("1234 567", id, .badGrouping),
    no("0 123", id, .badGrouping),
    no("12.5 0", id, .misplacedSeparator),
    no("1234567890123456", id, .tooLarge),
    ok("123456789012345", id, "123456789012345"),
    no("12.1234", id, .tooManyDecimals),
    no("12,1234", id, .tooManyDecimals),
    no("1234.567", id, .tooManyDecimals),
    no("0,125", id, .tooManyDecimals),
    // A single separator before one or two digits is a decimal separator in every locale.
    ok("12.5", id, "12.5"),
    ok("12,5", id, "12.5"),
    ok("12.50", id, "12.5"),
    ok("12,50", id, "12.5"),
    ok("0.01", id, "0.01"),
    ok("0,01", id, "0.01"),
    ok("15 000,5", id, "15000.5"),
    ok("15 000.5", id, "15000.5"),
    ok("12.", id, "12"),
    ok("12,", id, "12"),
  ]
}

/// Cases where the locale decides.
private let perLocale: [ParseCase] = [
  // en-US and ja-JP: "." decimal, "," grouping.
  ok("1,234.56", "en-US", "1234.56"),
  ok("1,234,567.89", "en-US", "1234567.89"),
  ok("1,234,567", "en-US", "1234567"),
  ok("1,234.", "en-US", "1234"),
  no("1,234.56", "de-DE", .wrongSeparatorOrder),
  no("1.234,56", "en-US", .wrongSeparatorOrder),
  no("1.234.567", "en-US", .multipleDecimalSeparators),
  no("1,23,456.00", "en-US", .badGrouping),
  no("1,2345.00", "en-US", .badGrouping),
  no("1 234,567.00", "en-US", .badGrouping),
  ok("1,234.56", "ja-JP", "1234.56"),
  ok("１，２３４．５６", "ja-JP", "1234.56"),
  no("1.234,56", "ja-JP", .wrongSeparatorOrder),
  // de-DE: "," decimal, "." grouping.
  ok("1.234,56", "de-DE", "1234.56"),
  ok("1.234.567,89", "de-DE", "1234567.89"),
  ok("1.234.567", "de-DE", "1234567"),
  ok("1.234,", "de-DE", "1234"),
  no("1,234,567", "de-DE", .multipleDecimalSeparators),
  no("1.23.456,00", "de-DE", .badGrouping),
  // uk-UA and fr-FR: "," decimal, space grouping; "." works as grouping beside a ",".
  ok("1 234,56", "uk-UA", "1234.56"),
  ok("1\(nbsp)234,56", "uk-UA", "1234.56"),
  ok("1\(narrow)234,56", "fr-FR", "1234.56"),
  ok("1.234,56", "fr-FR", "1234.56"),
  ok("1.234.567", "uk-UA", "1234567"),
  no("1,234.56", "uk-UA", .wrongSeparatorOrder),
  no("1,234.56", "fr-FR", .wrongSeparatorOrder),
  no("1 234.567,00", "fr-FR", .badGrouping),
  // The same mark twice is two decimal separators where it is the decimal separator, and
  // badly sized groups where it is not.
  no("12.5.0", "en-US", .multipleDecimalSeparators),
  no("12.5.0", "ja-JP", .multipleDecimalSeparators),
  no("12,5,0", "en-US", .badGrouping),
  no("12,5,0", "de-DE", .multipleDecimalSeparators),
  no("12,5,0", "uk-UA", .multipleDecimalSeparators),
  no("12,5,0", "fr-FR", .multipleDecimalSeparators),
  no("12.5.0", "de-DE", .badGrouping),
  no("12.5.0", "fr-FR", .badGrouping),
  // Other decimals limits.
  ok("12.345", "en-US", "12.345", max: 3),
  no("12,345", "en-US", .ambiguous, max: 3),
  ok("12,345", "de-DE", "12.345", max: 3),
  no("12.345", "de-DE", .ambiguous, max: 3),
  ok("0.125", "en-US", "0.125", max: 3),
  ok("1,235", "ja-JP", "1235", max: 0),
  ok("12.345", "de-DE", "12345", max: 0),
  ok("1 235", "ja-JP", "1235", max: 0),
  no("12.5", "ja-JP", .tooManyDecimals, max: 0),
  no("12,5", "en-US", .tooManyDecimals, max: 0),
  ok("12", "ja-JP", "12", max: 0),
  no("12.55", "en-US", .tooManyDecimals, max: 1),
  ok("12.5", "en-US", "12.5", max: 1),
]

@Suite("AmountParser")
struct AmountParserTests {
  @Test(arguments: everywhere + perLocale)
  func parses(_ row: ParseCase) throws {
    let locale = try #require(BackofficeLocale(identifier: row.locale))
    let result = Result { () throws(AmountParseError) -> Decimal in
      try AmountParser.parse(row.text, locale: locale, maxFractionDigits: row.maxFractionDigits)
    }
    switch (row.expected, result) {
    case (.value(let text), .success(let value)):
      #expect(value == Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
    case (.refused(let reason), .failure(let error)):
      #expect(error.reason == reason, "\(error.message)")
      #expect(!error.message.isEmpty)
    case (.value(let text), .failure(let error)):
      Issue.record("expected \(text), refused: \(error.reason) \(error.message)")
    case (.refused(let reason), .success(let value)):
      Issue.record("expected \(reason), parsed \(value)")
    }
  }

  @Test func negativeNumbersWhenAllowed() throws {
    #expect(try AmountParser.parse("-12,50", locale: .deDE, allowNegative: true) == -12.5)
    #expect(try AmountParser.parse("− 1 234.5", locale: .enUS, allowNegative: true) == -1234.5)
    #expect(try AmountParser.parse("-0", locale: .enUS, allowNegative: true) == 0)
    #expect(throws: AmountParseError.self) {
      try AmountParser.parse("-", locale: .enUS, allowNegative: true)
    }
  }

  @Test func zeroPointOnePlusZeroPointTwoIsExactlyZeroPointThree() throws {
    for locale in [BackofficeLocale.enUS, .ukUA, .deDE, .frFR, .jaJP] {
      let a = try AmountParser.parse("0,1", locale: locale)
      let b = try AmountParser.parse("0.2", locale: locale)
      let c = try AmountParser.parse("0,3", locale: locale)
      #expect(a + b == c)
      #expect(MoneyFormat.decimalString(a + b, fractionDigits: 20) == "0.30000000000000000000")
    }
  }

  @Test func parsedValuesAreExactAtTheLargestScale() throws {
    let value = try AmountParser.parse("999 999 999 999 999,99", locale: .ukUA)
    #expect(MoneyFormat.decimalString(value) == "999999999999999.99")
  }

  // The messages are what people read, so the important ones are pinned word for word.
  @Test func messagesNameTheProblemWithALocaleExample() {
    func message(_ text: String, _ locale: BackofficeLocale, max: Int = 2) -> String {
      do {
        _ = try AmountParser.parse(text, locale: locale, maxFractionDigits: max)
        return "accepted"
      } catch {
        return error.message
      }
    }
    #expect(message("12,123", .deDE).contains("write 12123 without a separator"))
    #expect(message("12.125", .enUS).contains("e.g. 12.50"))
    #expect(message("1.5555", .deDE) == "Use at most 2 decimals, e.g. 12,50.")
    #expect(message("1.5555", .enUS) == "Use at most 2 decimals, e.g. 12.50.")
    #expect(message("1.55", .jaJP, max: 0) == "Use a whole number without decimals, e.g. 12.")
    #expect(message("", .frFR) == "Enter an amount, e.g. 12,50.")
    #expect(
      message("12x", .ukUA) == "“x” is not allowed: use digits and “,” for decimals, e.g. 12,50.")
    #expect(message("-5", .enUS).contains("cannot be negative"))
    #expect(
      message("1,234.56", .deDE) == "Use “,” for decimals and “.” for thousands, e.g. 12.345,67.")
    #expect(
      message("1,234.56", .ukUA)
        == "Use “,” for decimals and a space for thousands, e.g. 12\(nbsp)345,67.")
    #expect(message("1,2,3", .frFR) == "Use only one decimal separator “,”, e.g. 12,50.")
    #expect(message("15 00", .enUS).hasPrefix("Group digits in threes, e.g. 12,345.67"))
  }
}

@Suite("AmountParser strict form")
struct StrictDecimalStringTests {
  @Test(arguments: [
    ("12.50", "12.5"), ("0", "0"), ("12", "12"), ("-3.25", "-3.25"), ("0.125", "0.125"),
    ("007.10", "7.1"), ("99999999999999999999.99", "99999999999999999999.99"),
  ])
  func accepts(_ text: String, _ expected: String) throws {
    let value = try #require(AmountParser.parseStrictDecimalString(text))
    #expect(value == Decimal(string: expected, locale: Locale(identifier: "en_US_POSIX")))
  }

  @Test(arguments: [
    "", "12,50", "1,234.56", " 12.50", "12.50 ", "1 000", "12.", ".5", "+1", "1e3", "--1",
    "12.5.0", "abc", "NaN", "١٢", "１２",
  ])
  func refuses(_ text: String) {
    #expect(AmountParser.parseStrictDecimalString(text) == nil)
  }
}
