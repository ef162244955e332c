import Foundation
import Testing

@testable import BackofficeCore

private let utc = TimeZone(secondsFromGMT: 0)!
private let kyivWinter = TimeZone(secondsFromGMT: 2 * 3600)!
private let afternoon = Date(timeIntervalSince1970: 1_763_823_900)  // 2025-11-22 15:05 UTC

private func dec(_ text: String) -> Decimal {
  AmountParser.parseStrictDecimalString(text) ?? .nan
}

@Suite("ExpenseCSV")
struct ExpenseCSVTests {
  @Test func exportsCellsInHeaderOrder() {
    let expense = Expense(title: "Lunch", amount: dec("12.5"), category: .food, date: afternoon)
    #expect(ExpenseCSV.header == ["date", "title", "category", "amount"])
    #expect(
      ExpenseCSVRow(expense: expense, timeZone: kyivWinter).cells == [
        "2025-11-22T17:05:00+02:00", "Lunch", "Food", "12.50",
      ])
    #expect(
      ExpenseCSVRow(expense: expense).cells == ["2025-11-22T15:05:00Z", "Lunch", "Food", "12.50"])
    let undated = Expense(title: "Gift", amount: dec("1000"), category: .personal)
    #expect(ExpenseCSVRow(expense: undated).cells == ["", "Gift", "Personal", "1000.00"])
  }

  @Test(arguments: ["=SUM(A1:A9)", "+1", "-1", "@cmd", "=1+1"])
  func formulaLikeTitlesAreDefusedAndRestored(_ title: String) throws {
    let expense = Expense(title: title, amount: dec("1"), category: .hobby)
    let row = ExpenseCSVRow(expense: expense)
    #expect(row.title == "'" + title)
    #expect(try row.validate().get() == expense)
  }

  @Test func plainTitlesAndApostrophesStayAsTheyAre() throws {
    let row = ExpenseCSVRow(title: "'quoted'", category: "Food", amount: "1.00")
    #expect(try row.validate().get().title == "'quoted'")
    let expense = Expense(title: "Rock'n'roll", amount: dec("1"), category: .hobby)
    #expect(ExpenseCSVRow(expense: expense).title == "Rock'n'roll")
  }

  @Test func exportedRowsImportBackUnchanged() throws {
    let expenses = [
      Expense(title: "Lunch", amount: dec("12.5"), category: .food, date: afternoon),
      Expense(title: "Bus", amount: dec("0.01"), category: .transport),
      Expense(title: "Policy", amount: dec("999999.99"), category: .insurance, date: afternoon),
    ]
    let records = expenses.map { ExpenseCSVRow(expense: $0, timeZone: kyivWinter).cells }
    let result = try ExpenseCSV.read(header: ExpenseCSV.header, records: records).get()
    #expect(result.expenses == expenses)
    #expect(result.errors.isEmpty)
  }

  @Test func headersInAnyOrderCaseAndWithExtras() throws {
    let header = ["\u{FEFF}Amount", " TITLE ", "notes", "Category", "Date"]
    let records = [["3.20", "Tea", "green", "food", "2025-11-22"]]
    let result = try ExpenseCSV.read(header: header, records: records, timeZone: kyivWinter).get()
    #expect(
      result.expenses == [
        Expense(
          title: "Tea", amount: dec("3.2"), category: .food,
          date: Date(timeIntervalSince1970: 1_763_762_400))  // 2025-11-22 00:00 +02:00
      ])
  }

  @Test func missingColumnsAreReportedByName() {
    guard case .failure(let error) = ExpenseCSV.read(header: ["title", "sum"], records: []) else {
      Issue.record("a header without date, category and amount was accepted")
      return
    }
    #expect(
      error.message
        == "The first line must name the columns date, title, category and amount; "
        + "missing: date, category, amount.")
  }

  @Test func everyBadRowIsReportedWithItsSpreadsheetRowNumber() throws {
    let records: [[String]] = [
      ["2025-11-22T15:05:00Z", "Lunch", "Food", "12.50"],  // row 2
      ["", "", "", ""],  // row 3: blank, skipped
      ["", "Taxi", "", "9"],  // row 4: Personal by default
      ["22.11.2025", "Bad date", "Food", "1.00"],  // row 5
      ["", "Comma", "Food", "12,50"],  // row 6
      ["", "Three dec", "Food", "1.255"],  // row 7
      ["", "Zero", "Food", "0.00"],  // row 8
      ["", "Negative", "Food", "-3"],  // row 9
      ["", "", "Fun", ""],  // row 10: three problems
      ["", "A very long title indeed", "SAVINGS", "5"],  // row 11: cut to 15
      ["2025-02-29", "Leap?", "Food", "1"],  // row 12
      ["", "Short row"],  // row 13: missing cells
    ]
    let result = try ExpenseCSV.read(header: ExpenseCSV.header, records: records).get()
    #expect(result.expenses.map(\.title) == ["Lunch", "Taxi", "A very long tit"])
    #expect(result.expenses[1].category == .personal)
    #expect(result.expenses[2].category == .savings)
    #expect(
      result.errors.map(\.message) == [
        "Row 5: Enter the date as 2025-11-22 or 2025-11-22T15:05, or leave it empty.",
        "Row 6: Amount must be a number with a dot before the decimals, e.g. 12.50.",
        "Row 7: Amount can have at most 2 decimals, e.g. 12.50.",
        "Row 8: Amount must be more than 0, e.g. 12.50.",
        "Row 9: Amount must be more than 0, e.g. 12.50.",
        "Row 10: Title must be filled! Amount must be filled! Choose a category: Personal, "
          + "Hobby, Transport, Food, Insurance or Savings.",
        "Row 12: Enter the date as 2025-11-22 or 2025-11-22T15:05, or leave it empty.",
        "Row 13: Amount must be filled!",
      ])
    #expect(result.errors[5].errors.fields.keys.sorted() == ["amount", "category", "title"])
  }
}
