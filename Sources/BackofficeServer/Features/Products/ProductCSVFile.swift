import BackofficeCore
import Foundation

/// The CSV file of the product catalog: writing the export and reading an upload. The column
/// mapping and the row rules are Core's (`ProductCSV`, `ProductCSVRow`).
enum ProductCSVFile {
  // MARK: export

  /// One product as the export writes it: its values and what only storage knows.
  struct Line {
    var product: Product
    var favorite: Bool
    /// The photo's absolute address, nil without a photo.
    var imageURL: String?
    var createdAt: Date?
  }

  /// The header (in the interface language) and one line per product (`CSVText.document`).
  static func export(_ lines: [Line]) -> String {
    CSVText.document(
      header: ProductCSV.header,
      rows: lines.map {
        ProductCSV.fields(
          for: $0.product, favorite: $0.favorite, imageURL: $0.imageURL, createdAt: $0.createdAt)
      })
  }

  static func filename(on date: Date) -> String {
    CSVText.filename("products", on: date)
  }

  // MARK: import

  /// An upload as the shared import takes it: the rows that make products, and one line per
  /// row that does not ("Row 3: Product name cannot be blank.").
  @Sendable static func checked(_ data: Data) -> CSVImport.Checked<Product> {
    CSVUpload.checked(
      data,
      words: CSVUpload.Words(
        notText: L("products.import.not_text"), notCSV: L("products.import.not_csv"),
        missingHeader: ProductCSV.missingHeaderMessage, noRows: L("products.import.no_rows"),
        rowProblem: { L("products.import.row_problem", ["row": String($0), "message": $1]) }),
      columns: ProductCSV.columns(inHeader:)
    ) { fields, columns in
      ProductCSVRow(fields: fields, columns: columns).validate()
        .mapError { CSVUpload.RowProblem(message: $0.line) }
    }
  }
}
