import Foundation
import SwiftCSV

/// An uploaded CSV file split into its header and records: the one reader behind every import
/// (expenses, ad payments, products). What the cells mean is the area's business.
struct CSVUpload {
  var header: [String]
  var records: [[String]]

  /// Why a file could not be split into records at all.
  enum Failure: Error, Equatable {
    /// Not UTF-8 text.
    case notText
    /// Quotes that do not close.
    case notCSV
  }

  static func read(_ data: Data) -> Result<CSVUpload, Failure> {
    guard let text = String(data: data, encoding: .utf8) else { return .failure(.notText) }
    do {
      // Spreadsheets in many locales save with `;`; the header line tells which it is.
      let csv = try CSV<Enumerated>(
        string: text, delimiter: CSVDelimiter.guessed(string: text), loadColumns: false)
      return .success(CSVUpload(header: csv.header, records: csv.rows))
    } catch {
      return .failure(.notCSV)
    }
  }
}

extension CSVUpload {
  /// What an area's import says about a file it cannot use, in its own words.
  struct Words {
    var notText: String
    var notCSV: String
    var missingHeader: String
    var noRows: String
    /// "Row 3: …", for a row's number as a spreadsheet shows it (the header is row 1).
    var rowProblem: (_ row: Int, _ message: String) -> String
  }

  /// Why one row makes no record, in the area's words.
  struct RowProblem: Error {
    var message: String
  }

  /// Reads an upload for the shared import: a header `columns` can map, then every record
  /// that is not blank through `validate`. Blank lines (often one at the end) are not rows
  /// anyone meant to import; a file with only those has no rows.
  static func checked<Columns, Row>(
    _ data: Data, words: Words, columns: ([String]) -> Columns?,
    validate: ([String], Columns) -> Result<Row, RowProblem>
  ) -> CSVImport.Checked<Row> {
    let csv: CSVUpload
    switch read(data) {
    case .success(let upload): csv = upload
    case .failure(.notText): return .unreadable(words.notText)
    case .failure(.notCSV): return .unreadable(words.notCSV)
    }
    guard let mapping = columns(csv.header) else { return .unreadable(words.missingHeader) }
    var rows: [Row] = []
    var problems: [String] = []
    var seenRows = false
    for (index, fields) in csv.records.enumerated() {
      if fields.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) { continue }
      seenRows = true
      switch validate(fields, mapping) {
      case .success(let row): rows.append(row)
      case .failure(let problem): problems.append(words.rowProblem(index + 2, problem.message))
      }
    }
    guard seenRows else { return .unreadable(words.noRows) }
    return .rows(rows, problems: problems)
  }
}
