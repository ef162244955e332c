import Foundation
import Testing

@testable import BackofficeCore

@Suite("CSV writing")
struct CSVTextTests {
  @Test func documentHasAMarkAHeaderAndCRLFLines() {
    #expect(
      CSVText.document(header: ["a", "b"], rows: [["1", "x,y"], ["2", ""]])
        == "\u{FEFF}a,b\r\n1,\"x,y\"\r\n2,\r\n")
  }

  /// Every text survives export and import: formulas are guarded by one apostrophe, and text
  /// that already starts with apostrophes keeps all of them.
  @Test(arguments: ["=SUM(A1)", "+1", "-2", "@x", "'=x", "''@y", "'plain", "plain", "", "\tTab"])
  func formulaGuardRoundTrips(text: String) {
    let written = CSVText.guardFormula(text)
    #expect(CSVText.unguardFormula(written) == text)
    if let first = written.first { #expect(!"=+-@\t\r".contains(first)) }
  }

  @Test func expenseTitlesRoundTripThroughTheCSVRow() throws {
    for title in ["'=1+1", "=1+1", "Tea"] {
      let expense = Expense(title: title, amount: 1, category: .food, date: nil)
      let row = ExpenseCSVRow(expense: expense)
      let back = try row.validate().get()
      #expect(back.title == title)
    }
  }

  @Test func filenamesNameTheUTCDay() {
    #expect(
      CSVText.filename("expenses", on: Date(timeIntervalSince1970: 1_790_000_000))
        == "expenses-2026-09-21.csv")
  }
}
