import Vapor

/// The query's plain values by name, parsed once per request.
///
/// Each `req.queryValue(name)` parses the whole query string again with Vapor's
/// form decoder; a list endpoint asks for five or six names, and that parsing was an eighth of
/// a cached list answer's cost. This decodes the query once, with the same decoder, so every
/// value (percent and `+` decoding, the last of repeated names, nothing for `name[x]=`) is
/// exactly what `req.query` gives.
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
  private struct QueryValuesKey: StorageKey {
    typealias Value = QueryValues
  }

  /// The query's value named `name`, as `query[String.self, at: name]` reads it.
  func queryValue(_ name: String) -> String? {
    if let parsed = storage[QueryValuesKey.self] { return parsed.values[name] }
    let parsed = (try? query.decode(QueryValues.self)) ?? QueryValues()
    storage[QueryValuesKey.self] = parsed
    return parsed.values[name]
  }
}
