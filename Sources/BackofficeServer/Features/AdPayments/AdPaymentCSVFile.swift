import BackofficeCore
import Foundation

/// The CSV file of the ad payments area: writing the export and reading an upload. The
/// column mapping and the row rules are Core's (`AdPaymentCSV`, `AdPaymentCSVRow`).
enum AdPaymentCSVFile {
  // MARK: export

  /// The header (in the interface language) and one line per entry (`CSVText.document`).
  static func export(_ entries: [AdPayment]) -> String {
    CSVText.document(header: AdPaymentCSV.header, rows: entries.map(AdPaymentCSV.fields(for:)))
  }

  static func filename(on date: Date) -> String {
    CSVText.filename("ad-payments", on: date)
  }

  // MARK: import

  /// A read upload: the rows that make entries, and one line per row that does not.
  struct Parsed: Equatable {
    var payments: [AdPayment] = []
    /// "Row 3: Name cannot be blank.", numbered as a spreadsheet shows them (the header is
    /// row 1).
    var problems: [String] = []
  }

  /// Why a file could not be read at all.
  enum ReadError: Error, Equatable {
    case notText
    case notCSV
    case missingHeader
    case noRows

    var message: String {
      switch self {
      case .notText: L("ad_payments.import.not_text")
      case .notCSV: L("ad_payments.import.not_csv")
      case .missingHeader: AdPaymentCSV.missingHeaderMessage
      case .noRows: L("ad_payments.import.no_rows")
      }
    }
  }

  /// `read` as the shared import upload takes it.
  @Sendable static func checked(_ data: Data) -> CSVImport.Checked<AdPayment> {
    switch read(data) {
    case .failure(let error): .unreadable(error.message)
    case .success(let parsed): .rows(parsed.payments, problems: parsed.problems)
    }
  }

  static func read(_ data: Data) -> Result<Parsed, ReadError> {
    let csv: CSVUpload
    switch CSVUpload.read(data) {
    case .success(let upload): csv = upload
    case .failure(.notText): return .failure(.notText)
    case .failure(.notCSV): return .failure(.notCSV)
    }
    guard let columns = AdPaymentCSV.columns(inHeader: csv.header) else {
      return .failure(.missingHeader)
    }
    var parsed = Parsed()
    var seenRows = false
    for (index, fields) in csv.records.enumerated() {
      // Blank lines (often one at the end) are not rows anyone meant to import.
      if fields.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) { continue }
      seenRows = true
      switch AdPaymentCSVRow(fields: fields, columns: columns).validate() {
      case .success(let payment):
        parsed.payments.append(payment)
      case .failure(let error):
        parsed.problems.append(
          L("ad_payments.import.row_problem", ["row": String(index + 2), "message": error.message]))
      }
    }
    guard seenRows else { return .failure(.noRows) }
    return .success(parsed)
  }
}
