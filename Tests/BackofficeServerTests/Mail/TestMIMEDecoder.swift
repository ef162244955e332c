import Foundation

/// Just enough MIME decoding to check what the renderer produced: unfolded headers,
/// RFC 2047 encoded-words, quoted-printable / base64 bodies and multipart/alternative.
struct DecodedMessage {
  var headers: [(name: String, value: String)]
  var body: String

  init(_ raw: String) {
    let split = raw.range(of: "\r\n\r\n")
    let head = split.map { String(raw[..<$0.lowerBound]) } ?? raw
    body = split.map { String(raw[$0.upperBound...]) } ?? ""
    headers = []
    for line in head.components(separatedBy: "\r\n") {
      if line.hasPrefix(" ") || line.hasPrefix("\t"), !headers.isEmpty {
        headers[headers.count - 1].value += line  // unfold: drop the CRLF, keep the whitespace
      } else if let colon = line.firstIndex(of: ":") {
        let value = line[line.index(after: colon)...].drop(while: { $0 == " " })
        headers.append((String(line[..<colon]), String(value)))
      }
    }
  }

  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  func decodedHeader(_ name: String) -> String? {
    header(name).map(TestMIME.decodeEncodedWords)
  }

  /// The decoded text of every leaf part, keyed by its media type ("text/plain", "text/html").
  var textParts: [String: String] {
    let type = header("Content-Type") ?? "text/plain"
    if type.lowercased().hasPrefix("multipart/") {
      guard let boundary = TestMIME.parameter("boundary", in: type) else { return [:] }
      var result: [String: String] = [:]
      let sections = body.components(separatedBy: "--" + boundary)
      for section in sections.dropFirst() where !section.hasPrefix("--") {
        var part = section
        if part.hasPrefix("\r\n") { part.removeFirst() }
        if part.hasSuffix("\r\n") { part.removeLast() }
        result.merge(DecodedMessage(part).textParts) { first, _ in first }
      }
      return result
    }
    let mediaType = String(type.split(separator: ";")[0]).lowercased()
    let encoding = (header("Content-Transfer-Encoding") ?? "7bit").lowercased()
    return [mediaType: TestMIME.decodeBody(body, encoding: encoding)]
  }
}

enum TestMIME {
  static func parameter(_ name: String, in value: String) -> String? {
    for piece in value.split(separator: ";").dropFirst() {
      let pair = piece.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      if pair.count == 2, pair[0].lowercased() == name {
        return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      }
    }
    return nil
  }

  static func decodeBody(_ body: String, encoding: String) -> String {
    switch encoding {
    case "base64":
      let compact = body.filter { !$0.isWhitespace }
      return Data(base64Encoded: compact).map { String(decoding: $0, as: UTF8.self) }
        ?? "<bad base64>"
    case "quoted-printable":
      return String(decoding: decodeQuotedPrintable(body), as: UTF8.self)
    default:
      return body
    }
  }

  static func decodeQuotedPrintable(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "=") {
        if i + 2 < bytes.count, bytes[i + 1] == 13, bytes[i + 2] == 10 {
          i += 3
          continue
        }  // soft break
        if i + 2 < bytes.count,
          let value = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
        {
          out.append(value)
          i += 3
          continue
        }
      }
      out.append(bytes[i])
      i += 1
    }
    return out
  }

  /// Decodes `=?charset?B|Q?...?=` words; whitespace between adjacent words is dropped (RFC 2047 §6.2).
  static func decodeEncodedWords(_ value: String) -> String {
    var result = ""
    var pendingBytes: [UInt8] = []
    var pendingSpace = ""
    var rest = Substring(value)
    while let character = rest.first {
      if rest.hasPrefix("=?"), let (bytes, length) = encodedWord(rest) {
        pendingBytes += bytes
        pendingSpace = ""
        rest = rest.dropFirst(length)
        continue
      }
      if (character == " " || character == "\t") && !pendingBytes.isEmpty {
        pendingSpace.append(character)
      } else {
        result += String(decoding: pendingBytes, as: UTF8.self) + pendingSpace
        pendingBytes = []
        pendingSpace = ""
        result.append(character)
      }
      rest = rest.dropFirst()
    }
    return result + String(decoding: pendingBytes, as: UTF8.self) + pendingSpace
  }

  private static func encodedWord(_ text: Substring) -> ([UInt8], Int)? {
    let fields = text.dropFirst(2).split(
      separator: "?", maxSplits: 3, omittingEmptySubsequences: false)
    guard fields.count == 4, fields[3].hasPrefix("=") else { return nil }
    let payload = String(fields[2])
    let length = 2 + fields[0].count + 1 + fields[1].count + 1 + payload.count + 2
    switch fields[1].uppercased() {
    case "B":
      return Data(base64Encoded: payload).map { (Array($0), length) }
    case "Q":
      return (decodeQuotedPrintable(payload.replacingOccurrences(of: "_", with: " ")), length)
    default:
      return nil
    }
  }
}
