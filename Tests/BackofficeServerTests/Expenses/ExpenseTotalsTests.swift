import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// What a person types in each locale and the exact amount that must be stored.
struct TypedAmount: CustomTestStringConvertible, Sendable {
  var locale: String
  var typed: String
  var cents: Int64
  var testDescription: String { "\(locale) “\(typed)”" }
}

private let typedAmounts: [TypedAmount] = [
  .init(locale: "en-US", typed: "12.5", cents: 1250),
  .init(locale: "en-US", typed: "12.50", cents: 1250),
  .init(locale: "en-US", typed: "12,5", cents: 1250),
  .init(locale: "en-US", typed: "0.01", cents: 1),
  .init(locale: "en-US", typed: "1234", cents: 123_400),
  .init(locale: "uk-UA", typed: "12,5", cents: 1250),
  .init(locale: "uk-UA", typed: "12.05", cents: 1205),
  .init(locale: "uk-UA", typed: "999999999999999,99", cents: 99_999_999_999_999_999),
  .init(locale: "de-DE", typed: "12,5", cents: 1250),
  .init(locale: "de-DE", typed: "12,50", cents: 1250),
  .init(locale: "de-DE", typed: "12.5", cents: 1250),
  .init(locale: "de-DE", typed: "12,", cents: 1200),
  .init(locale: "fr-FR", typed: "12,5", cents: 1250),
  .init(locale: "fr-FR", typed: "0,10", cents: 10),
  .init(locale: "fr-FR", typed: " 7 ", cents: 700),
]

@Suite("Expense amounts typed in each locale")
struct ExpenseAmountLocaleTests {
  @Test(arguments: typedAmounts)
  func typedAmountIsStoredExactly(_ example: TypedAmount) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: example.locale)
      try await client.get("/expenses/new")
      let response = try await client.post(
        "/expenses", form: [("title", "Item"), ("amount", example.typed)])
      #expect(response.status == .seeOther, "\(response.body)")
      let record = try #require(try await ExpenseTable.query(on: t.db).first())
      #expect(record.amountCents == example.cents)
    }
  }

  /// "12.345" could be twelve thousand or twelve and a bit: refused, with the reason, in
  /// every locale, and nothing is saved.
  @Test(arguments: ["en-US", "uk-UA", "de-DE", "fr-FR"])
  func threeDigitsAfterOneSeparatorAreRefusedEverywhere(locale: String) async throws {
    try await withApp { t in
      let client = t.client()
      // The locale's formats, read in the English interface.
      let email = try await client.signUp(acceptLanguage: locale)
      try await client.useLanguage(.en, email: email)
      for typed in ["12.345", "12,345"] {
        try await client.get("/expenses/new")
        let response = try await client.post(
          "/expenses", form: [("title", "Item"), ("amount", typed)])
        #expect(response.status == .unprocessableEntity)
        #expect(
          response.body.contains(
            "It is unclear whether the separator groups thousands or starts 3 decimals: write "
              + "12345 without a separator"), "\(locale) \(typed)")
        #expect(response.expenseInput("amount") == typed)
      }
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }
}

@Suite("Expense totals")
struct ExpenseTotalsTests {
  /// Thousands of random amounts: the database's sums equal Core's exact sums to the cent,
  /// for the whole account and for every kind of filter.
  @Test func sqlTotalsEqualCoreTotalsOverManyRandomRows() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let store = ExpenseStore(db: t.db, workspaceID: try await t.workspaceID(of: email))
      var random = ExpenseRandom(state: 20_251_122)
      let base = ExpenseFixtures.date("2025-09-01T00:00:00Z")!
      let expenses = (0..<3_000).map { index -> Expense in
        let cents = Int64.random(in: 1...9_999_999, using: &random)
        let undated = Int.random(in: 0..<10, using: &random) == 0
        let seconds = Double(Int.random(in: 0..<(92 * 86_400), using: &random))
        return Expense(
          title: "Row \(index) \(["tea", "bus", "gift"][index % 3])",
          amount: MinorUnits(cents).decimal,
          category: ExpenseCategory.allCases.randomElement(using: &random)!,
          date: undated ? nil : base.addingTimeInterval(seconds))
      }
      try await store.insertAll(expenses, now: t.clock.now)

