import Foundation

/// An email with a plain-text and an HTML body, written as an RFC 5322 / MIME
/// `multipart/alternative` message (the contents of an `.eml` file).
///
/// Both parts are UTF-8 in quoted-printable, lines end in CRLF, and a non-ASCII subject or
/// display name becomes RFC 2047 encoded words. The message carries `X-Unsent: 1`, which makes
/// Outlook open a downloaded file as a draft ready to send; other programs ignore it.
public struct EmailMessage: Hashable, Sendable {
  public var from: String
  public var to: String
  public var subject: String
  public var date: Date
  public var html: String
  public var text: String
  /// Zone the `Date` header is written in.
  public var timeZone: TimeZone
  /// Part separator. Starts with "=_", which quoted-printable output can never contain.
  public var boundary: String

  /// `from` and `to` are addresses, optionally with a display name ("Ana <ana@example.com>");
  /// an empty `to` leaves the header out. The same `boundarySeed` always gives the same
  /// boundary (for reproducible files and tests); without one it is random.
  public init(
    from: String, to: String, subject: String, date: Date, html: String, text: String,
    timeZone: TimeZone = TimeZone(identifier: "UTC") ?? .current, boundarySeed: UInt64? = nil
  ) {
    self.from = from
    self.to = to
    self.subject = subject
    self.date = date
    self.html = html
    self.text = text
    self.timeZone = timeZone
    var generator = EmailBoundaryGenerator(seed: boundarySeed ?? UInt64.random(in: .min ... .max))
    let hex = (0..<2).map { _ in
      let value = String(generator.next(), radix: 16)
      return String(repeating: "0", count: 16 - value.count) + value
    }
    self.boundary = "=_Backoffice_" + hex.joined()
  }

  /// The whole message as text: CRLF line ends, ASCII unless an address itself is not.
  public var rendered: String {
    var lines: [String] = [
      "MIME-Version: 1.0",
      "Date: " + Self.rfc5322Date(date, timeZone: timeZone),
      MIMEHeader.address("From", from),
    ]
    if !MIMEHeader.clean(to).isEmpty {
      lines.append(MIMEHeader.address("To", to))
    }
    lines += [
      MIMEHeader.unstructured("Subject", subject),
      "X-Unsent: 1",
      "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"",
      "",
      "This is a multi-part message in MIME format.",
      "",
      "--" + boundary,
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      QuotedPrintable.encode(text),
      "--" + boundary,
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      QuotedPrintable.encode(html),
      "--" + boundary + "--",
      "",
    ]
    return lines.joined(separator: "\r\n")
  }

  /// The bytes of the `.eml` file.
  public var data: Data { Data(rendered.utf8) }

  /// "Sat, 22 Nov 2025 15:05:09 +0200"
  public static func rfc5322Date(_ date: Date, timeZone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ value: Int?) -> String {
      let value = value ?? 0
      return value < 10 ? "0\(value)" : "\(value)"
    }
    let offsetMinutes = timeZone.secondsFromGMT(for: date) / 60
    let sign = offsetMinutes < 0 ? "-" : "+"
    let offset = sign + two(abs(offsetMinutes) / 60) + two(abs(offsetMinutes) % 60)
    let weekday = days[((parts.weekday ?? 1) - 1 + 7) % 7]
    let month = months[((parts.month ?? 1) - 1 + 12) % 12]
    return "\(weekday), \(two(parts.day)) \(month) \(parts.year ?? 1970) "
      + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) \(offset)"
  }
}

