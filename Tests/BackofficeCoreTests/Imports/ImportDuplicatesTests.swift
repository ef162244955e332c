import Foundation
import Testing

@testable import BackofficeCore

@Suite("Import duplicates")
struct ImportDuplicatesTests {
  @Test func occurrencesNumberEachKeySeparately() {
    #expect(ImportDuplicates.occurrences(["a", "b", "a", "a", "c", "b"]) == [1, 1, 2, 3, 1, 2])
    #expect(ImportDuplicates.occurrences([String]()).isEmpty)
  }

  /// The review's case: two identical rows in the file, one such row in the account → one is
  /// added; the same file again → nothing.
  @Test func twoIdenticalRowsAgainstOneHeldAddOne() {
    let keys = ["tea", "tea", "bus"]
    let rows = zip(keys, ImportDuplicates.occurrences(keys)).map { (key: $0, occurrence: $1) }
    #expect(ImportDuplicates.rowsToAdd(rows, present: ["tea": 1]) == [false, true, true])
    #expect(
      ImportDuplicates.rowsToAdd(rows, present: ["tea": 2, "bus": 1]) == [false, false, false])
    #expect(ImportDuplicates.rowsToAdd(rows, present: [:]) == [true, true, true])
    #expect(ImportDuplicates.rowsToAdd(rows, present: ["tea": 5]) == [false, false, true])
  }

  /// Deciding batch by batch against the account as it grows (what the background import
  /// does) adds exactly what comparing the whole file with the account before the import
  /// says: for each key, the file's count minus the account's, never less than zero. A run
  /// again from any point (the rows written so far now in the account) adds nothing more.
  @Test(arguments: 0..<40)
  func batchByBatchEqualsTheWholeFileMultiset(seed: Int) {
    var random = SeededRandom(state: UInt64(seed) &+ 1)
    let alphabet = ["a", "b", "c", "d", "e"]
    let file = (0..<Int.random(in: 0...40, using: &random)).map { _ in
      alphabet.randomElement(using: &random) ?? "a"
    }
    var account: [String: Int] = [:]
    for key in alphabet { account[key] = Int.random(in: 0...3, using: &random) }
    let before = account

    let occurrences = ImportDuplicates.occurrences(file)
    let batch = Int.random(in: 1...7, using: &random)
    var added: [String: Int] = [:]
    var start = 0
    while start < file.count {
      let range = start..<min(file.count, start + batch)
      let present = Dictionary(
        uniqueKeysWithValues: Set(file[range]).map { ($0, account[$0] ?? 0) })
      let decisions = ImportDuplicates.rowsToAdd(
        range.map { (key: file[$0], occurrence: occurrences[$0]) }, present: present)
      for (index, add) in zip(range, decisions) where add {
        account[file[index], default: 0] += 1
        added[file[index], default: 0] += 1
      }
      start = range.upperBound
    }

    var fileCounts: [String: Int] = [:]
    for key in file { fileCounts[key, default: 0] += 1 }
    for key in alphabet {
      #expect(added[key, default: 0] == max(0, fileCounts[key, default: 0] - before[key]!))
    }
    // The same file once more adds nothing.
    let again = ImportDuplicates.rowsToAdd(
      zip(file, occurrences).map { (key: $0, occurrence: $1) }, present: account)
    #expect(!again.contains(true))
  }

  @Test func reportSentences() {
    var report = ImportReport(total: 150_000, noun: .expense)
    #expect(report.progress == "0 of 150000 rows checked: 0 imported, 0 already present.")
    #expect(report.percent == 0)
    report.done = 1500
    report.imported = 1400
    report.present = 100
    #expect(report.progress == "1500 of 150000 rows checked: 1400 imported, 100 already present.")
    #expect(report.percent == 1)
    report.done = 150_000
    report.imported = 149_900
    #expect(report.percent == 100)
    #expect(report.summary == "149900 expenses imported, 100 already present.")
    report.invalid = 1
    #expect(
      report.summary
        == "149900 expenses imported, 100 already present. Skipped 1 row with errors.")

    let one = ImportReport(
      total: 1, done: 1, imported: 1, keepDuplicates: true, noun: .adPayment)
    #expect(
      one.summary
        == "1 payment imported (rows already present were imported again, as asked).")
    #expect(one.progress == "1 of 1 row done: 1 imported.")
    #expect(ImportReport(total: 0, noun: .expense).percent == 100)
  }

  @Test func stoppedMessageSaysARunAgainIsSafe() {
    let report = ImportReport(total: 6, done: 2, imported: 2, noun: .expense)
    let message = ImportMessages.stopped(report)
    #expect(message.hasPrefix("The import stopped after 2 of 6 rows (2 imported)."))
    #expect(message.contains("nothing is added twice"))
  }
}

/// A small deterministic generator, so a failing case can be run again exactly.
private struct SeededRandom: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
