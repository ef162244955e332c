import Foundation

/// The CSV form of ad payments: a `name,url` header, one entry per row.
///
/// Reading and writing the CSV text itself is the CSV library's job (the server's); this maps
/// between CSV fields and entries.
public enum AdPaymentCSV {
  /// The header row Backoffice writes, in the interface language (`name,url` in English), and
  /// the columns an import needs.
  public static var header: [String] { [L("ad_payments.csv.name"), L("ad_payments.csv.url")] }

  /// Every spelling a column is recognised by on import, whatever the interface language: the
  /// header of each language (so a file exported in one imports in the other) and `name`/`url`,
  /// which every earlier version wrote and read. Compared as `columns(inHeader:)` compares.
  static func accepted() -> (name: Set<String>, url: Set<String>) {
    var name: Set<String> = ["name"]
    var url: Set<String> = ["url"]
    for language in UILanguage.allCases {
      let written = UILanguage.$current.withValue(language) { header }
      name.insert(CSVText.columnName(written[0]))
      url.insert(CSVText.columnName(written[1]))
    }
    return (name, url)
  }

  /// Where the `name` and `url` columns are in an imported header, or nil when either is
  /// missing. Each column may be written in any interface language (`name`/`url`,
  /// `назва`/`посилання`, see `accepted()`). Matching ignores letter case, surrounding
  /// whitespace, a byte-order mark and extra columns, so a file saved by a spreadsheet
  /// (`Name,URL,Notes`) still imports.
  public static func columns(inHeader header: [String]) -> AdPaymentCSVColumns? {
    let names = header.map(CSVText.columnName)
    let accepted = accepted()
    guard let name = names.firstIndex(where: accepted.name.contains),
      let url = names.firstIndex(where: accepted.url.contains)
    else {
      return nil
    }
    return AdPaymentCSVColumns(name: name, url: url)
  }

  /// Shown when `columns(inHeader:)` is nil.
  public static var missingHeaderMessage: String {
    L("ad_payments.csv.missing_header", ["header": header.joined(separator: ",")])
  }

  /// The fields of `entry` for export, in `header` order.
  ///
  /// A name that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab
  /// or a carriage return, possibly after apostrophes) gets one more leading `'`, the usual
  /// guard against CSV formula injection; `AdPaymentCSVRow` removes exactly one again on import,
  /// so export → import gives back the same name.
  public static func fields(for entry: AdPayment) -> [String] {
    [CSVText.guardFormula(entry.name), CSVText.guardFormula(entry.url)]
  }
}

/// Column positions of `name` and `url` in an imported CSV file.
public struct AdPaymentCSVColumns: Hashable, Sendable {
  public var name: Int
  public var url: Int

  public init(name: Int, url: Int) {
    self.name = name
    self.url = url
  }
}

/// One imported CSV row. Row numbers belong to the caller, who knows where the row came from.
public struct AdPaymentCSVRow: Hashable, Sendable {
  public var name: String
  public var url: String

  public init(name: String, url: String) {
    self.name = name
    self.url = url
  }

  /// The row's fields picked by `columns`; a short row leaves the missing fields empty (and so
  /// fails validation with the usual messages).
  public init(fields: [String], columns: AdPaymentCSVColumns) {
    name = fields.indices.contains(columns.name) ? fields[columns.name] : ""
    url = fields.indices.contains(columns.url) ? fields[columns.url] : ""
  }

  /// The entry this row makes, or every problem with it (name first, then URL), with the same
  /// messages as the form.
  public func validate() -> Result<AdPayment, AdPaymentCSVRowError> {
    let draft = AdPaymentDraft(
      name: CSVText.unguardFormula(AdPaymentDraft.trimmed(name)), url: url)
    let errors = draft.errors
    guard errors.isEmpty else { return .failure(AdPaymentCSVRowError(errors: errors)) }
    return draft.validate().mapError { AdPaymentCSVRowError(errors: [$0]) }
  }
}

/// Everything wrong with one imported row.
public struct AdPaymentCSVRowError: Error, Hashable, Sendable {
  public var errors: [AdPaymentValidationError]

  public init(errors: [AdPaymentValidationError]) {
    self.errors = errors
  }

  /// The messages in order, e.g. `["Name cannot be blank."]`.
  public var messages: [String] { errors.map(\.message) }

  /// The messages joined into one line, for a row report ("Row 3: …").
  public var message: String { messages.joined(separator: " ") }
}

extension AdPayment {
  /// What makes two entries "the same" when a file is imported: the name and the link exactly
  /// as stored (trimmed; letter case and every other character count). A link written another
  /// way (`HTTPS://Example.com/` for `https://example.com`) is a different row here; the
  /// duplicate-link warning of the form (`AdPaymentURL.duplicateKey`) is looser on purpose.
  public var matchFields: [String] { [name, url] }
}