/// Header lines that cannot be broken by the values put in them.
enum MIMEHeader {
  /// Line breaks and other control characters become spaces, so a value cannot start a new
  /// header.
  static func clean(_ value: String) -> String {
    String(
      String.UnicodeScalarView(
        value.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 })
    ).trimmingCharacters(in: .whitespaces)
  }

  /// A free-text header such as Subject: plain and folded at spaces when it is printable ASCII,
  /// otherwise UTF-8 encoded words.
  static func unstructured(_ name: String, _ value: String) -> String {
    let value = clean(value)
    // "=?" could be read back as the start of an encoded word, so such text is encoded too.
    if value.unicodeScalars.allSatisfy({ $0.isASCII }) && !value.contains("=?") {
      return fold(name + ": " + value)
    }
    return name + ": " + encodedWords(value)
  }

  /// An address header from "address" or "Name <address>". A non-ASCII display name becomes
  /// encoded words; an ASCII one with special characters ("Doe, Jane") is quoted. The address
  /// itself is kept as given.
  static func address(_ name: String, _ value: String) -> String {
    let value = clean(value)
    guard let open = value.lastIndex(of: "<"), value.hasSuffix(">") else {
      return name + ": " + value
    }
    let displayName = value[..<open].trimmingCharacters(in: .whitespaces)
    let address = value[open...]
    if displayName.isEmpty {
      return name + ": " + address
    }
    if !displayName.unicodeScalars.allSatisfy({ $0.isASCII }) {
      return name + ": " + encodedWords(displayName) + " " + address
    }
    let specials = Set("()<>[]:;@\\,.\"")
    let alreadyQuoted =
      displayName.count > 1 && displayName.hasPrefix("\"") && displayName.hasSuffix("\"")
    if alreadyQuoted || !displayName.contains(where: { specials.contains($0) }) {
      return name + ": " + displayName + " " + address
    }
    let quoted = displayName.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "\"", with: "\\\"")
    return name + ": \"" + quoted + "\" " + address
  }

  /// Base64 encoded words of at most 39 bytes of text each, never splitting a character, so
  /// each word stays well under the 75-character limit; folded one word per line.
  static func encodedWords(_ value: String) -> String {
    var words: [String] = []
    var chunk = ""
    for character in value {
      if chunk.utf8.count + String(character).utf8.count > 39, !chunk.isEmpty {
        words.append(chunk)
        chunk = ""
      }
      chunk.append(character)
    }
    if !chunk.isEmpty { words.append(chunk) }
    return words.map { "=?UTF-8?B?" + Data($0.utf8).base64EncodedString() + "?=" }
      .joined(separator: "\r\n ")
  }

  /// Folds a long header line at spaces so lines stay within 78 characters where possible.
  static func fold(_ line: String) -> String {
    guard line.count > 78 else { return line }
    var lines: [String] = []
    var current = ""
    for word in line.split(separator: " ", omittingEmptySubsequences: false) {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count > 78 {
        lines.append(current)
        current = " " + word
      } else {
        current += " " + word
      }
    }
    lines.append(current)
    return lines.joined(separator: "\r\n")
  }
}

/// Quoted-printable (RFC 2045 §6.7) for UTF-8 text.
enum QuotedPrintable {
  /// Encodes `text`; any of CRLF, LF or CR counts as a line break and is written as CRLF.
  /// Encoded lines are at most 76 characters, using soft breaks ("=" at the end of a line).
  static func encode(_ text: String) -> String {
    let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: "\r", with: "\n")
    return normalized.split(separator: "\n", omittingEmptySubsequences: false)
      .map { encodeLine(Array($0.utf8)) }
      .joined(separator: "\r\n")
  }

  private static func encodeLine(_ bytes: [UInt8]) -> String {
    var output: [String] = []
    var current = ""
    for (index, byte) in bytes.enumerated() {
      let isLast = index == bytes.count - 1
      let token: String
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "\t"):
        // Whitespace at the end of a line may be stripped in transit, so it is encoded there.
        token = isLast ? escape(byte) : String(Unicode.Scalar(byte))
      case UInt8(ascii: "="):
        token = escape(byte)
      case 33...126:
        token = String(Unicode.Scalar(byte))
      default:
        token = escape(byte)
      }
      // Leave room for the "=" of a soft break.
      if current.count + token.count > 75 {
        output.append(current + "=")
        current = ""
      }
      current += token
    }
    output.append(current)
    return output.joined(separator: "\r\n")
  }

  private static func escape(_ byte: UInt8) -> String {
    let hex = String(byte, radix: 16, uppercase: true)
    return "=" + (hex.count == 1 ? "0" + hex : hex)
  }
}

/// Small deterministic generator for boundaries (the SplitMix64 algorithm).
struct EmailBoundaryGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