      // Another account's rows and deleted rows must not count.
      let other = t.client()
      let otherEmail = try await other.signUp()
      try await ExpenseStore(db: t.db, workspaceID: try await t.workspaceID(of: otherEmail))
        .insertAll(Array(expenses.prefix(100)), now: t.clock.now)
      let gone = try await store.create(
        Expense(title: "deleted tea", amount: 1_000, category: .food), now: t.clock.now)
      try await store.softDelete(gone, now: t.clock.now)

      let filters: [ExpenseFilter] = [
        ExpenseFilter(),
        ExpenseFilter(category: .food),
        ExpenseFilter(month: ExpenseMonth(year: 2025, month: 10)),
        ExpenseFilter(from: ExpenseDay("2025-09-15"), to: ExpenseDay("2025-11-03")),
        ExpenseFilter(category: .savings, month: ExpenseMonth(year: 2025, month: 11), text: "TEA"),
        ExpenseFilter(text: "gift"),
      ]
      for filter in filters {
        let expected = ExpenseTotals(
          expenses: expenses.filter { Self.matches($0, filter, recorded: t.clock.now) })
        let actual = try await store.totals(filter)
        #expect(actual == expected, "\(filter)")
        #expect(actual.count > 0, "\(filter) selects nothing; the test would prove little")
      }
      // The grand total printed to the cent.
      let all = try await store.totals(ExpenseFilter())
      let exact = expenses.reduce(Decimal(0)) { $0 + $1.amount }
      #expect(MoneyFormat.decimalString(all.total) == MoneyFormat.decimalString(exact))
      #expect(all.count == 3_000)
    }
  }

  /// The same filter in Swift, to compare against the SQL WHERE clause. An undated expense
  /// counts on the day it was `recorded`.
  static func matches(_ expense: Expense, _ filter: ExpenseFilter, recorded: Date) -> Bool {
    if let category = filter.category, expense.category != category { return false }
    if let period = filter.period(in: ExpenseDate.utc) {
      let date = expense.date ?? recorded
      if let lower = period.lower, date < lower { return false }
      if let upper = period.upper, date >= upper { return false }
    }
    if !filter.searchKey.isEmpty,
      !SearchNormalizer.normalize(expense.title).contains(filter.searchKey)
    {
      return false
    }
    return true
  }

  /// 10 000 ten-cent expenses make exactly 1 000.00, where binary floating point drifts.
  @Test func tenThousandDimesMakeExactlyOneThousand() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let store = ExpenseStore(db: t.db, workspaceID: try await t.workspaceID(of: email))
      let dime = ExpenseFixtures.decimal("0.10")
      try await store.insertAll(
        Array(repeating: Expense(title: "Dime", amount: dime, category: .savings), count: 10_000),
        now: t.clock.now)
      let totals = try await store.totals(ExpenseFilter())
      #expect(totals.total == 1_000)
      #expect(totals.total(for: .savings) == 1_000)
      #expect(totals.count(for: .savings) == 10_000)
      #expect((0..<10_000).reduce(0.0) { sum, _ in sum + 0.1 } != 1_000)
      let page = try await client.get("/expenses")
      #expect(page.firstMatch(#"id="expense-total">([^<]+)<"#) == "$1,000.00")
    }
  }

  @Test func largestAmountsSumWithoutOverflowOrRounding() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let store = ExpenseStore(db: t.db, workspaceID: try await t.workspaceID(of: email))
      let largest = ExpenseFixtures.decimal("999999999999999.99")
      try await store.insertAll(
        Array(repeating: Expense(title: "Huge", amount: largest, category: .hobby), count: 20),
        now: t.clock.now)
      let totals = try await store.totals(ExpenseFilter())
      #expect(MoneyFormat.decimalString(totals.total) == "19999999999999999.80")
      let summary = try await client.expensesAPI(
        .GET, "/api/v1/expenses/summary", token: try await client.createToken())
      #expect(try summary.json()["total"] as? String == "19999999999999999.80")
    }
  }

  @Test func likePatternsAreEscaped() {
    #expect(ContainsPattern.escaped(#"50%_off\"#) == #"50\%\_off\\"#)
  }
}

