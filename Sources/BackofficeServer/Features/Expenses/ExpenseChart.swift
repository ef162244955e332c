import BackofficeCore
import Foundation

/// A horizontal bar chart of one month's spending per category, drawn as inline SVG on the
/// server. Every category has a row (a fixed legend); each row has its label and amount as
/// text above a bar whose length is the share of the largest category.
///
/// Colours come from classes (`cat-food`), so the stylesheet decides them for light and dark
/// mode; there are no `style` attributes, which the Content-Security-Policy would block.
struct ExpenseChart: Sendable {
  static let width = 320.0
  static let rowHeight = 46.0
  static let barHeight = 14.0
  static let barOffset = 22.0

  var month: ExpenseMonth
  var totals: ExpenseTotals
  var currency: String

  var height: Double { Double(ExpenseCategory.allCases.count) * Self.rowHeight }

  /// The bar length for `amount`: its share of the largest total, at least a sliver when the
  /// amount is not zero so a small expense stays visible.
  func barWidth(_ amount: Decimal) -> Double {
    let largest = totals.lines.map(\.amount).max() ?? 0
    guard largest > 0, amount > 0 else { return 0 }
    let share = NSDecimalNumber(decimal: amount / largest).doubleValue
    return max(2, (share * Self.width * 10).rounded() / 10)
  }

  func title(locale: BackofficeLocale) -> String {
    L("expenses.chart.title", ["month": month.title(locale: locale)])
  }

  func amountText(_ line: ExpenseTotals.Line, locale: BackofficeLocale) -> String {
    let money = MoneyFormat.currency(line.amount, currency: currency, locale: locale)
    return line.count == 0 ? money : "\(money) · \(totals.percent(of: line.category))%"
  }

  /// A sentence per category for screen readers, e.g. "Food: 12,50 € (40%), 3 expenses."
  func description(locale: BackofficeLocale) -> String {
    let parts = totals.lines.map { line in
      let money = MoneyFormat.currency(line.amount, currency: currency, locale: locale)
      let count = L("expenses.count", count: line.count)
      let percent = totals.percent(of: line.category)
      return "\(line.category.displayName): \(money) (\(percent)%), \(count)."
    }
    let total = MoneyFormat.currency(totals.total, currency: currency, locale: locale)
    return L("expenses.chart.total", ["amount": total]) + " " + parts.joined(separator: " ")
  }

  func render(locale: BackofficeLocale, idPrefix: String = "expense-chart") -> HTMLNode {
    let titleID = "\(idPrefix)-title"
    let descID = "\(idPrefix)-desc"
    var children: [HTMLNode] = [
      H.title([.id(titleID)], [H.text(title(locale: locale))]),
      H.desc([.id(descID)], [H.text(description(locale: locale))]),
    ]
    for (index, line) in totals.lines.enumerated() {
      let top = Double(index) * Self.rowHeight
      let slug = line.category.rawValue.lowercased()
      children.append(
        H.g(
          [.class("chart-row cat-\(slug)"), .data("category", line.category.rawValue)],
          [
            H.svgText(
              [.x("0"), .y(number(top + 15)), .class("chart-label")],
              [H.text(line.category.displayName)]),
            H.svgText(
              [
                .x(number(Self.width)), .y(number(top + 15)),
                .textAnchor("end"), .class("chart-value"),
              ],
              [H.text(amountText(line, locale: locale))]),
            H.rect([
              .x("0"), .y(number(top + Self.barOffset)),
              .width(number(Self.width)), .height(number(Self.barHeight)),
              .rx("4"), .class("chart-track"),
            ]),
            H.rect([
              .x("0"), .y(number(top + Self.barOffset)),
              .width(number(barWidth(line.amount))),
              .height(number(Self.barHeight)), .rx("4"),
              .class("chart-bar"), .data("amount", MoneyFormat.decimalString(line.amount)),
            ]),
          ]))
    }
    return H.svg(
      [
        .xmlns("http://www.w3.org/2000/svg"),
        .viewBox("0 0 \(number(Self.width)) \(number(height))"),
        .role("img"), .aria(.labelledby, "\(titleID) \(descID)"),
        .class("expense-chart"),
      ], children)
  }

  /// SVG coordinates without locale formatting: "12", "12.5".
  private func number(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    if tenths.truncatingRemainder(dividingBy: 10) == 0 { return String(Int(tenths / 10)) }
    return String(tenths / 10)
  }
}
