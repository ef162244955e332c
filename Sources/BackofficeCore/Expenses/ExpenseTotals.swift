import Foundation

/// Exact sums of a set of expenses: the grand total and one total per category.
public struct ExpenseTotals: Hashable, Sendable {
  /// One category's share of the totals.
  public struct Line: Hashable, Sendable {
    public let category: ExpenseCategory
    public let amount: Decimal
    public let count: Int

    public init(category: ExpenseCategory, amount: Decimal, count: Int) {
      self.category = category
      self.amount = amount
      self.count = count
    }
  }

  public private(set) var total: Decimal = 0
  public private(set) var count = 0
  private var amounts: [ExpenseCategory: Decimal] = [:]
  private var counts: [ExpenseCategory: Int] = [:]

  public init() {}

  /// Sums `(category, amount)` pairs, e.g. rows read for the current filter.
  public init<S: Sequence>(_ items: S) where S.Element == (ExpenseCategory, Decimal) {
    for (category, amount) in items { add(amount, to: category) }
  }

  /// Totals already summed per category, e.g. by a database's `GROUP BY`; several lines of
  /// the same category add up.
  public init<S: Sequence>(lines: S) where S.Element == Line {
    for line in lines {
      total += line.amount
      count += line.count
      amounts[line.category, default: 0] += line.amount
      counts[line.category, default: 0] += line.count
    }
  }

  /// Sums the given expenses.
  public init<S: Sequence>(expenses: S) where S.Element == Expense {
    for expense in expenses { add(expense.amount, to: expense.category) }
  }

  public mutating func add(_ amount: Decimal, to category: ExpenseCategory) {
    total += amount
    count += 1
    amounts[category, default: 0] += amount
    counts[category, default: 0] += 1
  }

  /// The total of `category`, 0 when it has no expenses.
  public func total(for category: ExpenseCategory) -> Decimal { amounts[category] ?? 0 }

  /// Number of expenses in `category`.
  public func count(for category: ExpenseCategory) -> Int { counts[category] ?? 0 }

  /// Every category in the standard order, including empty ones (a fixed legend for charts).
  public var lines: [Line] {
    ExpenseCategory.allCases.map {
      Line(category: $0, amount: total(for: $0), count: count(for: $0))
    }
  }

  /// Only the categories that have expenses, in the standard order.
  public var nonEmptyLines: [Line] { lines.filter { $0.count > 0 } }

  /// `category`'s part of the total as a whole percentage (half up), 0 when the total is 0.
  /// The percentages are for labels; they need not add up to exactly 100.
  public func percent(of category: ExpenseCategory) -> Int {
    guard total > 0 else { return 0 }
    let share = total(for: category) * 100 / total
    return Int(MoneyFormat.decimalString(share, fractionDigits: 0)) ?? 0
  }
}
