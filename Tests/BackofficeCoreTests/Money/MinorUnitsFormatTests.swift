import Foundation
import TestSupport
import Testing

@testable import BackofficeCore

/// Stored amounts are formatted straight from their integer; the text must be exactly what the
/// `Decimal` path writes, in every locale and currency, for any amount.
@Suite("Money formatting from minor units")
struct MinorUnitsFormatTests {
  static let values: [Int64] = {
    var values: [Int64] = [
      0, 1, -1, 5, -5, 9, 10, 49, 50, 99, 100, 101, 150, 999, 1_000, 1_005, 12_345, 99_999,
      100_000, 123_456_789, 99_999_999_999_999_999, -99_999_999_999_999_999, Int64.max,
      Int64.min + 1,
    ]
    var generator = SeededGenerator(seed: 42)
    for _ in 0..<300 {
      values.append(Int64.random(in: -10_000_000_000...10_000_000_000, using: &generator))
    }
    return values
  }()

  static let currencies = ["USD", "EUR", "UAH", "JPY", "KWD", "CHF", "PLN", "XYZ"]

  @Test func currencyTextMatchesTheDecimalPath() {
    for locale in BackofficeLocale.supported {
      for code in Self.currencies {
        for value in Self.values {
          let amount = MinorUnits(value)
          #expect(
            MoneyFormat.currency(amount, currency: code, locale: locale)
              == MoneyFormat.currency(amount.decimal, currency: code, locale: locale),
            "\(value) \(code) \(locale.identifier)")
        }
      }
    }
  }

  @Test func numbersPercentagesAndPlainTextMatchTheDecimalPath() {
    for locale in BackofficeLocale.supported {
      for value in Self.values {
        let amount = MinorUnits(value)
        for places in 0...3 {
          #expect(
            MoneyFormat.number(amount, fractionDigits: places, locale: locale)
              == MoneyFormat.number(amount.decimal, fractionDigits: places, locale: locale))
        }
        #expect(
          ProductFormat.percent(amount, locale: locale)
            == ProductFormat.percent(amount.decimal, locale: locale), "\(value)")
      }
    }
    for value in Self.values {
      let amount = MinorUnits(value)
      #expect(
        MoneyFormat.decimalString(amount)
          == MoneyFormat.decimalString(amount.decimal, fractionDigits: 2), "\(value)")
    }
  }

  /// The writer a listing formats with, for a percentage and inside a JSON string.
  @Test func theWriterWritesTheDecimalPathsText() {
    for locale in BackofficeLocale.supported {
      for code in Self.currencies + ["a/\"b"] {
        let writer = AmountWriter(currency: code, locale: locale)
        let escaped = writer.mappingPieces { JSONText.escaped($0, escapingSlashes: true) }
        for value in Self.values {
          let amount = MinorUnits(value)
          let currency = MoneyFormat.currency(amount.decimal, currency: code, locale: locale)
          #expect(AmountWriter.text { writer.currency(amount, into: &$0) } == currency)
          let quoted = JSONText.string(currency).replacingOccurrences(of: "/", with: "\\/")
          #expect(
            "\"" + AmountWriter.text { escaped.currency(amount, into: &$0) } + "\"" == quoted)
          #expect(
            AmountWriter.text { writer.percent(amount, into: &$0) }
              == ProductFormat.percent(amount.decimal, locale: locale))
        }
      }
    }
    for value in [0, 7, -7, 1_005, Int.max, Int.min] {
      #expect(AmountWriter.text { AmountWriter.integer(value, into: &$0) } == String(value))
    }
  }

  @Test func examples() {
    #expect(MoneyFormat.decimalString(MinorUnits(-10)) == "-0.10")
    #expect(MoneyFormat.decimalString(MinorUnits(0)) == "0.00")
    #expect(
      MoneyFormat.currency(MinorUnits(169_492), currency: "USD", locale: .enUS) == "$1,694.92")
    #expect(ProductFormat.percent(MinorUnits(1_250), locale: .frFR) == "12,5\u{202F}%")
  }
}
