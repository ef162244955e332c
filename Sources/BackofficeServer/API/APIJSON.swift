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
