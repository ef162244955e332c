import Testing

@testable import BackofficeCore

@Suite("Plurals and counts")
struct PluralTests {
  @Test(arguments: [
    (0, "зборів"), (1, "збір"), (2, "збори"), (4, "збори"), (5, "зборів"), (11, "зборів"),
    (12, "зборів"), (14, "зборів"), (21, "збір"), (22, "збори"), (25, "зборів"),
    (101, "збір"), (111, "зборів"), (112, "зборів"), (1_002, "збори"), (-1, "збір"),
    (Int.min, "зборів"),
  ])
  func ukrainianHasThreeForms(count: Int, word: String) {
    #expect(Plural.ukrainian(count, one: "збір", few: "збори", many: "зборів") == word)
  }

  @Test func englishHasTwo() {
    #expect(Plural.english(1, one: "channel", other: "channels") == "channel")
    for count in [0, 2, 11, 21, 101] {
      #expect(Plural.english(count, one: "channel", other: "channels") == "channels")
    }
  }

  @Test func countsAreGroupedTheLocalesWay() {
    let nbsp = "\u{00A0}"
    #expect(MoneyFormat.count(1_005, locale: .enUS) == "1,005")
    #expect(MoneyFormat.count(1_005, locale: .ukUA) == "1\(nbsp)005")
    #expect(MoneyFormat.count(1_005, locale: .deDE) == "1.005")
    #expect(MoneyFormat.count(0, locale: .enUS) == "0")
    #expect(MoneyFormat.count(999, locale: .enUS) == "999")
    #expect(MoneyFormat.count(1_234_567, locale: .enUS) == "1,234,567")
    #expect(MoneyFormat.count(Int.max, locale: .enUS) == "9,223,372,036,854,775,807")
  }
}
