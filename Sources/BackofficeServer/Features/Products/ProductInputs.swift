import BackofficeCore
import Foundation
import Vapor

/// What is wrong with a submitted product: one message per field (form field names: name, type,
/// price, tax, photo), and whether the photo was over the size limit (413 instead of 422).
struct ProductProblems: Sendable, Equatable {
  var fields: [String: String] = [:]
  var photoTooLarge = false

  var isEmpty: Bool { fields.isEmpty }
  var status: HTTPResponseStatus { photoTooLarge ? .payloadTooLarge : .unprocessableEntity }

  mutating func add(_ error: ProductValidationError) {
    for (field, message) in error.fieldErrors { fields[field.rawValue] = message }
  }

  mutating func add(photo error: ImageUploadError) {
    fields[PhotoInput.field] = error.message
    if case .tooLarge = error { photoTooLarge = true }
  }

  /// The API error: 413 when the photo is too large, else 422; both list every field.
  var apiError: APIError {
    photoTooLarge
      ? APIError(
        .payloadTooLarge, code: "payload_too_large",
        message: fields[PhotoInput.field] ?? L("products.upload_too_large"),
        fields: fields)
      : APIError.validation(fields)
  }
}

enum PhotoInput {
  static let field = "photo"
  static var notBase64: String { L("products.api.photo_not_base64") }

  /// A file part: empty (the file input left blank) means no photo.
  static func file(_ file: File?, maxBytes: Int) -> Result<CheckedPhoto?, ImageUploadError> {
    guard let file, file.data.readableBytes > 0 else { return .success(nil) }
    return CheckedPhoto.check(Data(file.data.readableBytesView), maxBytes: maxBytes).map { $0 }
  }

  /// A JSON string: plain base64 or a `data:image/…;base64,` URL; nil or "" means no photo.
  static func base64(_ text: String?, maxBytes: Int) -> Result<CheckedPhoto?, PhotoInputError> {
    guard var text, !text.isEmpty else { return .success(nil) }
    if text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") {
      text = String(text[text.index(after: comma)...])
    }
    // Line breaks (MIME-style base64) are fine; anything else outside the alphabet is not.
    text.removeAll { $0.isWhitespace }
    guard let data = Data(base64Encoded: text) else {
      return .failure(.notBase64)
    }
    return CheckedPhoto.check(data, maxBytes: maxBytes).map { $0 }.mapError { .image($0) }
  }
}

enum PhotoInputError: Error {
  case notBase64
  case image(ImageUploadError)
}
