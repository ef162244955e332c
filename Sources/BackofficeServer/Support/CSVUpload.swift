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
