import Foundation

/// A `mailto:` link and whether its body had to be cut to fit.
public struct MailtoLink: Hashable, Sendable {
  /// The link text, ASCII only.
  public var string: String
  public var wasShortened: Bool
  /// Package entries left out of the body.
  public var omittedEntries: Int

  public init(string: String, wasShortened: Bool, omittedEntries: Int) {
    self.string = string
    self.wasShortened = wasShortened
    self.omittedEntries = omittedEntries
  }

  public var url: URL? { URL(string: string) }
}

/// Builds `mailto:` links (RFC 6068).
public enum Mailto {
  /// Longer links are cut by some browsers and mail programs; this keeps a safe margin below the
  /// ~2 000-character limits seen in practice.
  public static let defaultLimit = 1800

  /// A link that opens a new message to `recipient` (may be empty) with `subject` and `body`.
  /// When the whole link would be longer than `limit` characters, whole package entries are left
  /// out from the end and a line says how many; if even the opening and closing alone do not
  /// fit, the shortest form (the note alone) is returned, still marked as shortened.
  public static func link(
    recipient: String, subject: String, body: PlainTextBody, limit: Int = defaultLimit
  ) -> MailtoLink {
    let full = build(recipient: recipient, subject: subject, body: body.rendered)
    if full.count <= limit {
      return MailtoLink(string: full, wasShortened: false, omittedEntries: 0)
    }
    var kept = body.entries.count - 1
    while kept >= 0 {
      let candidate = build(
        recipient: recipient, subject: subject, body: body.rendered(keepingEntries: kept))
      if candidate.count <= limit {
        return MailtoLink(
          string: candidate, wasShortened: true, omittedEntries: body.entries.count - kept)
      }
      kept -= 1
    }
    // Nothing fits: say only that the details are elsewhere.
    let note =
      body.entries.isEmpty
      ? L("marketing.mailto.full_details_elsewhere")
      : PlainTextBody.omissionNote(body.entries.count)
    return MailtoLink(
      string: build(recipient: recipient, subject: subject, body: note), wasShortened: true,
      omittedEntries: body.entries.count)
  }

  /// A link with a plain body, never shortened.
  public static func link(recipient: String, subject: String, body: String) -> String {
    build(recipient: recipient, subject: subject, body: body)
  }

  static func build(recipient: String, subject: String, body: String) -> String {
    var link = "mailto:" + encode(recipient.trimmingCharacters(in: .whitespaces), keeping: "@")
    var fields: [String] = []
    if !subject.isEmpty {
      fields.append("subject=" + encode(singleLine(subject)))
    }
    if !body.isEmpty {
      fields.append("body=" + encode(crlf(body)))
    }
    if !fields.isEmpty {
      link += "?" + fields.joined(separator: "&")
    }
    return link
  }

  /// Percent-encodes UTF-8 bytes, leaving only RFC 3986 unreserved characters (and `extra`)
  /// as they are. Stricter than RFC 6068 requires: "+" and "&" are encoded too, because some
  /// mail programs read "+" as a space.
  static func encode(_ text: String, keeping extra: String = "") -> String {
    let keep = Set(extra.utf8)
    var output = ""
    for byte in text.utf8 {
      if URLCharacters.isUnreserved(byte) || keep.contains(byte) {
        output.append(Character(Unicode.Scalar(byte)))
      } else {
        output += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
      }
    }
    return output
  }

  private static let hexDigits = (0..<16).map { String($0, radix: 16, uppercase: true) }

  /// RFC 6068 wants line breaks in a body as CRLF (%0D%0A).
  static func crlf(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
      .replacingOccurrences(of: "\n", with: "\r\n")
  }

  /// A subject is one line.
  static func singleLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
