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

  /// A read upload: the rows that make products, and one line per row that does not.
  struct Parsed: Equatable {
    var products: [Product] = []
    /// "Row 3: Product name cannot be blank.", numbered as a spreadsheet shows them (the
    /// header is row 1).
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
      case .notText: L("products.import.not_text")
      case .notCSV: L("products.import.not_csv")
      case .missingHeader: ProductCSV.missingHeaderMessage
      case .noRows: L("products.import.no_rows")
      }
    }
  }

  /// `read` as the shared import upload takes it.
  @Sendable static func checked(_ data: Data) -> CSVImport.Checked<Product> {
    switch read(data) {
    case .failure(let error): .unreadable(error.message)
    case .success(let parsed): .rows(parsed.products, problems: parsed.problems)
    }
  }

  static func read(_ data: Data) -> Result<Parsed, ReadError> {
    let csv: CSVUpload
    switch CSVUpload.read(data) {
    case .success(let upload): csv = upload
    case .failure(.notText): return .failure(.notText)
    case .failure(.notCSV): return .failure(.notCSV)
    }
    guard let columns = ProductCSV.columns(inHeader: csv.header) else {
      return .failure(.missingHeader)
    }
    var parsed = Parsed()
    var seenRows = false
    for (index, fields) in csv.records.enumerated() {
      // Blank lines (often one at the end) are not rows anyone meant to import.
      if fields.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) { continue }
      seenRows = true
      switch ProductCSVRow(fields: fields, columns: columns).validate() {
      case .success(let product):
        parsed.products.append(product)
      case .failure(let error):
        parsed.problems.append(
          L("products.import.row_problem", ["row": String(index + 2), "message": error.line]))
      }
    }
    guard seenRows else { return .failure(.noRows) }
    return .success(parsed)
  }
}
