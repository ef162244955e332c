import Foundation

/// The identifier of a Monobank jar (банка), e.g. `"8Xd9vZqKpL"`: the last path segment of
/// `https://send.monobank.ua/jar/<id>` and the `clientId` the jar API expects.
public struct JarID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
  public let rawValue: String

  /// Accepts only what `JarLink.isValidID` allows.
  public init?(rawValue: String) {
    guard JarLink.isValidID(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// The canonical public link, always `https://send.monobank.ua/jar/<id>`.
  public var link: String { "https://\(JarLink.host)/jar/\(rawValue)" }

  public var description: String { rawValue }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let id = JarID(rawValue: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "Invalid jar id \(text)"))
    }
    self = id
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// Reads the jar link a volunteer pastes.
///
/// Accepted:
/// - `https://send.monobank.ua/jar/<id>`, optionally with a trailing `/`, a `?query` and/or a
///   `#fragment` (the share button adds tracking parameters);
/// - any `https://send.monobank.ua/…?clientId=<id>` link (if it also has `/jar/<id>`, the two
///   must agree);
/// - `http://` in place of `https://` (same page; the link is stored in canonical https form).
///
/// Refused, with a message in the interface language that starts with "Invalid URL format"
/// ("Неправильний формат URL"): text without a scheme (including a bare
/// `send.monobank.ua/jar/…`, as in the original app), other schemes, other hosts (also `www.`
/// or with a port or user), other paths, and ids that are not 5–40 ASCII letters and digits.
public enum JarLink {
  public static let host = "send.monobank.ua"

  /// Parses a pasted link into its jar id. Surrounding whitespace is ignored.
  public static func parse(_ text: String) throws(JarLinkError) -> JarID {
    let link = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !link.isEmpty else { throw .empty }

    guard let schemeEnd = link.range(of: "://") else { throw .notALink }
    let scheme = link[..<schemeEnd.lowerBound].lowercased()
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "+") }) else {
      throw .notALink
    }
    guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme }

    var rest = link[schemeEnd.upperBound...]
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    var query: Substring = ""
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
    let hostText = rest[..<hostEnd]
    let path = rest[hostEnd...]
    guard !hostText.isEmpty else { throw .notALink }
    guard hostText.lowercased() == host else { throw .wrongHost }

    let pathID = try idFromPath(path)
    let queryID = idFromQuery(query)

    switch (pathID, queryID) {
    case (nil, nil):
      throw .missingID
    case (let id?, nil), (nil, let id?):
      return try validated(id)
    case (let fromPath?, let fromQuery?):
      guard fromPath == fromQuery else { throw .conflictingIDs }
      return try validated(fromPath)
    }
  }

  /// Jar ids are ASCII letters and digits, 5 to 40 of them (real ones are about 10).
  public static func isValidID(_ text: some StringProtocol) -> Bool {
    (5...40).contains(text.count)
      && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isWholeNumber) }
  }

  private static func validated(_ text: Substring) throws(JarLinkError) -> JarID {
    guard let id = JarID(rawValue: String(text)) else { throw .invalidID }
    return id
  }

  /// `/jar/<id>` or `/jar/<id>/` gives the id; `/jar`, `/` and other paths give none (they
  /// are only fine together with `?clientId=`); `/jar/<id>/more` is refused.
  private static func idFromPath(_ path: Substring) throws(JarLinkError) -> Substring? {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    let trimmed = segments.last == "" ? segments.dropLast() : segments
    guard trimmed.first?.lowercased() == "jar", trimmed.count > 1 else { return nil }
    guard trimmed.count == 2, let id = trimmed.last, !id.isEmpty else { throw .unexpectedPath }
    return id
  }

  private static func idFromQuery(_ query: Substring) -> Substring? {
    for pair in query.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      if parts.count == 2, parts[0] == "clientId" { return parts[1] }
    }
    return nil
  }
}

/// Why a jar link was refused. Every `message` begins with the original app's
/// "Неправильний формат URL" (in English "Invalid URL format") and then says what exactly is
/// wrong, in the interface language.
public enum JarLinkError: Error, Hashable, Sendable {
  /// Nothing was pasted. (A campaign form treats an empty field as "no jar", not as this.)
  case empty
  /// No `scheme://host` at all.
  case notALink
  /// A scheme other than https or http.
  case unsupportedScheme
  /// Some host other than send.monobank.ua.
  case wrongHost
  /// A Monobank link without a jar id, e.g. `https://send.monobank.ua/`.
  case missingID
  /// Extra path segments after the jar id.
  case unexpectedPath
  /// The id has characters other than Latin letters and digits, or a wrong length.
  case invalidID
  /// `/jar/<a>?clientId=<b>` with different a and b.
  case conflictingIDs

  /// The first sentence of every message, kept from the original app.
  public static var baseMessage: String { L("fundraisers.validation.invalid_url") }

  static let expectedForm = "https://send.monobank.ua/jar/…"

  public var message: String {
    "\(Self.baseMessage). \(detail)"
  }

  private var detail: String {
    switch self {
    case .empty, .notALink:
      L("fundraisers.validation.jar_link.paste", ["example": Self.expectedForm])
    case .unsupportedScheme:
      L("fundraisers.validation.jar_link.scheme")
    case .wrongHost:
      L("fundraisers.validation.jar_link.wrong_host", ["example": Self.expectedForm])
    case .missingID:
      L("fundraisers.validation.jar_link.missing_id", ["example": Self.expectedForm])
    case .unexpectedPath:
      L("fundraisers.validation.jar_link.unexpected_path", ["example": Self.expectedForm])
    case .invalidID:
      L("fundraisers.validation.jar_link.invalid_id")
    case .conflictingIDs:
      L("fundraisers.validation.jar_link.conflicting_ids")
    }
  }
}
