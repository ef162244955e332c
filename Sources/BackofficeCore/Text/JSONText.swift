import Foundation

/// JSON written by hand, where the exact bytes matter (the Swipe-compatible bodies, the jar
/// request): `JSONEncoder` decides its own spacing and escapes `/`.
public enum JSONText {
  /// A JSON string literal: quotes, backslashes and control characters escaped (the short
  /// forms where JSON has them), everything else as is, `/` and non-ASCII included.
  public static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