@Suite("Expense filters, totals and chart on the list")
struct ExpenseFilterPageTests {
  static func seed(_ client: TestClient, db: any Database) async throws {
    try await client.addExpense(
      title: "Café latte", amount: "4.20", category: "Food", date: "2025-11-03T08:00", db: db)
    try await client.addExpense(
      title: "Groceries", amount: "55.80", category: "Food", date: "2025-11-20T18:30", db: db)
    try await client.addExpense(
      title: "Train", amount: "30", category: "Transport", date: "2025-11-12T07:10", db: db)
    try await client.addExpense(
      title: "50% off shoes", amount: "40", category: "Personal", date: "2025-10-30T12:00", db: db)
    try await client.addExpense(title: "Piggy bank", amount: "100", category: "Savings", db: db)
  }

  @Test func filtersNarrowTheListAndItsTotals() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await Self.seed(client, db: t.db)

      let all = try await client.get("/expenses")
      #expect(all.expenseTitles.count == 5)
      #expect(all.firstMatch(#"id="expense-total">([^<]+)<"#) == "$230.00")
      #expect(all.body.contains("All expenses"))

      let food = try await client.get("/expenses?category=Food")
      #expect(food.expenseTitles == ["Groceries", "Café latte"])
      #expect(food.firstMatch(#"id="expense-total">([^<]+)<"#) == "$60.00")

      let november = try await client.get("/expenses?month=2025-11")
      #expect(november.expenseTitles == ["Groceries", "Train", "Café latte"])
      #expect(november.firstMatch(#"id="expense-total">([^<]+)<"#) == "$90.00")
      // Per-category lines for the filtered set.
      #expect(
        november.firstMatch(#"<tr data-category="Food">.*?<td class="num">([^<]+)</td></tr>"#)
          == "$60.00")
      #expect(
        november.firstMatch(#"<tr data-category="Transport">.*?<td class="num">(\d+)</td>"#)
          == "1")
      #expect(!november.body.contains(#"<tr data-category="Savings">"#))

      let range = try await client.get("/expenses?from=2025-10-30&to=2025-11-03")
      #expect(range.expenseTitles == ["Café latte", "50% off shoes"])

      // Text search ignores case and accents, and treats % literally.
      #expect(try await client.get("/expenses?q=CAFE").expenseTitles == ["Café latte"])
      #expect(try await client.get("/expenses?q=50%25").expenseTitles == ["50% off shoes"])
      #expect(try await client.get("/expenses?q=%25").expenseTitles == ["50% off shoes"])
      #expect(try await client.get("/expenses?q=_").expenseTitles.isEmpty)

