import BackofficeCore
import Foundation

extension JSONEncoder {
  /// snake_case keys and ISO 8601 dates, as the API promises.
  static let api: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()
}

extension JSONDecoder {
  /// Reads snake_case keys and ISO 8601 dates, the same conventions as `JSONEncoder.api`.
  static let api: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()
}

/// A JSON object written field by field, in the order given (callers give the keys sorted, as
/// `JSONEncoder.api` writes them): for answers written often, without the encoder's containers.
struct JSONObjectWriter {
  var out: [UInt8]
  var first = true

  init(out: [UInt8]) {
    self.out = out
    self.out.append(UInt8(ascii: "{"))
  }

  /// A key is a literal of plain ASCII letters and underscores: written as it is.
  mutating func field(_ name: StaticString, value: (inout [UInt8]) -> Void) {
    let key = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    assert(key.allSatisfy { (97...122).contains($0) || $0 == UInt8(ascii: "_") })
    if !first { out.append(UInt8(ascii: ",")) }
    first = false
    out.append(UInt8(ascii: "\""))
    out.append(contentsOf: key)
    out.append(UInt8(ascii: "\""))
    out.append(UInt8(ascii: ":"))
    value(&out)
  }

  mutating func field(_ name: StaticString, string: String) {
    field(name) { JSONText.write(string, escapingSlashes: true, into: &$0) }
  }

  /// An id in lower case, as the API writes ids.
  mutating func field(_ name: StaticString, id: UUID) {
    field(name) { out in
      out.append(UInt8(ascii: "\""))
      UUIDText.writeLowercased(id, into: &out)
      out.append(UInt8(ascii: "\""))
    }
  }

  mutating func field(_ name: StaticString, raw: String) {
    field(name) { $0.append(contentsOf: raw.utf8) }
  }

  mutating func close() -> [UInt8] {
    out.append(UInt8(ascii: "}"))
    return out
  }
}
