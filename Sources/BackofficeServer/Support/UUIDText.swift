import Foundation

/// Ids as the database keeps them (36 characters of text) read and written without
/// Foundation's `UUID(uuidString:)` and `uuidString`, which go through `sscanf` and `snprintf`:
/// a listing reads and writes one per product.
enum UUIDText {
  /// The id in `text` (`8-4-4-4-12` hexadecimal digits, either case), or nil.
  static func parse(_ text: String) -> UUID? {
    var text = text
    return text.withUTF8 { parse($0) }
  }

  /// The id in `bytes` (UTF-8 text, as SQLite hands a column's text over), or nil.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
    guard bytes.count == 36 else { return nil }
    var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return withUnsafeMutableBytes(of: &value) { out -> UUID? in
      var index = 0
      var byte = 0
      while byte < 16 {
        if index == 8 || index == 13 || index == 18 || index == 23 {
          guard bytes[index] == UInt8(ascii: "-") else { return nil }
          index += 1
        }
        guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else {
          return nil
        }
        out[byte] = high << 4 | low
        byte += 1
        index += 2
      }
      return UUID(uuid: out.load(as: uuid_t.self))
    }
  }

  /// Appends the id in lower case, as the API writes ids.
  static func writeLowercased(_ id: UUID, into out: inout [UInt8]) {
    write(id, digits: "0123456789abcdef", into: &out)
  }

  /// The id in upper case, as `uuidString` writes it (and the model layer stores it), without
  /// Foundation's `snprintf`.
  static func uppercased(_ id: UUID) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(36)
    write(id, digits: "0123456789ABCDEF", into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  private static func write(_ id: UUID, digits: StaticString, into out: inout [UInt8]) {
    withUnsafeBytes(of: id.uuid) { bytes in
      digits.withUTF8Buffer { hex in
        for (index, byte) in bytes.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
          out.append(hex[Int(byte >> 4)])
          out.append(hex[Int(byte & 0x0F)])
        }
      }
    }
  }

  private static func nibble(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
