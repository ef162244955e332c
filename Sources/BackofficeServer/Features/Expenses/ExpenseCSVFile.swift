import BackofficeCore
import Foundation

/// The expenses CSV file: `date,title,category,amount,fundraiser`, dot-decimal amounts. Core maps
/// cells to expenses (`ExpenseCSVRow`, `ExpenseCSV`); this file writes and reads the CSV syntax.
/// The fundraiser column names the fundraiser's purpose for the reader; an import ignores it
/// (purposes are not unique, so a name cannot say which fundraiser was meant).
enum ExpenseCSVFile {
  // MARK: export

  /// The header and one line per expense (`CSVText.document`). The header and the category
  /// names are in the interface language, like the page the file comes from; an import reads
  /// both languages.
  static func export(_ expenses: [Expense], fundraisers: [String] = []) -> String {
    CSVText.document(
      header: ExpenseCSV.header + [L("expenses.csv.fundraiser")],
      rows: expenses.enumerated().map { index, expense in
        var row = ExpenseCSVRow(expense: expense, timeZone: ExpenseStore.timeZone)
        row.category = expense.category.displayName
        let fundraiser = index < fundraisers.count ? fundraisers[index] : ""
        return row.cells + [CSVText.guardFormula(fundraiser)]
      })
  }

  static func filename(on date: Date) -> String {
    CSVText.filename("expenses", on: date)
  }

  // MARK: import

  /// Why a file could not be read at all.
  enum ReadError: Error, Equatable {
    case notText
    case notCSV
    case header(String)
    case noRows

    var message: String {
      switch self {
      case .notText: L("expenses.csv.not_text")
      case .notCSV: L("expenses.csv.not_csv")
      case .header(let message): message
      case .noRows: L("expenses.csv.no_rows")
      }
    }
  }

  /// `read` as the shared import upload takes it.
  @Sendable static func checked(_ data: Data) -> CSVImport.Checked<Expense> {
    switch read(data) {
    case .failure(let error): .unreadable(error.message)
    case .success(let result): .rows(result.expenses, problems: result.errors.map(\.message))
    }
  }

  /// The good rows and one error per bad row ("Row 3: …", counting the header as row 1).
  static func read(_ data: Data) -> Result<ExpenseCSV.Import, ReadError> {
    let csv: CSVUpload
    switch CSVUpload.read(data) {
    case .success(let upload): csv = upload
    case .failure(.notText): return .failure(.notText)
    case .failure(.notCSV): return .failure(.notCSV)
    }
    switch ExpenseCSV.read(
      header: csv.header, records: csv.records, timeZone: ExpenseStore.timeZone)
    {
    case .failure(let error):
      return .failure(.header(error.message))
    case .success(let result):
      guard !result.expenses.isEmpty || !result.errors.isEmpty else { return .failure(.noRows) }
      return .success(result)
    }
  }
}
