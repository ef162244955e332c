import BackofficeCore
import Crypto
import Foundation
import Vapor

/// An uploaded photo that passed the checks: JPEG or PNG by its bytes, within the size limit,
/// with a readable header. Stored exactly as received.
struct CheckedPhoto: Sendable {
  var data: Data
  var info: ImageInfo
  /// Hex SHA-256 of the bytes: the photo's ETag.
  var sha256: String

  static func check(_ data: Data, maxBytes: Int) -> Result<CheckedPhoto, ImageUploadError> {
    ImageUpload.validate(data, maxBytes: maxBytes).map { info in
      CheckedPhoto(data: data, info: info, sha256: sha256Hex(data))
    }
  }
}

extension CheckedPhoto {
  /// The photo without what the camera wrote beside the picture (`ImageMetadata`): the place it
  /// was taken above all. Itself when nothing was taken out or the result would not check.
  var withoutMetadata: CheckedPhoto {
    let stripped = ImageMetadata.stripped(data)
    guard stripped != data,
      case .success(let checked) = CheckedPhoto.check(stripped, maxBytes: Int.max),
      checked.info.dimensions == info.dimensions
    else { return self }
    return checked
  }
}

func sha256Hex(_ data: Data) -> String {
  hexString(SHA256.hash(data: data))
}

extension ImageUploadError {
  /// Too large is 413; everything else about the file is a validation failure.
  var status: HTTPResponseStatus {
    if case .tooLarge = self { return .payloadTooLarge }
    return .unprocessableEntity
  }
}

/// Serving a stored photo: the ETag is its SHA-256, so a browser revalidates with a cheap 304;
/// a URL carrying the current version (`?v=`) never changes and may be cached for a year.
enum PhotoResponse {
  static func make(_ photo: StoredPhoto, request: Request) -> Response {
    make(data: photo.data, mime: photo.mime, sha256: photo.sha256, request: request)
  }

  /// Any stored picture by its bytes, type and hex SHA-256.
  static func make(data: Data, mime: String, sha256: String, request: Request) -> Response {
    let etag = "\"\(sha256)\""
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .eTag, value: etag)
    let versioned = request.queryValue("v").map { !$0.isEmpty && sha256.hasPrefix($0) } ?? false
    headers.replaceOrAdd(
      name: .cacheControl,
      value: versioned ? "private, max-age=31536000, immutable" : "private, no-cache")
    if matches(request.headers.first(name: .ifNoneMatch), etag: etag) {
      return Response(status: .notModified, headers: headers)
    }
    headers.replaceOrAdd(name: .contentType, value: mime)
    return Response(status: .ok, headers: headers, body: .init(data: data))
  }

  /// `If-None-Match` holds a list of (possibly weak) tags or `*`.
  static func matches(_ header: String?, etag: String) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { part in
      var tag = part.trimmingCharacters(in: .whitespaces)
      if tag == "*" { return true }
      if tag.hasPrefix("W/") { tag.removeFirst(2) }
      return tag == etag
    }
  }

  /// The version query a page puts on a photo URL: the first 16 hex digits of its hash.
  static func version(_ etag: String) -> String { String(etag.prefix(16)) }
}
