import Foundation
import Testing

@testable import BackofficeCore

private let utc = TimeZone(secondsFromGMT: 0)!
private let kyivWinter = TimeZone(secondsFromGMT: 2 * 3600)!

@Suite("ExpenseFilter")
struct ExpenseFilterTests {
  @Test func emptyValuesMeanNoFilter() {
    let parsed = ExpenseFilter.parse(category: "", month: " ", from: nil, to: "", text: "  ")
    #expect(parsed.errors.isEmpty)
    #expect(parsed.filter.isEmpty)
    #expect(!parsed.filter.hasPeriod)
    #expect(parsed.filter.period(in: utc) == nil)
    #expect(parsed.filter.queryItems.isEmpty)
  }

  @Test func readsEveryValue() throws {
    let parsed = ExpenseFilter.parse(category: "food", month: "2025-11", text: "  Café  ")
    #expect(parsed.errors.isEmpty)
    #expect(parsed.filter.category == .food)
    #expect(parsed.filter.month == ExpenseMonth(year: 2025, month: 11))
    #expect(parsed.filter.text == "Café")
    #expect(parsed.filter.searchKey == "cafe")
    #expect(
      parsed.filter.queryItems == ["category": "Food", "month": "2025-11", "q": "Café"])
    let period = try #require(parsed.filter.period(in: kyivWinter))
    // November 2025 in UTC+2 starts at 2025-10-31T22:00Z.
    #expect(period.lower == ExpenseDate.parse("2025-10-31T22:00Z", timeZone: utc))
    #expect(period.upper == ExpenseDate.parse("2025-11-30T22:00Z", timeZone: utc))
  }

  @Test func dayRangeIncludesBothDays() throws {
    let parsed = ExpenseFilter.parse(from: "2025-02-27", to: "2025-02-28")
    #expect(parsed.errors.isEmpty)
    let period = try #require(parsed.filter.period(in: utc))
    #expect(period.lower == ExpenseDate.parse("2025-02-27", timeZone: utc))
    #expect(period.upper == ExpenseDate.parse("2025-03-01", timeZone: utc))
    let open = ExpenseFilter.parse(to: "2024-12-31").filter.period(in: utc)
    #expect(open?.lower == nil)
    #expect(open?.upper == ExpenseDate.parse("2025-01-01", timeZone: utc))
    #expect(ExpenseFilter.parse(from: "2024-12-31").filter.period(in: utc)?.upper == nil)
  }

  @Test func everyBadValueGetsItsMessageAndTheGoodOnesStay() {
    let parsed = ExpenseFilter.parse(
      category: "Rent", month: "11/2025", from: "2025-02-30", to: "yesterday", text: "tea")
    #expect(parsed.errors["category"] == ExpenseMessages.categoryUnknown)
    #expect(parsed.errors["month"] == "Enter the month as 2025-11.")
    #expect(parsed.errors["from"] == "Enter the day as 2025-11-22.")
    #expect(parsed.errors["to"] == "Enter the day as 2025-11-22.")
    #expect(parsed.filter == ExpenseFilter(text: "tea"))
  }

  @Test func reversedRangeAndMonthWithRangeAreRefused() {
    let reversed = ExpenseFilter.parse(from: "2025-03-02", to: "2025-03-01")
    #expect(reversed.errors == ["to": "The last day is before the first day."])
    #expect(reversed.filter.from == ExpenseDay("2025-03-02"))
    #expect(reversed.filter.to == nil)
    let both = ExpenseFilter.parse(month: "2025-03", from: "2025-03-01")
    #expect(both.errors == ["month": "Choose a month or a range of days, not both."])
    #expect(both.filter.month == nil)
    #expect(both.filter.from == ExpenseDay("2025-03-01"))
  }

  @Test func controlCharactersAreDroppedFromTitlesAndSearches() {
    #expect(Expense.normalizedTitle("Te\u{0}a\u{1B}[0m\n time") == "Tea[0m  time")
    #expect(ExpenseFilter.parse(text: "\u{0}tea\u{7F}").filter.text == "tea")
  }

  @Test func searchTextIsCappedAt100Characters() {
    let parsed = ExpenseFilter.parse(text: String(repeating: "é", count: 150))
    #expect(parsed.filter.text.count == 100)
  }

  @Test(arguments: ["2025-1-01", "20250101", "2025-13-01", "2023-02-29", "0000-01-01", "x"])
  func badDays(_ text: String) {
    #expect(ExpenseDay(text) == nil)
  }

  @Test func daysStepAcrossMonthsAndYears() {
    #expect(ExpenseDay("2024-02-28")?.next.description == "2024-02-29")
    #expect(ExpenseDay("2024-02-29")?.next.description == "2024-03-01")
    #expect(ExpenseDay("2025-12-31")?.next.description == "2026-01-01")
    #expect(ExpenseDay("9999-12-31")?.next.description == "9999-12-31")
    #expect(ExpenseDay("2025-11-22")?.formatted(locale: .deDE) == "22.11.2025")
    #expect(ExpenseDay("2025-01-31")! < ExpenseDay("2025-02-01")!)
  }
}

@Suite("ExpenseTotals from summed lines")
struct ExpenseTotalsLinesTests {
  @Test func linesFromADatabaseGiveTheSameTotalsAsTheRows() throws {
    let rows: [(ExpenseCategory, Decimal)] = [
      (.food, Decimal(string: "0.10")!), (.food, Decimal(string: "0.20")!),
      (.hobby, Decimal(string: "3")!), (.savings, Decimal(string: "99.99")!),
    ]
    let summed = ExpenseTotals(lines: [
      .init(category: .food, amount: Decimal(string: "0.30")!, count: 2),
      .init(category: .hobby, amount: 3, count: 1),
      .init(category: .savings, amount: Decimal(string: "99.99")!, count: 1),
    ])
    #expect(summed == ExpenseTotals(rows))
    #expect(summed.count == 4)
    #expect(summed.total == Decimal(string: "103.29")!)
  }

  @Test func repeatedCategoriesAddUp() {
    let totals = ExpenseTotals(lines: [
      .init(category: .food, amount: 1, count: 1), .init(category: .food, amount: 2, count: 3),
    ])
    #expect(totals.total(for: .food) == 3)
    #expect(totals.count(for: .food) == 4)
    #expect(totals.count == 4)
  }
}

@Suite("ExpenseDraft date switch")
struct ExpenseDraftDateSwitchTests {
  @Test func switchedOnWithoutADateIsAnError() {
    var draft = ExpenseDraft(title: "Tea", amount: "2", date: "")
    #expect((try? draft.validate(locale: .enUS).get())?.date == nil)
    draft.dateRequired = true
    guard case .failure(let errors) = draft.validate(locale: .enUS) else {
      Issue.record("an empty date with the switch on must be refused")
      return
    }
    #expect(errors.date == "Pick a date and time, or switch “Date (optional)” off.")
    draft.date = "2025-11-22T15:05"
    #expect((try? draft.validate(locale: .enUS).get())?.date != nil)
  }
}
