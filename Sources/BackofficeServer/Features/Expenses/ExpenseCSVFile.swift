import BackofficeCore
import Foundation
import SwiftCSV

/// The expenses CSV file: `date,title,category,amount`, dot-decimal amounts. Core maps cells to
/// expenses (`ExpenseCSVRow`, `ExpenseCSV`); this file writes and reads the CSV syntax.
enum ExpenseCSVFile {
  // MARK: export

  /// A byte-order mark (so spreadsheet apps read any script as UTF-8), the header and one line
  /// per expense, with CRLF line ends (RFC 4180).
  static func export(_ expenses: [Expense]) -> String {
    var lines = [line(ExpenseCSV.header)]
    lines += expenses.map {
      line(ExpenseCSVRow(expense: $0, timeZone: ExpenseStore.timeZone).cells)
    }
    return "\u{FEFF}" + lines.map { $0 + "\r\n" }.joined()
  }

  static func line(_ fields: [String]) -> String {
    fields.map(quoted).joined(separator: ",")
  }

  /// A field in quotes (inner quotes doubled) when it holds a comma, semicolon, quote or line
  /// break; as is otherwise.
  static func quoted(_ field: String) -> String {
    let special = field.unicodeScalars.contains { ",;\"\r\n".unicodeScalars.contains($0) }
    guard special else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func filename(on date: Date) -> String {
    "expenses-\(ExpenseDate.iso8601(date).prefix(10)).csv"
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
      case .notText:
        "The file is not UTF-8 text. Save it as \u{201C}CSV UTF-8\u{201D} and try again."
      case .notCSV:
        "The file is not valid CSV: check the quotes (a quote inside a quoted field is "
          + "written twice)."
      case .header(let message): message
      case .noRows: "The file has no expenses below the header line."
      }
    }
  }

  /// The good rows and one error per bad row ("Row 3: …", counting the header as row 1).
  static func read(_ data: Data) -> Result<ExpenseCSV.Import, ReadError> {
    guard let text = String(data: data, encoding: .utf8) else { return .failure(.notText) }
    let csv: CSV<Enumerated>
    do {
      // Spreadsheets in many locales save with `;`; the header line tells which it is.
      csv = try CSV<Enumerated>(
        string: text, delimiter: CSVDelimiter.guessed(string: text), loadColumns: false)
    } catch {
      return .failure(.notCSV)
    }
    switch ExpenseCSV.read(header: csv.header, records: csv.rows, timeZone: ExpenseStore.timeZone)
    {
    case .failure(let error):
      return .failure(.header(error.message))
    case .success(let result):
      guard !result.expenses.isEmpty || !result.errors.isEmpty else { return .failure(.noRows) }
      return .success(result)
    }
  }
}
