import Foundation

/// The link rule of ad payment entries, checked step by step on the text itself.
///
/// Foundation's `URL` parsing is not used: it differs between Linux and macOS (and between OS
/// versions) for non-ASCII hosts and for characters that need percent-encoding, and the answer
/// must be the same everywhere. A link is valid when all of these hold:
///
/// 1. it is not empty;
/// 2. it starts with `http://` or `https://`, in any letter case;
/// 3. it holds no whitespace, control or invisible formatting characters anywhere (a link with a
///    space in it was mistyped or pasted with junk, and bidi controls can disguise a link);
/// 4. the authority (text up to the first `/`, `?` or `#`) is not empty and has no user info
///    (`user:pass@host` or `good.com@evil.com` is a known phishing disguise, so any `@` before
///    the path is refused);
/// 5. an optional `:port` holds only digits and is at most 65535 (empty is allowed, as in RFC
///    3986 and browsers: it means the default port);
/// 6. the host has a `.` and at least two labels; every label is non-empty (so no trailing dot,
///    `https://example.com.` is invalid), made of letters (any script), digits and `-`, and
///    neither starts nor ends with `-`;
/// 7. the last label (the TLD) has at least two characters, all letters. Its ASCII-compatible
///    form `xn--…` is accepted too: `https://приклад.укр` is valid, so its punycode spelling
///    `https://xn--80aikifvh.xn--j1amh` must be as well.
///
/// Paths, queries and fragments are not checked beyond step 3.
public enum AdPaymentURL {
  /// Whether `text` (already trimmed) is an acceptable link.
  public static func isValid(_ text: String) -> Bool {
    host(of: text) != nil
  }

  /// The host of an acceptable link exactly as typed (no port, no case change), or nil when the
  /// link is not acceptable.
  public static func host(of text: String) -> String? {
    guard !text.isEmpty, let afterScheme = schemeEnd(of: text) else { return nil }
    guard !text.unicodeScalars.contains(where: isForbidden) else { return nil }

    let rest = text[afterScheme...]
    let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    guard !authority.isEmpty, !authority.contains("@") else { return nil }

    var host = authority
    if let colon = authority.firstIndex(of: ":") {
      host = authority[..<colon]
      guard isValidPort(authority[authority.index(after: colon)...]) else { return nil }
    }
    guard !host.isEmpty, host.contains(".") else { return nil }

    let labels = host.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2, labels.allSatisfy(isValidLabel) else { return nil }
    guard let tld = labels.last, isValidTopLevelLabel(tld) else { return nil }
    return String(host)
  }

  /// The text two links are compared by for the "already saved" warning: trimmed, scheme and
  /// host in lower case, one trailing `/` dropped, canonically composed (NFC) so that `é` typed
  /// as one character or as `e` + accent compares equal. Works on any text, valid or not.
  ///
  /// `HTTPS://WWW.Example.com/` and `https://www.example.com` share a key; paths keep their case
  /// because servers treat `/A` and `/a` as different pages.
  public static func duplicateKey(_ text: String) -> String {
    var key = AdPaymentDraft.trimmed(text)
    if let afterScheme = key.range(of: "://")?.upperBound {
      let scheme = key[..<afterScheme].lowercased()
      let rest = key[afterScheme...]
      let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
      let authority = rest[..<authorityEnd]
      // User info (if any) keeps its case; only the host part is case-insensitive.
      let hostStart =
        authority.lastIndex(of: "@").map { authority.index(after: $0) }
        ?? authority.startIndex
      key =
        scheme + authority[..<hostStart] + authority[hostStart...].lowercased()
        + rest[authorityEnd...]
    }
    if key.hasSuffix("/") { key.removeLast() }
    return key.precomposedStringWithCanonicalMapping
  }

  /// The index just after `http://` or `https://` (compared without regard to letter case).
  private static func schemeEnd(of text: String) -> String.Index? {
    for scheme in ["https://", "http://"] {
      var index = text.startIndex
      var matched = true
      for expected in scheme {
        guard index < text.endIndex, text[index].lowercased() == String(expected) else {
          matched = false
          break
        }
        index = text.index(after: index)
      }
      if matched { return index }
    }
    return nil
  }

  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.properties.isWhitespace { return true }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator: return true
    default: return false
    }
  }

  private static func isValidPort(_ text: Substring) -> Bool {
    var value = 0
    for character in text {
      guard let ascii = character.asciiValue, (48...57).contains(ascii) else { return false }
      value = value * 10 + Int(ascii - 48)
      if value > 65_535 { return false }
    }
    return true
  }

  private static func isValidLabel(_ label: Substring) -> Bool {
    guard let first = label.first, let last = label.last, first != "-", last != "-" else {
      return false
    }
    return label.allSatisfy { $0 == "-" || $0.isLetter || isDigit($0) }
  }

  private static func isValidTopLevelLabel(_ label: Substring) -> Bool {
    if label.count >= 2 && label.allSatisfy(\.isLetter) { return true }
    // Punycode form of a letter TLD: "xn--" and then ASCII letters, digits and hyphens.
    let lower = label.lowercased()
    guard lower.hasPrefix("xn--"), lower.count > 4 else { return false }
    return lower.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
  }

  /// A decimal digit of any script (ASCII, Arabic-Indic, full-width …), as IDNA allows.
  private static func isDigit(_ character: Character) -> Bool {
    guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else {
      return false
    }
    return scalar.properties.numericType == .decimal
  }
}
