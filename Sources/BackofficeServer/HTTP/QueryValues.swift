import Vapor

/// The query's plain values by name, parsed once per request.
///
/// Each `req.queryValue(name)` parses the whole query string again with Vapor's
/// form decoder; a list endpoint asks for five or six names, and that parsing was an eighth of
/// a cached list answer's cost. This reads the query once, with the same rules, so every
/// value (percent and `+` decoding, the last of repeated names, nothing for `name[x]=`) is
/// exactly what `req.query` gives. Plain queries (no brackets) are read by `parsePlain` below,
/// which does the decoder's work without its containers; anything else goes through Vapor's
/// decoder itself. A test compares both over thousands of generated queries.
struct QueryValues: Decodable, Sendable {
  var values: [String: String] = [:]

  private struct Name: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init() {}

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Name.self)
    for name in container.allKeys {
      if let value = try? container.decode(String.self, forKey: name) {
        values[name.stringValue] = value
      }
    }
  }
}

extension Request {
  /// The query's value named `name`, as `query[String.self, at: name]` reads it.
  func queryValue(_ name: String) -> String? {
    let state = kept
    if let value = state.read({ $0.queryValues.map { $0.values[name] } }) { return value }
    let parsed =
      QueryValues.parsePlain(urlQuery ?? "")
      ?? (try? query.decode(QueryValues.self)) ?? QueryValues()
    state.change { $0.queryValues = parsed }
    return parsed.values[name]
  }
}

extension QueryValues {
  /// A query without nested names read the way Vapor's form decoder reads it, or nil when it
  /// has brackets (then the decoder itself reads it). The decoder turns `+` into `%20` before
  /// percent-decoding, keeps the last value of a repeated name, drops a value whose
  /// percent-encoding is broken, ignores pairs without `=` or with an empty name, and reads
  /// nothing at all when a name's percent-encoding is broken.
  static func parsePlain(_ query: String) -> QueryValues? {
    var result = QueryValues()
    let bytes = query.utf8
    var start = bytes.startIndex
    // Pairs between `&`s, empty ones skipped, without an array of them.
    while start < bytes.endIndex {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
      let pair = bytes[start..<end]
      start = end < bytes.endIndex ? bytes.index(after: end) : end
      if pair.isEmpty { continue }
      if pair.contains(UInt8(ascii: "[")) || pair.contains(UInt8(ascii: "]")) { return nil }
      guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let rawName = pair[pair.startIndex..<equals]
      guard let name = decode(rawName) else { return QueryValues() }
      if name.utf8.contains(UInt8(ascii: "[")) { return nil }
      guard !name.isEmpty else { continue }
      result.values[name] = decode(pair[pair.index(after: equals)...])
    }
    return result
  }

  /// `+` as a space and `%XX` as its byte; nil for a broken escape or bytes that are not UTF-8
  /// (as `removingPercentEncoding` answers).
  static func decode(_ raw: Substring.UTF8View.SubSequence) -> String? {
    if !raw.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) {
      return String(Substring(raw))
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(raw.count)
    var index = raw.startIndex
    while index < raw.endIndex {
      let byte = raw[index]
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%") {
        let first = raw.index(after: index)
        guard first < raw.endIndex, raw.index(after: first) < raw.endIndex,
          let high = hexValue(raw[first]), let low = hexValue(raw[raw.index(after: first)])
        else { return nil }
        bytes.append(high << 4 | low)
        index = raw.index(after: raw.index(after: first))
        continue
      } else {
        bytes.append(byte)
      }
      index = raw.index(after: index)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
