import Foundation

/// The order of the ad payment list: by name, ignoring letter case and accents.
///
/// The key is `SearchNormalizer.normalize`, so `émile`, `Emile` and `EMILE` sort together among
/// the E's. Names with the same key are ordered by their exact text and then keep their input
/// order, so the list never reshuffles between page loads.
public enum AdPaymentOrdering {
  /// The text to sort by. A server can store it in an indexed column and `ORDER BY` it (then by
  /// the name, then by id) to get the same order from the database.
  public static func sortKey(_ name: String) -> String {
    SearchNormalizer.normalize(name)
  }

  /// `items` sorted by `name(item)` as described above.
  public static func sorted<Item>(_ items: [Item], name: (Item) -> String) -> [Item] {
    let keyed = items.enumerated().map { offset, item in
      (key: sortKey(name(item)), name: name(item), offset: offset, item: item)
    }
    let ordered = keyed.sorted { lhs, rhs in
      if lhs.key != rhs.key { return lhs.key < rhs.key }
      if lhs.name != rhs.name { return lhs.name < rhs.name }
      return lhs.offset < rhs.offset
    }
    return ordered.map(\.item)
  }

  /// Entries sorted by name as described above.
  public static func sorted(_ entries: [AdPayment]) -> [AdPayment] {
    sorted(entries, name: \.name)
  }
}
