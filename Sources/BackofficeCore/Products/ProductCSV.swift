import Foundation

/// The CSV form of the product catalog: a header in the interface language, one product per
/// row.
///
/// Reading and writing the CSV text itself is the server's job; this maps between CSV fields
/// and products. An import reads four columns (name, type, price, tax) with the rules of the
/// API (`ProductInput`); the other columns of an export (favourite, photo link, creation time)
/// are there for people and other tools, and are ignored when a file is read.
public enum ProductCSV {
  /// The columns of an export, in the order Backoffice writes them.
  public enum Column: CaseIterable, Hashable, Sendable {
    case name
    case type
    case price
    case tax
    case favorite
    case imageURL
    case createdAt

    /// The column's name in the interface language: "name", "назва".
    public var name: String {
      switch self {
      case .name: L("products.csv.name")
      case .type: L("products.csv.type")
      case .price: L("products.csv.price")
      case .tax: L("products.csv.tax")
      case .favorite: L("products.csv.favorite")
      case .imageURL: L("products.csv.image_url")
      case .createdAt: L("products.csv.created_at")
      }
    }

    /// The product field an import reads from this column; nil for the columns it ignores.
    public var field: ProductField? {
      switch self {
      case .name: .name
      case .type: .type
      case .price: .price
      case .tax: .tax
      case .favorite, .imageURL, .createdAt: nil
      }
    }

    /// The columns an import needs.
    public static var required: [Column] { allCases.filter { $0.field != nil } }
  }

  /// The header row Backoffice writes, in the interface language
  /// (`name,type,price,tax,favorite,image_url,created_at` in English).
  public static var header: [String] { Column.allCases.map(\.name) }

  /// Every spelling a needed column is recognised by on import, whatever the interface
  /// language: the field's own name (`name`, the API's), Swipe's (`product_name`), and the
  /// header of each language, so a file exported in one language imports in the other.
  /// Compared as `columns(inHeader:)` compares. Built once, for all languages at a time.
  static let accepted: [ProductField: Set<String>] = {
    var names: [ProductField: Set<String>] = [:]
    for field in ProductField.allCases {
      names[field] = [field.rawValue, field.swipeKey]
    }
    for language in UILanguage.allCases {
      UILanguage.$current.withValue(language) {
        for column in Column.required {
          guard let field = column.field else { continue }
          names[field, default: []].insert(CSVText.columnName(column.name))
        }
      }
    }
    return names
  }()

  /// Where the `name`, `type`, `price` and `tax` columns are in an imported header, or nil
  /// when any is missing. Each may be written in any interface language or as Swipe names it
  /// (`product_name`, `product_type`; see `accepted`). Matching ignores letter case,
  /// surrounding whitespace, a byte-order mark and extra columns, so an export (with its
  /// favourite, photo and date columns) or a spreadsheet's own file still imports.
  public static func columns(inHeader header: [String]) -> ProductCSVColumns? {
    let names = header.map(CSVText.columnName)
    func index(_ field: ProductField) -> Int? {
      let spellings = accepted[field] ?? []
      return names.firstIndex(where: spellings.contains)
    }
    guard let name = index(.name), let type = index(.type), let price = index(.price),
      let tax = index(.tax)
    else { return nil }
    return ProductCSVColumns(name: name, type: type, price: price, tax: tax)
  }

  /// Shown when `columns(inHeader:)` is nil.
  public static var missingHeaderMessage: String {
    L(
      "products.csv.missing_header",
      ["columns": Column.required.map(\.name).joined(separator: ",")])
  }

  /// The fields of one product for export, in `header` order: price and tax as dot-decimals
  /// with two decimals ("1694.92", "18.00"), the favourite mark as `true` or `false`, the
  /// photo's address or nothing, the creation time in ISO 8601 (UTC, to the second).
  ///
  /// Text that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab
  /// or a carriage return, possibly after apostrophes) gets one more leading `'`, the usual
  /// guard against CSV formula injection; `ProductCSVRow` removes exactly one again on import,
  /// so export → import gives back the same name and type.
  public static func fields(
    for product: Product, favorite: Bool, imageURL: String?, createdAt: Date?
  ) -> [String] {
    [
      CSVText.guardFormula(product.name), CSVText.guardFormula(product.type),
      decimal(product.price), decimal(product.tax), favorite ? "true" : "false",
      imageURL.map(CSVText.guardFormula) ?? "",
      createdAt.map { ExpenseDate.iso8601($0, timeZone: ExpenseDate.utc) } ?? "",
    ]
  }

  /// A price or tax as the file writes it: a dot and two decimals.
  static func decimal(_ value: Decimal) -> String {
    MoneyFormat.decimalString(value, fractionDigits: 2)
  }
}

/// Column positions of `name`, `type`, `price` and `tax` in an imported CSV file.
public struct ProductCSVColumns: Hashable, Sendable {
  public var name: Int
  public var type: Int
  public var price: Int
  public var tax: Int

  public init(name: Int, type: Int, price: Int, tax: Int) {
    self.name = name
    self.type = type
    self.price = price
    self.tax = tax
  }
}

/// One imported CSV row. Row numbers belong to the caller, who knows where the row came from.
public struct ProductCSVRow: Hashable, Sendable {
  public var name: String
  public var type: String
  public var price: String
  public var tax: String

  public init(name: String, type: String, price: String, tax: String) {
    self.name = name
    self.type = type
    self.price = price
    self.tax = tax
  }

  /// The row's fields picked by `columns`; a short row leaves the missing fields empty (and so
  /// fails validation with the usual messages).
  public init(fields: [String], columns: ProductCSVColumns) {
    func field(_ index: Int) -> String { fields.indices.contains(index) ? fields[index] : "" }
    name = field(columns.name)
    type = field(columns.type)
    price = field(columns.price)
    tax = field(columns.tax)
  }

  /// The product this row makes, or every problem with it in field order, with the messages
  /// of the API: price and tax are dot-decimals as the export writes them ("1694.92"; "5800"
  /// and "10.0" too), never grouped or with a decimal comma. A formula guard written by the
  /// export is removed from the name and the type.
  public func validate() -> Result<Product, ProductValidationError> {
    ProductInput(
      name: CSVText.unguardFormula(ProductRules.trimmed(name)),
      type: CSVText.unguardFormula(ProductRules.trimmed(type)),
      price: DecimalInput(price), tax: DecimalInput(tax)
    ).validate()
  }
}

extension ProductValidationError {
  /// Every message in field order, joined into one line for a row report ("Row 3: …").
  public var line: String { errors.map(\.message).joined(separator: " ") }
}

extension Product {
  /// What makes two products "the same" when a file is imported: the name and the type exactly
  /// as stored (trimmed; letter case and every other character count), the price and the tax
  /// with two decimals, as the export writes them. The photo, the favourite mark and the dates
  /// do not count, so an exported catalog imported again is recognised row by row.
  public var matchFields: [String] {
    [name, type, ProductCSV.decimal(price), ProductCSV.decimal(tax)]
  }
}
