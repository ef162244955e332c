import Foundation
import Vapor

/// A record's version as an HTTP entity tag: strong and quoted, `"7"`.
enum RecordETag {
  static func value(_ version: Int) -> String { "\"\(version)\"" }
}

extension Response {
  /// Sends `ETag: "<version>"`, so a client can send it back in `If-Match`.
  @discardableResult
  func withVersion(_ version: Int) -> Response {
    headers.replaceOrAdd(name: .eTag, value: RecordETag.value(version))
    return self
  }
}

/// The `If-Match` precondition of an API write (RFC 9110, 13.1.1): absent (last write wins,
/// as before versions existed), `*` (any current version), or a list of entity tags compared
/// strongly, so a weak tag (`W/"3"`) or anything that is not a quoted tag never matches.
enum IfMatch: Equatable, Sendable {
  case absent
  case any
  case tags([String])

  init(_ headers: HTTPHeaders) {
    let values = headers[.ifMatch]
    guard !values.isEmpty else {
      self = .absent
      return
    }
    let joined = values.joined(separator: ",")
    if joined.trimmingCharacters(in: .whitespaces) == "*" {
      self = .any
      return
    }
    self = .tags(Self.strongTags(joined))
  }

  /// The opaque parts of the strong tags in a field value; malformed members are left out.
  static func strongTags(_ value: String) -> [String] {
    var tags: [String] = []
    var rest = Substring(value)
    while !rest.isEmpty {
      rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
      guard !rest.isEmpty else { break }
      let weak = rest.hasPrefix("W/")
      if weak { rest = rest.dropFirst(2) }
      guard rest.first == "\"" else {
        // Not an entity tag: skip to the next member.
        rest = rest.drop { $0 != "," }
        continue
      }
      let body = rest.dropFirst()
      guard let end = body.firstIndex(of: "\"") else { break }
      if !weak { tags.append(String(body[..<end])) }
      rest = body[body.index(after: end)...]
    }
    return tags
  }

  /// The version a write must still find, given the record's `current` one: nil to write
  /// whatever the version is (no header, or `*`). A list that does not name `current` is a
  /// 412 `precondition_failed`; `record` names the record in its message ("The product").
  func expectedVersion(current: Int, record: String) throws -> Int? {
    switch self {
    case .absent, .any: return nil
    case .tags(let tags):
      guard tags.contains(String(current)) else { throw APIError.preconditionFailed(record) }
      return current
    }
  }
}
