import Foundation
import Testing

@testable import BackofficeCore

@Suite("BackofficeLocale")
struct BackofficeLocaleTests {
  @Test func tableIsComplete() {
    let ids = BackofficeLocale.supported.map(\.identifier)
    #expect(
      ids == [
        "en-US", "en-GB", "uk-UA", "de-DE", "fr-FR", "ja-JP", "es-ES", "it-IT", "pl-PL", "nl-NL",
      ])
    for locale in BackofficeLocale.supported {
      #expect(locale.monthNames.count == 12)
      #expect(locale.decimalSeparator != locale.groupingSeparator)
      #expect(Currency.isValid(locale.defaultCurrency))
      #expect(BackofficeLocale(identifier: locale.identifier) == locale)
    }
    #expect(BackofficeLocale.ukUA.groupingSeparator == "\u{00A0}")
    #expect(BackofficeLocale.ukUA.displayName == "Українська (Україна) — Ukrainian (Ukraine)")
    #expect(BackofficeLocale.enGB.displayName == "English (United Kingdom)")
  }

  @Test(arguments: [
    ("", "en-US"),
    ("uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7", "uk-UA"),
    ("uk", "uk-UA"),
    ("en", "en-US"),
    ("en-GB", "en-GB"),
    ("en-gb,en;q=0.5", "en-GB"),
    ("en-AU", "en-US"),
    ("fr-CA,fr;q=0.9", "fr-FR"),
    ("zh-CN, de;q=0.5", "de-DE"),
    ("de;q=0.5, ja;q=0.8", "ja-JP"),
    ("*", "en-US"),
    ("pl;q=0, nl", "nl-NL"),
    ("es-ES;q=abc, it", "it-IT"),
    ("zh", "en-US"),
    ("  pl-PL ; q=1.0 ", "pl-PL"),
    ("de-AT;q=0.9, en-US;q=0.9", "de-DE"),
    ("garbage;;;,,", "en-US"),
  ])
  func bestMatch(_ header: String, _ expected: String) {
    #expect(BackofficeLocale.bestMatch(acceptLanguage: header).identifier == expected)
  }

  @Test func resolveFallsBackByLanguageThenToEnglish() {
    #expect(BackofficeLocale.resolve("de_de").identifier == "de-DE")
    #expect(BackofficeLocale.resolve("pl").identifier == "pl-PL")
    #expect(BackofficeLocale.resolve("en-IE").identifier == "en-US")
    #expect(BackofficeLocale.resolve("xx-YY").identifier == "en-US")
    #expect(BackofficeLocale(identifier: "de") == nil)
  }

  // 2025-11-22 15:05 UTC
  private let afternoon = Date(timeIntervalSince1970: 1_763_823_900)
  private let utc = TimeZone(secondsFromGMT: 0)!
  private let kyivWinter = TimeZone(secondsFromGMT: 2 * 3600)!

  @Test(arguments: [
    ("en-US", "11/22/2025", "11/22/2025, 3:05 PM"),
    ("en-GB", "22/11/2025", "22/11/2025, 15:05"),
    ("uk-UA", "22.11.2025", "22.11.2025, 15:05"),
    ("de-DE", "22.11.2025", "22.11.2025, 15:05"),
    ("fr-FR", "22/11/2025", "22/11/2025 15:05"),
    ("ja-JP", "2025/11/22", "2025/11/22 15:05"),
    ("es-ES", "22/11/2025", "22/11/2025, 15:05"),
    ("it-IT", "22/11/2025", "22/11/2025, 15:05"),
    ("pl-PL", "22.11.2025", "22.11.2025, 15:05"),
    ("nl-NL", "22-11-2025", "22-11-2025 15:05"),
  ])
  func formatsDates(_ id: String, _ date: String, _ dateTime: String) {
    let locale = BackofficeLocale.resolve(id)
    #expect(locale.formatDate(afternoon, timeZone: utc) == date)
    #expect(locale.formatDateTime(afternoon, timeZone: utc) == dateTime)
  }

  @Test func timeZoneDecidesTheDay() throws {
    let lateEvening = Date(timeIntervalSince1970: 1_763_854_200)  // 2025-11-22 23:30 UTC
    #expect(
      BackofficeLocale.ukUA.formatDateTime(lateEvening, timeZone: kyivWinter) == "23.11.2025, 01:30"
    )
    let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
    #expect(
      BackofficeLocale.jaJP.formatDateTime(lateEvening, timeZone: tokyo) == "2025/11/23 08:30")
    #expect(
      BackofficeLocale.enUS.formatDateTime(lateEvening, timeZone: utc) == "11/22/2025, 11:30 PM")
  }

  @Test func twelveHourClockEdges() {
    let midnight = Date(timeIntervalSince1970: 1_763_769_600)
    let noon = Date(timeIntervalSince1970: 1_763_812_800)
    #expect(BackofficeLocale.enUS.formatDateTime(midnight, timeZone: utc) == "11/22/2025, 12:00 AM")
    #expect(BackofficeLocale.enUS.formatDateTime(noon, timeZone: utc) == "11/22/2025, 12:00 PM")
    let morning = Date(timeIntervalSince1970: 1_736_068_020)  // 2025-01-05 09:07 UTC
    #expect(BackofficeLocale.enUS.formatDateTime(morning, timeZone: utc) == "01/05/2025, 9:07 AM")
    #expect(BackofficeLocale.deDE.formatDateTime(morning, timeZone: utc) == "05.01.2025, 09:07")
  }

  @Test func monthsAndCalendarDays() {
    #expect(BackofficeLocale.ukUA.monthName(11) == "листопад")
    #expect(BackofficeLocale.deDE.monthName(3) == "März")
    #expect(BackofficeLocale.plPL.monthName(10) == "październik")
    #expect(BackofficeLocale.enUS.monthName(0) == "")
    #expect(BackofficeLocale.enUS.monthName(13) == "")
    #expect(BackofficeLocale.enUS.formatMonth(year: 2025, month: 11) == "November 2025")
    #expect(BackofficeLocale.frFR.formatMonth(year: 2025, month: 8) == "août 2025")
    #expect(BackofficeLocale.jaJP.formatMonth(year: 2025, month: 11) == "2025年11月")
    #expect(BackofficeLocale.enGB.formatDate(year: 2025, month: 3, day: 7) == "07/03/2025")
    #expect(BackofficeLocale.jaJP.formatDate(year: 987, month: 3, day: 7) == "0987/03/07")
  }
}

