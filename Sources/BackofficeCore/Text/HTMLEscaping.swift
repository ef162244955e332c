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

  /// `string` escaped (with the quotes too when `quotes`) at the end of `out`, in one pass over
  /// its UTF-8 bytes: how pages write text and attribute values without an escaped copy.
  public static func write(_ string: String, quotes: Bool, into out: inout [UInt8]) {
    var string = string
    string.withUTF8 { bytes in
      var start = 0
      for index in bytes.indices {
        let byte = bytes[index]
        // Every character replaced is at most `>` (0x3E); letters are all above it.
        if byte > UInt8(ascii: ">") { continue }
        let entity: StaticString
        switch byte {
        case UInt8(ascii: "&"): entity = "&amp;"
        case UInt8(ascii: "<"): entity = "&lt;"
        case UInt8(ascii: ">"): entity = "&gt;"
        case UInt8(ascii: "\"") where quotes: entity = "&quot;"
        case UInt8(ascii: "'") where quotes: entity = "&#39;"
        default: continue
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        entity.withUTF8Buffer { out.append(contentsOf: $0) }
        start = index + 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
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
    write(string, quotes: quotes, into: &out)
    return String(decoding: out, as: UTF8.self)
  }
}
