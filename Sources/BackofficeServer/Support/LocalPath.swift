/// The one guard for every "next" and "back" value a page follows: only a path on this site.
///
/// Browsers drop tabs and line breaks from URLs and treat `\` like `/`, so `/\t/evil.example`
/// or `/\evil.example` would leave the site as `//evil.example`. Only visible ASCII is let
/// through, starting with one `/`.
enum LocalPath {
  static let maxLength = 2048

  /// `raw` when it is a same-site path (and, with `within`, that page or one of its queries).
  static func validated(_ raw: String?, within base: String? = nil) -> String? {
    guard let raw, raw.utf8.count <= maxLength, raw.hasPrefix("/"),
      raw.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") })
    else { return nil }
    if raw.utf8.dropFirst().first == UInt8(ascii: "/") { return nil }
    if let base, raw != base, !raw.hasPrefix(base + "?") { return nil }
    return raw
  }
}
