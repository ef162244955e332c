import Foundation

/// Writing CSV files the way spreadsheet apps read them back: the one writer behind every
/// export (expenses, ad payments, products).
public enum CSVText {
  /// A header cell as imports compare it: without a byte-order mark (Excel puts one before the
  /// first), surrounding spaces or letter case.
  static func columnName(_ field: String) -> String {
    var scalars = field.unicodeScalars
    scalars.removeAll { $0 == "\u{FEFF}" }
    let text = String(scalars)
    guard let start = text.firstIndex(where: { !$0.isWhitespace }),
      let end = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(text[start...end]).lowercased()
  }

  /// A byte-order mark (so spreadsheet apps read any script as UTF-8), the header and one line
  /// per row, with CRLF line ends (RFC 4180).
  public static func document(header: [String], rows: [[String]]) -> String {
    var text = "\u{FEFF}" + line(header) + "\r\n"
    for row in rows { text += line(row) + "\r\n" }
    return text
  }

  public static func line(_ fields: [String]) -> String {
    fields.map(quoted).joined(separator: ",")
  }

  /// A field in quotes (inner quotes doubled) when it holds a comma, semicolon, quote or line
  /// break; as is otherwise.
  public static func quoted(_ field: String) -> String {
    let special = field.unicodeScalars.contains { ",;\"\r\n".unicodeScalars.contains($0) }
    guard special else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// Text a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
  /// carriage return, possibly after apostrophes) with one more leading `'`, the usual guard
  /// against CSV formula injection. `unguardFormula` removes exactly one again, so text
  /// exported and imported again comes back the same.
  public static func guardFormula(_ text: String) -> String {
    looksLikeFormula(text) ? "'" + text : text
  }

  public static func unguardFormula(_ text: String) -> String {
    text.hasPrefix("'") && looksLikeFormula(text) ? String(text.dropFirst()) : text
  }

  /// "expenses-2026-11-23.csv": `name`, the UTC day of `date`, `.csv`.
  public static func filename(_ name: String, on date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    let day = String(
      format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
    return "\(name)-\(day).csv"
  }

  private static func looksLikeFormula(_ text: String) -> Bool {
    guard let first = text.drop(while: { $0 == "'" }).first else { return false }
    return formulaStarts.contains(first)
  }

  private static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]
}
