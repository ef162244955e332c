import Foundation
import Testing

@testable import BackofficeCore

private let locales: [BackofficeLocale] = [.enUS, .ukUA, .deDE, .frFR, .jaJP]

@Suite("AmountTyping")
struct AmountTypingTests {
  @Test(
    arguments: locales,
    [
      "", "1", "12", "12,", "12.", "12,5", "12.5", "12,50", "12.50", "0", "0,01", "0.01", "007",
      "123456789", "1234,56",
    ])
  func acceptsEveryTypingState(_ locale: BackofficeLocale, _ text: String) {
    #expect(AmountTyping.accepts(text, locale: locale))
    #expect(AmountTyping.apply(text, previous: "9", locale: locale) == text)
  }

  @Test(
    arguments: locales,
    [
      ",", ".", ",5", ".5", "12,505", "12.345", "1,234.5", "1.234,5", "12,5,", "12,,", "12.,",
      "1 000", " 12", "12 ", "1\u{00A0}000", "-1", "+1", "a", "12a", "1e3", "１２", "١٢", "12€",
      "$12",
    ])
  func refusesEverythingElse(_ locale: BackofficeLocale, _ text: String) {
    #expect(!AmountTyping.accepts(text, locale: locale))
    #expect(AmountTyping.apply(text, previous: "12,5", locale: locale) == "12,5")
  }

  @Test func fewerDecimalsForCurrenciesThatHaveFewer() {
    #expect(AmountTyping.accepts("12", locale: .jaJP, maxFractionDigits: 0))
    #expect(!AmountTyping.accepts("12.", locale: .jaJP, maxFractionDigits: 0))
    #expect(!AmountTyping.accepts("12,5", locale: .jaJP, maxFractionDigits: 0))
    #expect(AmountTyping.accepts("12,5", locale: .deDE, maxFractionDigits: 1))
    #expect(!AmountTyping.accepts("12,55", locale: .deDE, maxFractionDigits: 1))
    // More than two is capped at two: the expense rule.
    #expect(!AmountTyping.accepts("12,555", locale: .deDE, maxFractionDigits: 3))
  }

  @Test func patternsForTheBrowser() {
    #expect(AmountTyping.regexPattern(for: .enUS) == "^(?:[0-9]+[.,]?[0-9]{0,2})?$")
    #expect(AmountTyping.regexPattern(for: .deDE) == "^(?:[0-9]+[,.]?[0-9]{0,2})?$")
    #expect(
      AmountTyping.regexPattern(for: .ukUA, maxFractionDigits: 1)
        == "^(?:[0-9]+[,.]?[0-9]{0,1})?$")
    #expect(AmountTyping.regexPattern(for: .jaJP, maxFractionDigits: 0) == "^(?:[0-9]+)?$")
  }

  /// The browser runs the pattern, the server runs `accepts`: they must agree on every text.
  /// All strings of up to six characters from a small alphabet are checked.
  @Test(arguments: [(BackofficeLocale.enUS, 2), (.deDE, 2), (.ukUA, 1), (.jaJP, 0)])
  func patternAgreesWithTheSwiftRule(_ locale: BackofficeLocale, _ places: Int) throws {
    let regex = try Regex(AmountTyping.regexPattern(for: locale, maxFractionDigits: places))
    let alphabet: [String] = ["1", "0", ",", ".", " ", "a"]
    var texts = [""]
    var frontier = [""]
    for _ in 1...6 {
      frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
      texts += frontier
    }
    var disagreements: [String] = []
    for text in texts {
      let byPattern = (try? regex.wholeMatch(in: text)) != nil
      let byRule = AmountTyping.accepts(text, locale: locale, maxFractionDigits: places)
      if byPattern != byRule { disagreements.append(text) }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    #expect(texts.count == 55_987)
  }

  /// Whatever the keystroke rule lets through, apart from the empty field, the validator
  /// accepts as a positive amount or as zero.
  @Test(arguments: locales)
  func everyAcceptedTextParses(_ locale: BackofficeLocale) throws {
    for text in ["1", "12,", "12.", "12,5", "12.50", "0,01", "007", "0"] {
      #expect(AmountTyping.accepts(text, locale: locale))
      _ = try AmountParser.parse(text, locale: locale)
    }
  }
}