      let none = try await client.get("/expenses?category=Hobby")
      #expect(none.body.contains("No matching expenses"))
      #expect(none.firstMatch(#"id="expense-total">([^<]+)<"#) == "$0.00")
    }
  }

  @Test func badFilterValuesAreNamedNextToTheirField() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await Self.seed(client, db: t.db)
      let page = try await client.get("/expenses?month=November&category=Food")
      #expect(page.status == .unprocessableEntity)
      #expect(page.body.contains("Enter the month as 2025-11."))
      #expect(page.expenseInput("month") == "November")
      // The good part of the filter still applies.
      #expect(page.expenseTitles == ["Groceries", "Café latte"])
      let both = try await client.get("/expenses?month=2025-11&from=2025-11-01")
      #expect(both.body.contains("Choose a month or a range of days, not both."))
      let reversed = try await client.get("/expenses?from=2025-11-02&to=2025-11-01")
      #expect(reversed.body.contains("The last day is before the first day."))
    }
  }

  @Test func chartShowsTheMonthPerCategoryAsAccessibleSVG() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "de-DE")
      try await Self.seed(client, db: t.db)
      let page = try await client.get("/expenses?month=2025-11&category=Food")
      #expect(page.body.contains(#"<h2 id="expense-chart-heading">November 2025</h2>"#))
      #expect(
        page.body.contains(
          #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 320 276" role="img""#))
      #expect(
        page.body.contains(
          "<title id=\"expense-chart-title\">Spending per category, November 2025</title>"))
      #expect(page.body.contains("Food: 60,00\u{00A0}€ (67%), 2 expenses."))
      // The chart covers the whole month, whatever the category filter: Food is the longest
      // bar, Transport half of it, October's and undated expenses are not in it.
      #expect(
        page.body.contains(#"width="320" height="14" rx="4" class="chart-bar" data-amount="60.00""#)
      )
      #expect(
        page.body.contains(#"width="160" height="14" rx="4" class="chart-bar" data-amount="30.00""#)
      )
      #expect(
        page.body.contains(#"width="0" height="14" rx="4" class="chart-bar" data-amount="0.00""#))
      #expect(page.body.contains("Transport: 30,00\u{00A0}€ (33%), 1 expense."))
      #expect(!page.body.contains(" style="))
      // Month steps keep the other filters.
      #expect(page.body.contains(#"href="/expenses?category=Food&amp;month=2025-10""#))
      #expect(page.body.contains(#"href="/expenses?category=Food&amp;month=2025-12""#))
    }
  }

  @Test func chartDefaultsToTheCurrentMonth() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let now = ExpenseMonth(containing: t.clock.now, timeZone: ExpenseDate.utc)
      let page = try await client.get("/expenses")
      #expect(page.body.contains(">\(now.title(locale: .enUS))</h2>"))
      #expect(page.body.contains("No expenses in this month."))
    }
  }

  /// An expense added without a date counts in the month it was recorded: list, totals, chart
  /// and the API's month filter; not in the month before.
  @Test func anUndatedExpenseCountsInTheMonthItWasRecorded() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addExpense(title: "No date", amount: "7", db: t.db)
      try await client.addExpense(
        title: "Long ago", amount: "9", date: "2020-01-01T10:00", db: t.db)
      let month = ExpenseMonth(containing: t.clock.now, timeZone: ExpenseDate.utc)
      let page = try await client.get("/expenses?month=\(month)")
      #expect(page.body.contains("No date"))
      #expect(!page.body.contains("Long ago"))
      #expect(!page.body.contains("No expenses in this month."))
      #expect(page.body.contains("chart-row"))
      let before = try await client.get("/expenses?month=\(try #require(month.previous))")
      #expect(!before.body.contains("No date"))
      let january = try await client.get("/expenses?month=2020-01")
      #expect(january.body.contains("Long ago") && !january.body.contains("No date"))
      let token = try await client.createToken()
      let api = try await client.send(
        .GET, "/api/v1/expenses?month=\(month)", headers: ["Authorization": "Bearer \(token)"])
      #expect(api.body.contains("No date") && !api.body.contains("Long ago"))
    }
  }

  @Test func homeCardShowsThisMonthsTotal() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "de-DE")
      let thisMonth = ExpenseDate.inputValue(t.clock.now, timeZone: ExpenseDate.utc)
      try await client.addExpense(title: "A", amount: "12,50", date: thisMonth, db: t.db)
      try await client.addExpense(title: "B", amount: "0,55", date: thisMonth, db: t.db)
      try await client.addExpense(title: "Old", amount: "99", date: "2020-01-01T10:00", db: t.db)
      try await client.addExpense(title: "Undated", amount: "7", db: t.db)
      let home = try await client.get("/")
      #expect(home.body.contains(#"id="home-expenses""#))
      // The undated one was recorded today, so it counts in this month; the old one does not.
      #expect(home.body.contains("<strong>20,05\u{00A0}€</strong> · 3 expenses"))
      let month = ExpenseMonth(containing: t.clock.now, timeZone: ExpenseDate.utc)
      #expect(home.body.contains(#"href="/expenses?month=\#(month)""#))
    }
  }
}
