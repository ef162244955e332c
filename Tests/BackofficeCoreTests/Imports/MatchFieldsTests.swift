import Foundation
import Testing

@testable import BackofficeCore

private func dec(_ text: String) -> Decimal {
  AmountParser.parseStrictDecimalString(text) ?? .nan
}

private let afternoon = Date(timeIntervalSince1970: 1_763_823_900)  // 2025-11-22 15:05 UTC

@Suite("What makes two imported rows the same")
struct MatchFieldsTests {
  @Test func expenseFieldsAreTheExportedLineInUTC() {
    let expense = Expense(title: "Lunch", amount: dec("12.5"), category: .food, date: afternoon)
    #expect(expense.matchFields == ["2025-11-22T15:05:00Z", "Lunch", "Food", "12.50"])
    let undated = Expense(title: "=1+1", amount: dec("3"), category: .personal)
    // The stored title, not the apostrophe-guarded cell.
    #expect(undated.matchFields == ["", "=1+1", "Personal", "3.00"])
  }

  /// Whatever the file looked like, a row read back from an export matches the expense it was
  /// exported from: other time zones, formula titles, amounts without decimals.
  @Test(arguments: [
    Expense(title: "Tea, milk", amount: dec("3.5"), category: .food, date: afternoon),
    Expense(title: "=SUM(A1)", amount: dec("1"), category: .hobby),
    Expense(
      title: "Bus", amount: dec("999999999999999.99"), category: .transport,
      date: afternoon.addingTimeInterval(0.75)),
  ])
  func exportedRowsMatchTheirExpense(_ expense: Expense) throws {
    for zone in [ExpenseDate.utc, TimeZone(secondsFromGMT: -5 * 3600)!] {
      let row = ExpenseCSVRow(expense: expense, timeZone: zone)
      let read = try row.validate(timeZone: zone).get()
      #expect(read.matchFields == expense.matchFields)
    }
  }

  @Test func anyFieldThatDiffersMakesADifferentRow() {
    let base = Expense(title: "Tea", amount: dec("2"), category: .food, date: afternoon)
    var others: [Expense] = []
    var changed = base
    changed.title = "tea"
    others.append(changed)
    changed = base
    changed.amount = dec("2.01")
    others.append(changed)
    changed = base
    changed.category = .hobby
    others.append(changed)
    changed = base
    changed.date = afternoon.addingTimeInterval(1)
    others.append(changed)
    changed = base
    changed.date = nil
    others.append(changed)
    for other in others { #expect(other.matchFields != base.matchFields) }
    // Fractions of a second are not exported, so they do not tell rows apart.
    changed = base
    changed.date = afternoon.addingTimeInterval(0.5)
    #expect(changed.matchFields == base.matchFields)
  }

  @Test func adPaymentFieldsAreNameAndLinkAsStored() {
    let payment = AdPayment(name: "Spring", url: "https://example.com/a")
    #expect(payment.matchFields == ["Spring", "https://example.com/a"])
    #expect(
      AdPayment(name: "Spring", url: "https://EXAMPLE.com/a").matchFields != payment.matchFields)
  }
}
