import Vapor

/// The highest page number any list accepts: far past any real list, and small enough that
/// `(page - 1) * per` can never overflow.
let maxPageNumber = 1_000_000

extension Request {
  /// A whole-number query parameter such as `page` or `per`: the fallback when it is absent,
  /// a message under its name in `problems` when it is not a number in `range`.
  func queryNumber(
    _ name: String, default fallback: Int, range: ClosedRange<Int>,
    into problems: inout [String: String], ukrainian: Bool = false
  ) -> Int {
    guard let raw = query[String.self, at: name] else { return fallback }
    guard let value = Int(raw), range.contains(value) else {
      let open = range.upperBound == Int.max
      problems[name] =
        switch (ukrainian, open) {
        case (false, true): "Use a whole number of \(range.lowerBound) or more."
        case (false, false): "Use a whole number from \(range.lowerBound) to \(range.upperBound)."
        case (true, true): "Ціле число від \(range.lowerBound)"
        case (true, false): "Ціле число від \(range.lowerBound) до \(range.upperBound)"
        }
      return fallback
    }
    return value
  }
}
