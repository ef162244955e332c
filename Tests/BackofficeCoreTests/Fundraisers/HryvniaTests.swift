import Foundation
import Testing

@testable import BackofficeCore

private func dec(_ text: String) -> Decimal {
  Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

/// Visible spaces in expectations: "·" stands for the no-break space the formatter emits.
private func nbsp(_ text: String) -> String {
  text.replacingOccurrences(of: "·", with: "\u{00A0}")
}

@Suite("Hryvnia", .ukrainian)
struct HryvniaTests {
  @Test(
    "format",
    arguments: [
      ("0", "0·грн"),
      ("5", "5·грн"),
      ("999", "999·грн"),
      ("1000", "1·000·грн"),
      ("15000", "15·000·грн"),
      ("15000.5", "15·000,50·грн"),
      ("15000.50", "15·000,50·грн"),
      ("0.05", "0,05·грн"),
      ("1234567.89", "1·234·567,89·грн"),
      ("1000000", "1·000·000·грн"),
      ("100.004", "100·грн"),
      ("100.005", "100,01·грн"),
      ("99.999", "100·грн"),
      ("-1500.5", "-1·500,50·грн"),
      ("-0.001", "0·грн"),
    ])
  func format(amount: String, expected: String) {
    #expect(Hryvnia.format(dec(amount)) == nbsp(expected))
  }

  @Test(
    "formatNumber has no unit",
    arguments: [("15000", "15·000"), ("15000.5", "15·000,50"), ("12", "12")])
  func formatNumber(amount: String, expected: String) {
    #expect(Hryvnia.formatNumber(dec(amount)) == nbsp(expected))
  }

  @Test func formatNaN() {
    #expect(Hryvnia.formatNumber(.nan) == "—")
  }

  @Test(
    "parse accepts",
    arguments: [
      ("15000", "15000"),
      ("15 000", "15000"),
      ("15\u{00A0}000", "15000"),
      ("15\u{202F}000", "15000"),
      ("15\u{2009}000", "15000"),
      ("1 234 567", "1234567"),
      ("15000,50", "15000.5"),
      ("15000.50", "15000.5"),
      ("15 000,5", "15000.5"),
      ("0,05", "0.05"),
      ("0", "0"),
      ("007", "7"),
      ("  15000  ", "15000"),
      ("15000 грн", "15000"),
      ("15000грн", "15000"),
      ("15 000 грн.", "15000"),
      ("15 000,50 ГРН", "15000.5"),
      ("15000 ₴", "15000"),
      ("₴15000", "15000"),
      ("999999999999,99", "999999999999.99"),
    ])
  func parseAccepts(text: String, expected: String) throws {
    #expect(try Hryvnia.parse(text) == dec(expected))
  }

  @Test(
    "parse refuses",
    arguments: [
      ("", HryvniaParseError.empty),
      ("   ", .empty),
      ("abc", .invalidFormat),
      ("15k", .invalidFormat),
      ("грн", .invalidFormat),
      ("15 00", .invalidFormat),
      ("1 5000", .invalidFormat),
      ("15  000", .invalidFormat),
      ("1000 000", .invalidFormat),
      ("15000,", .invalidFormat),
      (",50", .invalidFormat),
      ("1.000,50", .invalidFormat),
      ("1,000.50", .invalidFormat),
      ("15,0,0", .invalidFormat),
      ("+15", .invalidFormat),
      ("15e3", .invalidFormat),
      ("١٥", .invalidFormat),
      ("-", .invalidFormat),
      ("-15", .negative),
      ("−15 000,50", .negative),
      ("15000,505", .tooManyFractionDigits),
      ("15,000", .tooManyFractionDigits),
      ("15.000", .tooManyFractionDigits),
      ("1000000000000", .tooLarge),
    ])
  func parseRefuses(text: String, expected: HryvniaParseError) {
    #expect(throws: expected) { try Hryvnia.parse(text) }
  }

  @Test func parseErrorMessages() {
    #expect(HryvniaParseError.invalidFormat.message == "Неправильний формат")
    #expect(HryvniaParseError.empty.message == "Поле не може бути пустим")
    #expect(HryvniaParseError.negative.message == "Сума не може бути від'ємною")
    #expect(HryvniaParseError.tooManyFractionDigits.message.hasPrefix("Неправильний формат"))
    #expect(HryvniaParseError.tooLarge.message == "Занадто велика сума")
  }

  @Test(
    "format then parse round-trips", arguments: ["0", "0.01", "15000", "15000.5", "1234567.89"])
  func roundTrip(amount: String) throws {
    #expect(try Hryvnia.parse(Hryvnia.format(dec(amount))) == dec(amount))
  }

  @Test func maximum() {
    #expect(Hryvnia.maximum == dec("999999999999.99"))
  }
}
