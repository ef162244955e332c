import Crypto
import Foundation
import SQLKit

/// The stored form of a record's `matchFields` (see `Expense.matchFields`,
/// `AdPayment.matchFields`, `Product.matchFields`): a SHA-256 digest, so the indexed column
/// stays short however long a name or link is. Each field is written with its length first, so
/// no two lists of fields give the same bytes (`["ab", "c"]` and `["a", "bc"]` differ).
enum MatchKey {
  static func make(_ fields: [String]) -> String {
    var bytes: [UInt8] = []
    for field in fields {
      let utf8 = Array(field.utf8)
      bytes += Array("\(utf8.count):".utf8) + utf8
    }
    return SHA256.hash(data: bytes).map { byte in
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }.joined()
  }

  /// How many of the account's rows in `table` have each of `keys` (its `match_key` column),
  /// for the imports' "already present". `liveOnly` leaves out rows with a `deleted_at`.
  static func counts(
    _ keys: Set<String>, in table: String, workspaceID: UUID, liveOnly: Bool = false,
    on sql: any SQLDatabase
  ) async throws -> [String: Int] {
    guard !keys.isEmpty else { return [:] }
    var query = sql.select()
      .column("match_key")
      .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "held")
      .from(table)
      .where("workspace_id", .equal, workspaceID)
    if liveOnly { query = query.where("deleted_at", .is, SQLLiteral.null) }
    let rows = try await query.where("match_key", .in, keys.sorted()).groupBy("match_key").all()
    var counts: [String: Int] = [:]
    for row in rows {
      counts[try row.decode(column: "match_key", as: String.self)] =
        try row.decode(column: "held", as: Int.self)
    }
    return counts
  }
}
