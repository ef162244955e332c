import Foundation

/// A mailbox: an address plus an optional display name ("Backoffice <noreply@example.com>").
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
  public var address: String
  public var name: String?

  public init(_ address: String, name: String? = nil) {
    self.address = address
    self.name = name
  }

  public var description: String {
    if let name, !name.isEmpty { return "\(name) <\(address)>" }
    return address
  }
}

/// An additional header line, e.g. `List-Unsubscribe` or `X-Backoffice-Kind`.
public struct MailHeader: Sendable, Hashable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

public enum MailMessageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The address is empty, lacks exactly one `@`, or contains spaces, control
  /// characters, angle brackets or non-ASCII characters.
  case invalidAddress(String)
  /// A header name is empty or contains characters not allowed in a field name.
  case invalidHeaderName(String)
  /// A header value (subject, display name, extra header) contains CR, LF or another control character.
  case invalidHeaderValue(field: String)
  /// An extra header would duplicate one the renderer writes itself.
  case reservedHeader(String)
  case noRecipients

  public var description: String {
    switch self {
    case .invalidAddress(let address): return "invalid email address: \(address.debugDescription)"
    case .invalidHeaderName(let name): return "invalid header name: \(name.debugDescription)"
    case .invalidHeaderValue(let field): return "invalid characters in the \(field) header"
    case .reservedHeader(let name): return "header \(name) is set by the message itself"
    case .noRecipients: return "message has no recipients"
    }
  }
}

/// One email message and its RFC 5322 / MIME rendering.
///
/// Everything the renderer emits is 7-bit ASCII with CRLF line endings: non-ASCII
/// header text becomes RFC 2047 encoded-words, bodies are quoted-printable or
/// base64 (whichever is shorter), so the result is safe for any SMTP server.
public struct MailMessage: Sendable, Hashable {
  public var from: MailAddress
  public var to: [MailAddress]
  public var replyTo: MailAddress?
  public var subject: String
  public var textBody: String
  /// When set, the message becomes `multipart/alternative` with the text part first.
  public var htmlBody: String?
  public var extraHeaders: [MailHeader]
  /// Value for the `Date` header; the time of rendering when nil.
  public var date: Date?
  /// Full `Message-ID` including angle brackets; a random one using the sender's domain when nil.
  public var messageID: String?

  public init(
    from: MailAddress,
    to: [MailAddress],
    replyTo: MailAddress? = nil,
    subject: String,
    textBody: String,
    htmlBody: String? = nil,
    extraHeaders: [MailHeader] = [],
    date: Date? = nil,
    messageID: String? = nil
  ) {
    self.from = from
    self.to = to
    self.replyTo = replyTo
    self.subject = subject
    self.textBody = textBody
    self.htmlBody = htmlBody
    self.extraHeaders = extraHeaders
    self.date = date
    self.messageID = messageID
  }

  /// Checks addresses and header values without rendering.
  public func validate() throws {
    guard !to.isEmpty else { throw MailMessageError.noRecipients }
    try Self.validate(from, field: "From")
    for address in to { try Self.validate(address, field: "To") }
    if let replyTo { try Self.validate(replyTo, field: "Reply-To") }
    try Self.validateValue(subject, field: "Subject")
    if let messageID {
      try Self.validateValue(messageID, field: "Message-ID")
      guard messageID.hasPrefix("<"), messageID.hasSuffix(">"), messageID.allSatisfy(\.isASCII),
        !messageID.contains(" ")
      else { throw MailMessageError.invalidHeaderValue(field: "Message-ID") }
    }
    let reserved: Set<String> = Set([
      "date", "from", "to", "cc", "bcc", "subject", "message-id", "mime-version",
      "content-type", "content-transfer-encoding",
    ]).union(replyTo == nil ? [] : ["reply-to"])
    for header in extraHeaders {
      let name = header.name
      guard !name.isEmpty, name.utf8.count <= 76,
        name.utf8.allSatisfy({ $0 >= 33 && $0 <= 126 && $0 != UInt8(ascii: ":") })
      else { throw MailMessageError.invalidHeaderName(name) }
      guard !reserved.contains(name.lowercased()) else {
        throw MailMessageError.reservedHeader(name)
      }
      try Self.validateValue(header.value, field: name)
    }
  }

  /// The envelope sender (`MAIL FROM`).
  public var envelopeSender: String { from.address }
  /// The envelope recipients (`RCPT TO`).
  public var envelopeRecipients: [String] { to.map(\.address) }

