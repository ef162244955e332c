import BackofficeCore
import Vapor

/// An error for the JSON API, turned into the error envelope by `AppErrorMiddleware`.
struct APIError: AbortError {
  var status: HTTPResponseStatus
  var code: String
  var message: String
  var fields: [String: String]

  init(
    _ status: HTTPResponseStatus, code: String, message: String, fields: [String: String] = [:]
  ) {
    self.status = status
    self.code = code
    self.message = message
    self.fields = fields
  }

  var reason: String { message }

  static func validation(_ fields: [String: String]) -> APIError {
    APIError(
      .unprocessableEntity, code: "validation_failed",
      message: L("api.validation_failed"), fields: fields)
  }

  static var notFound: APIError {
    APIError(.notFound, code: "not_found", message: L("api.not_found"))
  }

  /// An `If-Match` that does not name the record's current version: someone changed it since
  /// the client read it. `record` is "The product", "The expense", …
  static func preconditionFailed(_ record: String) -> APIError {
    APIError(
      .preconditionFailed, code: "precondition_failed",
      message: L("api.precondition_failed", ["record": record]))
  }

  /// A versioned write that found nothing to change: the record was deleted meanwhile (404) or
  /// changed by another write that got in first (412).
  static func lostWrite(stillThere: Bool, record: String) -> APIError {
    stillThere ? preconditionFailed(record) : notFound
  }
}

/// The one JSON shape every API error has.
struct ErrorEnvelope: Content {
  struct Body: Codable {
    var code: String
    var message: String
    var fields: [String: String]?
  }
  var error: Body
}
