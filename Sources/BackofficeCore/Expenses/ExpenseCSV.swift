import Foundation

/// One line of an expenses CSV file (`date,title,category,amount`), as text.
///
/// Reading and writing the CSV syntax itself (quotes, commas, line breaks) is the CSV
/// library's job in the server; this type only maps cells to and from expenses.
public struct ExpenseCSVRow: Hashable, Sendable {
  public var date: String
  public var title: String
  public var category: String
  public var amount: String

  public init(date: String = "", title: String, category: String, amount: String) {
    self.date = date
    self.title = title
    self.category = category
    self.amount = amount
  }

  /// The export form of `expense`: ISO 8601 date-time with the offset of `timeZone` (or
  /// empty), the title, the category label and a dot-decimal amount with two decimals. (The
  /// file the server exports shows the category's name in the interface language instead;
  /// `validate` reads either.)
  ///
  /// A title that a spreadsheet would run as a formula gets a leading apostrophe
  /// (`CSVText.guardFormula`), which `validate` removes again on import.
  public init(expense: Expense, timeZone: TimeZone = ExpenseDate.utc) {
    date = expense.date.map { ExpenseDate.iso8601($0, timeZone: timeZone) } ?? ""
    title = CSVText.guardFormula(expense.title)
    category = expense.category.rawValue
    amount = MoneyFormat.decimalString(expense.amount, fractionDigits: Expense.maxFractionDigits)
  }

  /// The cells in header order.
  public var cells: [String] { [date, title, category, amount] }

  /// The expense in this row, or the problems found. An empty category means Personal; the
  /// amount must use a dot ("12.50"); dates without an offset are read in `timeZone`.
  public func validate(timeZone: TimeZone = ExpenseDate.utc) -> Result<
    Expense, ExpenseValidationErrors
  > {
    let title = CSVText.unguardFormula(self.title.trimmingCharacters(in: .whitespaces))
    let draft = ExpenseDraft(title: title, amount: amount, category: category, date: date)
    return draft.validate(amountSyntax: .decimalString, timeZone: timeZone)
  }

  /// True when every cell is blank (such lines are skipped on import).
  public var isBlank: Bool {
    cells.allSatisfy { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
  }
}

/// Maps a CSV file's records to expenses with one report per bad line.
public enum ExpenseCSV {
  /// The columns of an expenses file, in the order Backoffice writes them.
  public enum Column: CaseIterable, Hashable, Sendable {
    case date
    case title
    case category
    case amount

    /// The column's name in the interface language: "date", "дата".
    public var name: String {
      switch self {
      case .date: L("expenses.csv.date")
      case .title: L("expenses.csv.title")
      case .category: L("expenses.csv.category")
      case .amount: L("expenses.csv.amount")
      }
    }
  }

  /// The header Backoffice writes, in the interface language ("date,title,category,amount").
  public static var header: [String] { Column.allCases.map(\.name) }

  /// The header names read as each column, whatever the account's language: the English
  /// names Backoffice has always written, the Ukrainian ones, and the name in every interface
  /// language, so a file exported in one language imports in an account using the other. The
  /// first two are kept here, not only in the catalogue, so a file that was once accepted
  /// stays accepted. Built once, for all languages at a time.
  static let acceptedNames: [Column: Set<String>] = {
    var names: [Column: Set<String>] = [
      .date: ["date", "дата"],
      .title: ["title", "назва"],
      .category: ["category", "категорія"],
      .amount: ["amount", "сума"],
    ]
    for language in UILanguage.allCases {
      UILanguage.$current.withValue(language) {
        for column in Column.allCases {
          names[column, default: []].insert(normalizedName(column.name))
        }
      }
    }
    return names
  }()

  /// A header cell as it is compared: no byte-order mark, no surrounding spaces, lower case.
  static func normalizedName(_ cell: String) -> String {
    cell.replacingOccurrences(of: "\u{FEFF}", with: "")
      .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  /// A problem on one line. `line` is the spreadsheet row number: the header is row 1, so the
  /// first record is row 2.
  public struct RowError: Hashable, Sendable, Error {
    public let line: Int
    public let errors: ExpenseValidationErrors

    /// "Row 3: Title must be filled! Amount must be filled!"
    public var message: String {
      L(
        "expenses.csv.row_error",
        ["line": String(line), "messages": errors.messages.joined(separator: " ")])
    }
  }

  /// The outcome of reading a file: the good rows and one error per bad row.
  public struct Import: Hashable, Sendable {
    public var expenses: [Expense] = []
    public var errors: [RowError] = []
  }

  /// Why a file cannot be read at all.
  public struct HeaderError: Error, Hashable, Sendable {
    public let message: String
  }

  /// Column positions found in a header row.
  public struct Columns: Hashable, Sendable {
    let date: Int
    let title: Int
    let category: Int
    let amount: Int

    /// The row at these positions; missing cells are empty.
    public func row(_ cells: [String]) -> ExpenseCSVRow {
      func cell(_ index: Int) -> String { index < cells.count ? cells[index] : "" }
      return ExpenseCSVRow(
        date: cell(date), title: cell(title), category: cell(category), amount: cell(amount))
    }
  }

  /// Finds the four columns in any order, ignoring case, spaces, a byte-order mark and extra
  /// columns; each may be named in English or Ukrainian (`acceptedNames`).
  public static func columns(header cells: [String]) -> Result<Columns, HeaderError> {
    let names = cells.map(normalizedName)
    var found: [Column: Int] = [:]
    for column in Column.allCases {
      let accepted = acceptedNames[column] ?? []
      if let index = names.firstIndex(where: { accepted.contains($0) }) { found[column] = index }
    }
    guard let date = found[.date], let title = found[.title], let category = found[.category],
      let amount = found[.amount]
    else {
      let missing = Column.allCases.filter { found[$0] == nil }.map(\.name)
      return .failure(
        HeaderError(
          message: L(
            "expenses.csv.header_missing",
            [
              "date": Column.date.name, "title": Column.title.name,
              "category": Column.category.name, "amount": Column.amount.name,
              "missing": missing.joined(separator: ", "),
            ])))
    }
    return .success(Columns(date: date, title: title, category: category, amount: amount))
  }

  /// Validates every record after the header; blank lines are skipped.
  public static func read(
    header: [String], records: [[String]], timeZone: TimeZone = ExpenseDate.utc
  ) -> Result<Import, HeaderError> {
    columns(header: header).map { columns in
      var result = Import()
      for (index, cells) in records.enumerated() {
        let row = columns.row(cells)
        if row.isBlank { continue }
        switch row.validate(timeZone: timeZone) {
        case .success(let expense): result.expenses.append(expense)
        case .failure(let errors): result.errors.append(RowError(line: index + 2, errors: errors))
        }
      }
      return result
    }
  }
}

extension Expense {
  /// What makes two expenses "the same" when a file is imported: exactly the fields an
  /// exported CSV line carries, written the way the export writes them — the date and time in
  /// UTC to the second (fractions of a second are not exported) or nothing for an undated
  /// expense, the title as stored (after trimming and cutting to 15 characters; letter case
  /// counts), the category label and the amount with two decimals. Two expenses match exactly
  /// when the export would write the same line for both, so an exported file imported again is
  /// recognised row by row.
  public var matchFields: [String] {
    let row = ExpenseCSVRow(expense: self, timeZone: ExpenseDate.utc)
    return [row.date, title, row.category, row.amount]
  }
}
