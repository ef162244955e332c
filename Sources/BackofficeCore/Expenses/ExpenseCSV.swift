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
  /// empty), the title, the category label and a dot-decimal amount with two decimals.
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
  /// The header Backoffice writes and expects.
  public static let header = ["date", "title", "category", "amount"]

  /// A problem on one line. `line` is the spreadsheet row number: the header is row 1, so the
  /// first record is row 2.
  public struct RowError: Hashable, Sendable, Error {
    public let line: Int
    public let errors: ExpenseValidationErrors

    /// "Row 3: Title must be filled! Amount must be filled!"
    public var message: String { "Row \(line): " + errors.messages.joined(separator: " ") }
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
  /// columns.
  public static func columns(header cells: [String]) -> Result<Columns, HeaderError> {
    let names = cells.map {
      $0.replacingOccurrences(of: "\u{FEFF}", with: "")
        .trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
    let found = header.compactMap { names.firstIndex(of: $0) }
    let missing = header.filter { !names.contains($0) }
    guard missing.isEmpty, found.count == header.count else {
      return .failure(
        HeaderError(
          message: "The first line must name the columns date, title, category and amount; "
            + "missing: \(missing.joined(separator: ", "))."))
    }
    return .success(Columns(date: found[0], title: found[1], category: found[2], amount: found[3]))
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
