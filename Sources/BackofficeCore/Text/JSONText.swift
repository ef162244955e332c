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
    var text = text
    text.withUTF8 { bytes in
      out.reserveCapacity(out.count + bytes.count + 2)
      out.append(UInt8(ascii: "\""))
      // Runs of bytes that need no escape are copied at once.
      var start = 0
      for (index, byte) in bytes.enumerated() where needsEscape(byte, escapingSlashes) {
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        escape(byte, into: &out)
        start = index + 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
      out.append(UInt8(ascii: "\""))
    }
  }

  /// `bytes` (UTF-8) as they read inside a JSON string literal, without the quotes.
  public static func escaped(_ bytes: [UInt8], escapingSlashes: Bool) -> [UInt8] {
    guard bytes.contains(where: { needsEscape($0, escapingSlashes) }) else { return bytes }
    var out: [UInt8] = []
    for byte in bytes {
      if needsEscape(byte, escapingSlashes) { escape(byte, into: &out) } else { out.append(byte) }
    }
    return out
  }

  private static func needsEscape(_ byte: UInt8, _ escapingSlashes: Bool) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
      || (escapingSlashes && byte == UInt8(ascii: "/"))
  }

  private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
    let backslash = UInt8(ascii: "\\")
    switch byte {
    case 0x0A: out += [backslash, UInt8(ascii: "n")]
    case 0x0D: out += [backslash, UInt8(ascii: "r")]
    case 0x09: out += [backslash, UInt8(ascii: "t")]
    case 0x08: out += [backslash, UInt8(ascii: "b")]
    case 0x0C: out += [backslash, UInt8(ascii: "f")]
    case 0..<0x20:
      out += [backslash, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
      out.append(hexDigits[Int(byte >> 4)])
      out.append(hexDigits[Int(byte & 0x0F)])
    default: out += [backslash, byte]
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
}
