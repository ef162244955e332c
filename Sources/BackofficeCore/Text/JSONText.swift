import Foundation

/// JSON written by hand, where the exact bytes matter (the Swipe-compatible bodies, the jar
/// request): `JSONEncoder` decides its own spacing and escapes `/`.
public enum JSONText {
  /// A JSON string literal: quotes, backslashes and control characters escaped (the short
  /// forms where JSON has them), everything else as is, `/` and non-ASCII included.
  public static func string(_ text: String) -> String {
    var out: [UInt8] = []
    write(text, escapingSlashes: false, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `text` as a JSON string literal's UTF-8 bytes; with `escapingSlashes`, `/` is
  /// written `\/` as Foundation's `JSONEncoder` writes it. Works on bytes: every character it
  /// escapes is ASCII, and no byte of a multi-byte character is.
  public static func write(_ text: String, escapingSlashes: Bool, into out: inout [UInt8]) {
    let backslash = UInt8(ascii: "\\")
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""), backslash: out += [backslash, byte]
      case UInt8(ascii: "/") where escapingSlashes: out += [backslash, byte]
      case 0x0A: out += [backslash, UInt8(ascii: "n")]
      case 0x0D: out += [backslash, UInt8(ascii: "r")]
      case 0x09: out += [backslash, UInt8(ascii: "t")]
      case 0x08: out += [backslash, UInt8(ascii: "b")]
      case 0x0C: out += [backslash, UInt8(ascii: "f")]
      case 0..<0x20:
        out += [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0F)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
