import BackofficeCore
import Foundation

/// The CSV file of the product catalog: writing the export. The columns are Core's
/// (`ProductCSV`).
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
}
