import Foundation
import Testing

@testable import BackofficeCore

@Suite("ProductFormat")
struct ProductFormatTests {
  @Test(
    "percent in the locale's style",
    arguments: [
      ("en-US", "18", "18%"),
      ("en-US", "18.5", "18.5%"),
      ("en-US", "7.25", "7.25%"),
      ("en-US", "0", "0%"),
      ("en-US", "100", "100%"),
      ("de-DE", "18", "18\u{00A0}%"),
      ("es-ES", "12.5", "12,5\u{00A0}%"),
      ("fr-FR", "12.5", "12,5\u{202F}%"),
      ("uk-UA", "7.25", "7,25%"),
      ("ja-JP", "10", "10%"),
    ])
  func percent(locale: String, value: String, expected: String) throws {
    let amount = try #require(Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")))
    #expect(ProductFormat.percent(amount, locale: .resolve(locale)) == expected)
  }

  @Test func taxChipAndPrice() {
    #expect(ProductFormat.taxChip(18, locale: .enUS) == "Tax: 18%")
    let price = Decimal(string: "1694.92", locale: Locale(identifier: "en_US_POSIX")) ?? 0
    #expect(ProductFormat.price(price, currency: "INR", locale: .enUS) == "₹1,694.92")
    #expect(
      ProductFormat.price(price, currency: "UAH", locale: .ukUA) == "1\u{00A0}694,92\u{00A0}₴")
  }
}
