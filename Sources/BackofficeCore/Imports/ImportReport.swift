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
  /// What one row makes: an expense, an ad payment, a product.
  public var noun: Noun

  public enum Noun: Hashable, Sendable {
    case expense
    case adPayment
    case product
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

  /// "1500 of 150000 rows checked: 1400 imported, 100 already present."
  public var progress: String {
    let values = [
      "done": String(done), "imported": String(imported), "present": String(present),
    ]
    return keepDuplicates
      ? L("imports.progress.done", count: total, values)
      : L("imports.progress.checked", count: total, values)
  }

  /// The result: "3 expenses imported, 2 already present." and, when rows with errors were
  /// left out, "Skipped 1 row with errors."
  public var summary: String {
    let present = ["present": String(self.present)]
    var text: String
    switch (noun, keepDuplicates) {
    case (.expense, false): text = L("imports.summary.expenses", count: imported, present)
    case (.expense, true): text = L("imports.summary.expenses_again", count: imported)
    case (.adPayment, false): text = L("imports.summary.ad_payments", count: imported, present)
    case (.adPayment, true): text = L("imports.summary.ad_payments_again", count: imported)
    case (.product, false): text = L("imports.summary.products", count: imported, present)
    case (.product, true): text = L("imports.summary.products_again", count: imported)
    }
    if invalid > 0 {
      text += " " + L("imports.summary.skipped", count: invalid)
    }
    return text
  }
}

/// The sentences of imports that stop or cannot start, in one place, in the interface language.
public enum ImportMessages {
  /// Shown when an import stopped part-way. Each batch of rows is written together with the
  /// progress, so running it again picks up exactly where it stopped, and the check for rows
  /// the account already has would catch any row written twice anyway.
  public static func stopped(_ report: ImportReport) -> String {
    L(
      "imports.stopped",
      [
        "done": String(report.done), "total": String(report.total),
        "imported": String(report.imported),
      ])
  }

  /// The server went away while the import was running (it stopped sending progress).
  public static var serverStopped: String { L("imports.server_stopped") }

  /// A database error stopped the import.
  public static var writeFailed: String { L("imports.write_failed") }

  /// A second import of the same kind while one is running.
  public static var alreadyRunning: String { L("imports.already_running") }

  /// A stopped job's stored reason in the interface language: a `StopReason` code, worded for
  /// the reader; text stored by earlier versions as it is.
  public static func localized(stored text: String) -> String {
    StopReason(rawValue: text)?.message ?? text
  }

  /// Why a job stopped, as the job stores it: a code, not words, since the background run
  /// that records it has no reader and so no language.
  public enum StopReason: String, Sendable {
    case serverStopped = "server_stopped"
    case writeFailed = "write_failed"

    public var message: String {
      switch self {
      case .serverStopped: ImportMessages.serverStopped
      case .writeFailed: ImportMessages.writeFailed
      }
    }
  }
}
