import Foundation

/// The list order of expenses: newest date first, undated ones after all dated ones, and
/// among equal dates (or among the undated) the most recently created first.
///
/// In SQL the same order is `ORDER BY date IS NULL, date DESC, created_at DESC` (then the id,
/// for a stable page boundary).
public enum ExpenseOrder {
  /// True when an expense with `lhs` values is listed before one with `rhs` values.
  public static func precedes<Created: Comparable>(
    _ lhs: (date: Date?, created: Created), _ rhs: (date: Date?, created: Created)
  ) -> Bool {
    switch (lhs.date, rhs.date) {
    case (let left?, let right?) where left != right: return left > right
    case (.some, .none): return true
    case (.none, .some): return false
    default: return lhs.created > rhs.created
    }
  }

  /// `items` in list order; `created` is anything that grows with creation (a timestamp or a
  /// sequence number). Items equal in both keys keep their relative order.
  public static func sorted<Item, Created: Comparable>(
    _ items: some Sequence<Item>, date: (Item) -> Date?, created: (Item) -> Created
  ) -> [Item] {
    let keyed = items.enumerated().map { (offset: $0.offset, item: $0.element) }
    return
      keyed
      .sorted { a, b in
        let left = (date: date(a.item), created: created(a.item))
        let right = (date: date(b.item), created: created(b.item))
        if precedes(left, right) { return true }
        if precedes(right, left) { return false }
        return a.offset < b.offset
      }
      .map(\.item)
  }
}
