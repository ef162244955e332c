import Foundation
import Testing

@testable import BackofficeCore

@Suite("Marketing plan totals")
struct PlanTotalsTests {
  private func chosen(_ channel: String, _ price: String, _ currency: String) -> ChosenPackage {
    let package = MarketingPackage(
      channelID: channel, channelName: channel, index: 0, price: Decimal(string: price)!,
      currency: currency, details: [])
    return ChosenPackage(
      channel: MarketingChannel(id: channel, name: channel, packages: [package]), package: package)
  }

  private var mixed: [ChosenPackage] {
    [
      chosen("a", "140", "EUR"),
      chosen("b", "0.10", "USD"),
      chosen("c", "1500.50", "UAH"),
      chosen("d", "0.20", "USD"),
      chosen("e", "49.99", "EUR"),
      chosen("f", "300", "UAH"),
    ]
  }

  @Test func sumsPerCurrencyExactlyInCodeOrder() {
    let totals = PlanTotals(mixed)
    #expect(
      totals.sums == [
        Money(amount: Decimal(string: "189.99")!, currency: "EUR"),
        Money(amount: 1800.5, currency: "UAH"),
        // 0.1 + 0.2 is exactly 0.3 in Decimal.
        Money(amount: Decimal(string: "0.3")!, currency: "USD"),
      ])
    #expect(totals.packageCount == 6)
    #expect(totals.channelCount == 6)
  }

  /// The largest and most precise price a catalog may hold, in every one of many channels,
  /// still adds up to the exact total.
  @Test func theLargestPricesTheCatalogTakesAddUpExactly() throws {
    let largest = "999999999999999.999999999999"
    let packages = (0..<1_000).map { chosen("c\($0)", largest, "EUR") }
    let totals = PlanTotals(packages)
    #expect(
      totals.sums == [
        Money(
          amount: try #require(Decimal(string: "999999999999999999.999999999")), currency: "EUR")
      ])
  }

  @Test func currencyOrderDoesNotDependOnListOrder() {
    let forward = PlanTotals(mixed)
    let backward = PlanTotals(mixed.reversed())
    #expect(forward == backward)
  }

  @Test(arguments: [
    ("en-US", "€189.99 + ₴1,800.50 + $0.30"),
    ("de-DE", "189,99\u{A0}€ + 1.800,50\u{A0}₴ + 0,30\u{A0}$"),
    ("uk-UA", "189,99\u{A0}€ + 1\u{A0}800,50\u{A0}₴ + 0,30\u{A0}$"),
  ])
  func formattedInTheUsersLocaleJoinedWithPlus(locale: String, expected: String) {
    #expect(PlanTotals(mixed).formatted(locale: BackofficeLocale.resolve(locale)) == expected)
  }

  @Test func singleCurrencyTotalMatchesTheOriginalExample() {
    let totals = PlanTotals([
      chosen("a", "140", "EUR"), chosen("b", "180", "EUR"), chosen("c", "270", "EUR"),
    ])
    #expect(totals.formatted(locale: .deDE) == "590,00\u{A0}€")
    #expect(totals.countsText == "3 package(s) selected from 3 channel(s)")
  }

  @Test func emptyPlan() {
    let totals = PlanTotals([])
    #expect(totals.sums.isEmpty)
    #expect(totals.formatted(locale: .deDE) == "0,00")
    #expect(totals.formatted(locale: .enUS) == "0.00")
    #expect(totals.countsText == "0 package(s) selected from 0 channel(s)")
  }

  @Test func totalsFromASelection() {
    var selection = PlanSelection(targetNames: ["A", "B"])
    selection.choose(packageID: "xenon_1", channelID: "x")
    selection.choose(packageID: "yak_ads_1", channelID: "y")
    selection.choose(packageID: "zulu_0", channelID: "z")
    let totals = PlanTotals(selection.chosenPackages(in: SampleCatalog.catalog))
    #expect(totals.formatted(locale: .enUS) == "€49.99 + ₴1,500.50 + $0.10")
    #expect(totals.countsText == "3 package(s) selected from 3 channel(s)")
  }
}