@Suite("Currency")
struct CurrencyTests {
  @Test(
    arguments: [
      ("EUR", 2, "€"), ("eur", 2, "€"), (" usd ", 2, "$"), ("JPY", 0, "¥"), ("UAH", 2, "₴"),
      ("GBP", 2, "£"), ("PLN", 2, "zł"), ("INR", 2, "₹"), ("KWD", 3, nil), ("BHD", 3, nil),
      ("CHF", 2, nil), ("KRW", 0, "₩"),
    ] as [(String, Int, String?)])
  func knownCodes(_ code: String, _ minorUnits: Int, _ symbol: String?) throws {
    let currency = try #require(Currency.lookup(code))
    #expect(currency.minorUnits == minorUnits)
    #expect(currency.symbol == symbol)
    #expect(Currency.isValid(code))
  }

  @Test(arguments: ["", "EU", "EURO", "XXX", "XTS", "XAU", "ABC", "HRK", "12$", "€"])
  func refusedCodes(_ code: String) {
    #expect(Currency.lookup(code) == nil)
    #expect(!Currency.isValid(code))
  }

  @Test func listIsSortedAndWellFormed() {
    let codes = Currency.all.map(\.code)
    #expect(codes == codes.sorted())
    #expect(Set(codes).count == codes.count)
    #expect(codes.count > 150)
    #expect(codes.allSatisfy { $0.count == 3 && $0.allSatisfy { $0.isASCII && $0.isUppercase } })
    #expect(Currency.minorUnits(for: "nope") == 2)
  }
}

// Test names show the identifier instead of every field of the locale.
extension BackofficeLocale: CustomTestStringConvertible {
  public var testDescription: String { identifier }
}