  /// Renders the complete message (headers and body) with CRLF line endings.
  public func render() throws -> String {
    try validate()
    var lines: [String] = []
    lines.append("Date: " + Self.rfc5322Date(date ?? Date()))
    lines.append("From: " + Self.mailbox(from))
    lines.append("To: " + to.map(Self.mailbox).joined(separator: ",\r\n "))
    if let replyTo { lines.append("Reply-To: " + Self.mailbox(replyTo)) }
    lines.append(Self.unstructured("Subject", subject))
    lines.append(
      "Message-ID: " + (messageID ?? Self.makeMessageID(domain: Self.domain(of: from.address))))
    lines.append("MIME-Version: 1.0")
    for header in extraHeaders { lines.append(Self.unstructured(header.name, header.value)) }

    let text = Self.encodedPart(textBody, subtype: "plain")
    if let htmlBody {
      let html = Self.encodedPart(htmlBody, subtype: "html")
      let boundary = "=_" + Self.randomHex(bytes: 12)
      lines.append("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"")
      lines.append("")
      lines.append("This is a multi-part message in MIME format.")
      for part in [text, html] {
        lines.append("--" + boundary)
        lines.append(contentsOf: part.headers)
        lines.append("")
        lines.append(part.body)
      }
      lines.append("--" + boundary + "--")
    } else {
      lines.append(contentsOf: text.headers)
      lines.append("")
      lines.append(text.body)
    }
    let rendered = lines.joined(separator: "\r\n")
    return rendered.hasSuffix("\r\n") ? rendered : rendered + "\r\n"
  }

  /// A new random Message-ID such as `<3f1c…@example.com>`.
  public static func makeMessageID(domain: String) -> String {
    "<\(randomHex(bytes: 16))@\(domain.isEmpty ? "localhost" : domain)>"
  }

  // MARK: - Validation

  static func validate(_ mailbox: MailAddress, field: String) throws {
    try validateAddress(mailbox.address)
    if let name = mailbox.name { try validateValue(name, field: field) }
  }

  /// Deliberately minimal: one `@` with text on both sides, printable ASCII only, and
  /// none of the characters that would let an address break out of `<...>` or a header.
  static func validateAddress(_ address: String) throws {
    let forbidden = Set("<>(),;:\\\"".utf8)
    let parts = address.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, address.utf8.count <= 254,
      address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !forbidden.contains($0) })
    else { throw MailMessageError.invalidAddress(address) }
  }

  /// Header text may contain any Unicode text and tabs, but no CR, LF or other control characters.
  static func validateValue(_ value: String, field: String) throws {
    for scalar in value.unicodeScalars {
      let v = scalar.value
      if (v < 0x20 && v != 0x09) || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028
        || v == 0x2029
      {
        throw MailMessageError.invalidHeaderValue(field: field)
      }
    }
  }

  // MARK: - Headers

  static func domain(of address: String) -> String {
    address.split(separator: "@").last.map(String.init) ?? "localhost"
  }

  static func rfc5322Date(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .gmt
    let c = calendar.dateComponents(
      [.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ n: Int?) -> String {
      let n = n ?? 0
      return n < 10 ? "0\(n)" : "\(n)"
    }
    return
      "\(days[(c.weekday ?? 1) - 1]), \(two(c.day)) \(months[(c.month ?? 1) - 1]) \(c.year ?? 1970) "
      + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
  }

  static func mailbox(_ mailbox: MailAddress) -> String {
    guard let name = mailbox.name, !name.isEmpty else { return mailbox.address }
    let encodedName = phrase(name)
    let lastLine = encodedName.components(separatedBy: "\r\n").last ?? encodedName
    // Move the address to its own folded line when it would make the line long.
    let separator = lastLine.utf8.count + mailbox.address.utf8.count > 66 ? "\r\n " : " "
    return encodedName + separator + "<\(mailbox.address)>"
  }

  /// A display name: as is when it is plain atoms, quoted when it has specials,
  /// encoded-words when it has non-ASCII text or is too long to fold safely.
  static func phrase(_ name: String) -> String {
    let printable = name.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    if printable && name.utf8.count <= 60 && !name.contains("=?") {
      let atext = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~ ".utf8)
      if name.utf8.allSatisfy(atext.contains) && !name.hasPrefix(" ") && !name.hasSuffix(" ") {
        return name
      }
      let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "\"", with: "\\\"")
      return "\"\(escaped)\""
    }
    return encodedWords(name)
  }

  /// An unstructured header (Subject, extra headers), folded to stay under 78 characters a line.
  static func unstructured(_ name: String, _ value: String) -> String {
    let asciiOnly = value.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
    if asciiOnly && !value.contains("=?") {
      // Fold at spaces; give up and encode when a single word is too long for one line.
      var lines: [String] = []
      var current = name + ":"
      var hasWord = false
      for word in value.split(separator: " ", omittingEmptySubsequences: false) {
        if hasWord && current.utf8.count + 1 + word.utf8.count > 78 {
          lines.append(current)
          current = ""
        }
        current += " " + word
        hasWord = true
      }
      lines.append(current)
      let foldable = lines.dropFirst().allSatisfy { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
      if foldable && lines.allSatisfy({ $0.utf8.count <= 78 }) {
        return lines.joined(separator: "\r\n")
      }
    }
    return name + ": " + encodedWords(value)
  }

  /// RFC 2047 `=?UTF-8?B?...?=` words of at most 39 input bytes each (64 characters
  /// encoded), split on character boundaries and joined by folding whitespace.
  static func encodedWords(_ text: String) -> String {
    var words: [String] = []
    var chunk: [UInt8] = []
    func flush() {
      guard !chunk.isEmpty else { return }
      words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
      chunk.removeAll(keepingCapacity: true)
    }
    for character in text {
      let bytes = Array(String(character).utf8)
      if chunk.count + bytes.count > 39 { flush() }
      chunk += bytes
    }
    flush()
    return words.isEmpty ? "" : words.joined(separator: "\r\n ")
  }

  // MARK: - Bodies

  struct EncodedPart {
    var headers: [String]
    var body: String
  }

  static func encodedPart(_ text: String, subtype: String) -> EncodedPart {
    let bytes = canonicalLineEndings(text)
    let qp = quotedPrintable(bytes)
    // Base64 costs 4/3 plus a CRLF every 76 characters; pick the shorter encoding.
    let base64Length = (bytes.count + 2) / 3 * 4 * 78 / 76
    let useQP = qp.utf8.count <= base64Length
    let body = useQP ? qp : base64Lines(bytes)
    return EncodedPart(
      headers: [
        "Content-Type: text/\(subtype); charset=utf-8",
        "Content-Transfer-Encoding: " + (useQP ? "quoted-printable" : "base64"),
      ],
      body: body
    )
  }

  /// UTF-8 bytes with every line break (CRLF, LF or lone CR) turned into CRLF.
  static func canonicalLineEndings(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count + 16)
    var previousWasCR = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\r"):
        out += [13, 10]
        previousWasCR = true
        continue
      case UInt8(ascii: "\n"):
        if !previousWasCR { out += [13, 10] }
      default:
        out.append(byte)
      }
      previousWasCR = false
    }
    return out
  }

  /// Quoted-printable (RFC 2045) of CRLF-separated text, lines at most 76 characters.
  /// The result has no trailing line break; the caller's separator provides it.
  static func quotedPrintable(_ bytes: [UInt8]) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    var lineLength = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 13, index + 1 < bytes.count, bytes[index + 1] == 10 {
        out += [13, 10]
        lineLength = 0
        index += 2
        continue
      }
      let atLineEnd = index + 1 == bytes.count || bytes[index + 1] == 13
      let literal =
        (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "="))
        || ((byte == 32 || byte == 9) && !atLineEnd)
      let token: [UInt8] =
        literal ? [byte] : [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      // Keep room for the "=" of a soft break unless this token ends the line.
      if lineLength + token.count > (atLineEnd ? 76 : 75) {
        out += [UInt8(ascii: "="), 13, 10]
        lineLength = 0
      }
      out += token
      lineLength += token.count
      index += 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Base64 in lines of 76 characters separated by CRLF.
  static func base64Lines(_ bytes: [UInt8]) -> String {
    let encoded = Array(Data(bytes).base64EncodedString().utf8)
    return stride(from: 0, to: encoded.count, by: 76)
      .map { String(decoding: encoded[$0..<min($0 + 76, encoded.count)], as: UTF8.self) }
      .joined(separator: "\r\n")
  }

  static func randomHex(bytes count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in
      let byte = UInt8.random(in: 0...255, using: &generator)
      return (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }.joined()
  }
}
