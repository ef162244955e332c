/// Characters of URLs.
public enum URLCharacters {
  /// Letters, digits and `-._~`: RFC 3986's unreserved characters, which no percent-encoding
  /// changes (links, page links and `mailto:` addresses write them as they are).
  public static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      true
    default: false
    }
  }
}
