import Foundation

/// How far an import has got and what it did, with the sentences the progress page, its script
/// and the result show.
public struct ImportReport: Hashable, Sendable {
  /// The rows of the file that can be imported (rows with errors are not counted).
  public var total: Int
  /// Rows looked at so far: imported plus already present.
  public var done: Int
  public var imported: Int
  /// Rows not imported because the account already had them.
  public var present: Int
  /// Rows with errors that were left out ("Skip rows with errors").
  public var invalid: Int
  /// The person asked to import rows the account already has as well.
  public var keepDuplicates: Bool
  /// What one row makes, e.g. `("expense", "expenses")`.
  public var noun: Noun

  public struct Noun: Hashable, Sendable {
    public var one: String
    public var many: String

    public init(one: String, many: String) {
      self.one = one
      self.many = many
    }

    public func count(_ value: Int) -> String { "\(value) \(value == 1 ? one : many)" }

    public static let expense = Noun(one: "expense", many: "expenses")
    public static let adPayment = Noun(one: "payment", many: "payments")
  }

  public init(
    total: Int, done: Int = 0, imported: Int = 0, present: Int = 0, invalid: Int = 0,
    keepDuplicates: Bool = false, noun: Noun
  ) {
    self.total = total
    self.done = done
    self.imported = imported
    self.present = present
    self.invalid = invalid
    self.keepDuplicates = keepDuplicates
    self.noun = noun
  }

  /// Whole percent done, rounded down, so 100 % appears only at the end.
  public var percent: Int {
    guard total > 0 else { return 100 }
    return min(100, done * 100 / total)
  }

  /// "1 500 of 150 000 rows checked: 1 400 imported, 100 already present."
  public var progress: String {
    var text = "\(done) of \(total) row\(total == 1 ? "" : "s") "
    text += keepDuplicates ? "done: \(imported) imported." : "checked: \(counts)."
    return text
  }

  /// The result: "3 expenses imported, 2 already present." and, when rows with errors were
  /// left out, "Skipped 1 row with errors."
  public var summary: String {
    var text: String
    if keepDuplicates {
      text =
        "\(noun.count(imported)) imported (rows already present were imported again, as asked)."
    } else {
      text = "\(noun.count(imported)) imported, \(present) already present."
    }
    if invalid > 0 {
      text += " Skipped \(invalid) row\(invalid == 1 ? "" : "s") with errors."
    }
    return text
  }

  private var counts: String { "\(imported) imported, \(present) already present" }
}

/// The sentences of imports that stop or cannot start, in one place.
public enum ImportMessages {
  /// Shown when an import stopped part-way. Each batch of rows is written together with the
  /// progress, so running it again picks up exactly where it stopped, and the check for rows
  /// the account already has would catch any row written twice anyway.
  public static func stopped(_ report: ImportReport) -> String {
    "The import stopped after \(report.done) of \(report.total) rows "
      + "(\(report.imported) imported). Run it again to finish: it carries on where it stopped, "
      + "and rows that are already in the account are recognised, so nothing is added twice."
  }

  /// The server went away while the import was running (it stopped sending progress).
  public static let serverStopped =
    "The server stopped while importing (it may have restarted)."

  /// A database error stopped the import.
  public static let writeFailed = "A write to the database failed."

  /// A second import of the same kind while one is running.
  public static let alreadyRunning =
    "An import is already running for this account. Wait until it has finished, then import "
    + "the file again."
}
