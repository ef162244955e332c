import Foundation

/// An id written the way RFC 9562 asks and the API's addresses already spell it, in lower case
/// (`Location: /api/v1/expenses/31f4c248-…` and `"id": "31f4c248-…"` are the same text). Ids are
/// read in either case.
@propertyWrapper
struct LowercasedID: Codable, Hashable, Sendable {
  var wrappedValue: UUID

  init(wrappedValue: UUID) {
    self.wrappedValue = wrappedValue
  }

  init(from decoder: any Decoder) throws {
    wrappedValue = try decoder.singleValueContainer().decode(UUID.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue.uuidString.lowercased())
  }
}
