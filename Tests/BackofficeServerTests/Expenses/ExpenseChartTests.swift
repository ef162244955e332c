import BackofficeCore
import Foundation
import Testing

@testable import BackofficeServer

@Suite("Expense chart")
struct ExpenseChartTests {
  static func chart(_ pairs: [(ExpenseCategory, String)], currency: String = "EUR") -> ExpenseChart
  {
    ExpenseChart(
      month: ExpenseMonth(year: 2025, month: 11)!,
      totals: ExpenseTotals(pairs.map { ($0.0, ExpenseFixtures.decimal($0.1)) }),
      currency: currency)
  }

  @Test func barsAreSharesOfTheLargestCategory() {
    let chart = Self.chart([(.food, "80"), (.food, "20"), (.transport, "25"), (.hobby, "0.01")])
    #expect(chart.barWidth(ExpenseFixtures.decimal("100")) == 320)
    #expect(chart.barWidth(ExpenseFixtures.decimal("25")) == 80)
    // A tiny amount still shows a sliver; nothing shows nothing.
    #expect(chart.barWidth(ExpenseFixtures.decimal("0.01")) == 2)
    #expect(chart.barWidth(0) == 0)
    #expect(Self.chart([]).barWidth(0) == 0)
  }

  @Test func svgHasATitleADescriptionAndOneRowPerCategory() {
    let chart = Self.chart([(.food, "80"), (.transport, "20")])
    let html = H.div([], [chart.render(locale: .frFR)]).render()
    #expect(html.contains(#"role="img" aria-labelledby="expense-chart-title expense-chart-desc""#))
    #expect(
      html.contains(
        "<title id=\"expense-chart-title\">Spending per category, novembre 2025</title>"))
    #expect(
      html.contains(
        "<desc id=\"expense-chart-desc\">Total 100,00\u{00A0}€. Personal: 0,00\u{00A0}€ (0%), 0 expenses."
      ))
    #expect(html.contains("Food: 80,00\u{00A0}€ (80%), 1 expense."))
    for category in ExpenseCategory.allCases {
      #expect(html.contains(#"data-category="\#(category.rawValue)""#))
    }
    #expect(html.contains(#"<g class="chart-row cat-food" data-category="Food">"#))
    #expect(html.contains(#"class="chart-value">80,00\#u{00A0}€ · 80%</text>"#))
    // Colours come from classes: no style attributes for the CSP to block.
    #expect(!html.contains("style="))
    #expect(html.components(separatedBy: "class=\"chart-bar\"").count == 7)
  }
}
