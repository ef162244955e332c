import Foundation
import Testing

@testable import BackofficeCore

private func dec(_ text: String) -> Decimal {
  AmountParser.parseStrictDecimalString(text) ?? .nan
}

@Suite("ExpenseTotals")
struct ExpenseTotalsTests {
  /// 10 000 rows of 0.01 and 0.1 — sums that drift with binary floating point — stay exact.
  @Test func tenThousandSmallAmountsAreExactToTheCent() throws {
    let cent = try #require(AmountParser.parseStrictDecimalString("0.01"))
    let dime = try AmountParser.parse("0,1", locale: .deDE)
    let categories = ExpenseCategory.allCases
    let rows = (0..<10_000).map { index in
      (categories[index % categories.count], index.isMultiple(of: 2) ? cent : dime)
    }
    let totals = ExpenseTotals(rows)
    #expect(totals.count == 10_000)
    #expect(totals.total == dec("550"))
    #expect(MoneyFormat.decimalString(totals.total) == "550.00")
    #expect(totals.lines.map(\.amount).reduce(0, +) == totals.total)
    // 10 000 / 6: categories 0–3 get 1 667 rows, 4–5 get 1 666; even rows are cents.
    // Even indexes land on categories 0, 2 and 4, odd ones on 1, 3 and 5.
    #expect(totals.total(for: .personal) == dec("16.67"))
    #expect(totals.total(for: .hobby) == dec("166.7"))
    #expect(totals.total(for: .transport) == dec("16.67"))
    #expect(totals.total(for: .food) == dec("166.7"))
    #expect(totals.total(for: .insurance) == dec("16.66"))
    #expect(totals.total(for: .savings) == dec("166.6"))
    #expect(totals.count(for: .personal) == 1_667)
    #expect(totals.count(for: .savings) == 1_666)
    // The same sums in Double are not exact, which is why Decimal is used.
    let double = rows.reduce(0.0) { $0 + ($1.1 == cent ? 0.01 : 0.1) }
    #expect(double != 550)
  }

  @Test func linesFollowTheCategoryOrderAndIncludeEmptyOnes() {
    var totals = ExpenseTotals()
    totals.add(dec("3"), to: .savings)
    totals.add(dec("1"), to: .food)
    totals.add(dec("2.5"), to: .food)
    #expect(totals.lines.map(\.category) == ExpenseCategory.allCases)
    #expect(
      totals.nonEmptyLines == [
        ExpenseTotals.Line(category: .food, amount: dec("3.5"), count: 2),
        ExpenseTotals.Line(category: .savings, amount: dec("3"), count: 1),
      ])
    #expect(totals.total(for: .hobby) == 0)
    #expect(totals.total == dec("6.5"))
  }

  @Test func fromExpensesAndPercentages() {
    let expenses = [
      Expense(title: "a", amount: dec("1"), category: .food),
      Expense(title: "b", amount: dec("3"), category: .personal),
      Expense(title: "c", amount: dec("0.005"), category: .hobby),
    ]
    let totals = ExpenseTotals(expenses: expenses)
    #expect(totals.total == dec("4.005"))
    #expect(totals.percent(of: .personal) == 75)
    #expect(totals.percent(of: .food) == 25)
    #expect(totals.percent(of: .hobby) == 0)
    #expect(ExpenseTotals().percent(of: .food) == 0)
    let thirds = ExpenseTotals([(.food, dec("1")), (.hobby, dec("2"))])
    #expect(thirds.percent(of: .food) == 33)
    #expect(thirds.percent(of: .hobby) == 67)
  }
}

@Suite("ExpenseOrder")
struct ExpenseOrderTests {
  struct Row: Equatable {
    let name: String
    let date: Date?
    let created: Int
  }

  @Test func newestFirstUndatedLastThenMostRecentlyCreated() {
    let day = 86_400.0
    let rows = [
      Row(name: "undated old", date: nil, created: 1),
      Row(name: "oldest", date: Date(timeIntervalSince1970: 1 * day), created: 2),
      Row(name: "newest", date: Date(timeIntervalSince1970: 9 * day), created: 3),
      Row(name: "undated new", date: nil, created: 7),
      Row(name: "middle A", date: Date(timeIntervalSince1970: 5 * day), created: 4),
      Row(name: "middle B", date: Date(timeIntervalSince1970: 5 * day), created: 6),
      Row(name: "twin 1", date: Date(timeIntervalSince1970: 2 * day), created: 5),
      Row(name: "twin 2", date: Date(timeIntervalSince1970: 2 * day), created: 5),
    ]
    let sorted = ExpenseOrder.sorted(rows, date: \.date, created: \.created)
    #expect(
      sorted.map(\.name) == [
        "newest", "middle B", "middle A", "twin 1", "twin 2", "oldest", "undated new",
        "undated old",
      ])
    let reversed = ExpenseOrder.sorted(rows.reversed(), date: \.date, created: \.created)
    #expect(reversed.map(\.name).prefix(3) == ["newest", "middle B", "middle A"])
    #expect(reversed.map(\.name).suffix(2) == ["undated new", "undated old"])
  }

  @Test func precedes() {
    let early = Date(timeIntervalSince1970: 0)
    let late = Date(timeIntervalSince1970: 60)
    #expect(ExpenseOrder.precedes((late, 1), (early, 2)))
    #expect(!ExpenseOrder.precedes((early, 2), (late, 1)))
    #expect(ExpenseOrder.precedes((early, 1), (nil, 2)))
    #expect(!ExpenseOrder.precedes((nil, 2), (early, 1)))
    #expect(ExpenseOrder.precedes((nil, 2), (nil, 1)))
    #expect(!ExpenseOrder.precedes((early, 1), (early, 1)))
  }
}
