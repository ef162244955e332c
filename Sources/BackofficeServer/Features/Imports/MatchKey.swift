import Crypto
import Foundation

/// The stored form of a record's `matchFields` (see `Expense.matchFields`,
/// `AdPayment.matchFields`): a SHA-256 digest, so the indexed column stays short however long a
/// name or link is. Each field is written with its length first, so no two lists of fields give
/// the same bytes (`["ab", "c"]` and `["a", "bc"]` differ).
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
}
