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

  /// An upload as the shared import takes it: the rows that make entries, and one line per
  /// row that does not ("Row 3: Name cannot be blank.").
  @Sendable static func checked(_ data: Data) -> CSVImport.Checked<AdPayment> {
    CSVUpload.checked(
      data,
      words: CSVUpload.Words(
        notText: L("ad_payments.import.not_text"), notCSV: L("ad_payments.import.not_csv"),
        missingHeader: AdPaymentCSV.missingHeaderMessage,
        noRows: L("ad_payments.import.no_rows"),
        rowProblem: { L("ad_payments.import.row_problem", ["row": String($0), "message": $1]) }),
      columns: AdPaymentCSV.columns(inHeader:)
    ) { fields, columns in
      AdPaymentCSVRow(fields: fields, columns: columns).validate()
        .mapError { CSVUpload.RowProblem(message: $0.message) }
    }
  }
}
