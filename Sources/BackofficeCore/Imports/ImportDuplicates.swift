import Foundation

/// Which rows of an imported file an account already has, counted as a multiset (as Actual and
/// Firefly III do): a file with two identical rows, into an account that holds one such row,
/// adds one; importing the same file a second time adds nothing.
///
/// The rule, row by row in file order: the n-th row of the file with a given key is added only
/// when the account holds fewer than n rows with that key. Counting the account as it is at that
/// moment (rows added earlier by the same import included) gives the same result as comparing
/// the whole file with the account before the import, and it stays right when an interrupted
/// import is run again: the rows it already added are simply counted as present.
public enum ImportDuplicates {
  /// For each key, its occurrence number in the sequence: 1 for the first row with that key,
  /// 2 for the second, and so on.
  public static func occurrences<Key: Hashable>(_ keys: some Sequence<Key>) -> [Int] {
    var seen: [Key: Int] = [:]
    return keys.map { key in
      let next = seen[key, default: 0] + 1
      seen[key] = next
      return next
    }
  }

  /// Whether to add each row, given its key, its occurrence number in the file and how many rows
  /// with each key the account holds now. Rows are decided in order; a row that is added counts
  /// as held for the rows after it.
  public static func rowsToAdd<Key: Hashable>(
    _ rows: some Sequence<(key: Key, occurrence: Int)>, present: [Key: Int]
  ) -> [Bool] {
    var held = present
    return rows.map { row in
      let count = held[row.key, default: 0]
      guard count < row.occurrence else { return false }
      held[row.key] = count + 1
      return true
    }
  }
}
