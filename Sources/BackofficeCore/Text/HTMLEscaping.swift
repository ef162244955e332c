/// The one escaper for HTML, used by the pages and by the plan e-mail alike. (SVG posters have
/// their own, `SVGText`: XML allows fewer characters and writes `&apos;`.)
public enum HTMLEscaping {
  /// For element content: `&`, `<` and `>`.
  public static func text(_ string: String) -> String {
    escape(string, quotes: false)
  }

  /// For attribute values (and anywhere else): also `"` and `'`.
  public static func attribute(_ string: String) -> String {
    escape(string, quotes: true)
  }

  /// Works on UTF-8 bytes: the characters it replaces are ASCII, and no byte of a multi-byte
  /// character is. Text without any of them (most text) is returned as it is, uncopied.
  private static func escape(_ string: String, quotes: Bool) -> String {
    func special(_ byte: UInt8) -> Bool {
      switch byte {
      case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): true
      case UInt8(ascii: "\""), UInt8(ascii: "'"): quotes
      default: false
      }
    }
    let utf8 = string.utf8
    // A page escapes thousands of values: scan the bytes in place where the string keeps them
    // in one piece (native strings do).
    let needed =
      utf8.withContiguousStorageIfAvailable { bytes in bytes.contains(where: special) }
      ?? utf8.contains(where: special)
    guard needed else { return string }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count + 16)
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "&"): out += Array("&amp;".utf8)
      case UInt8(ascii: "<"): out += Array("&lt;".utf8)
      case UInt8(ascii: ">"): out += Array("&gt;".utf8)
      case UInt8(ascii: "\"") where quotes: out += Array("&quot;".utf8)
      case UInt8(ascii: "'") where quotes: out += Array("&#39;".utf8)
      default: out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
