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
      message: "Some fields are not valid.", fields: fields)
  }

  static let notFound = APIError(.notFound, code: "not_found", message: "Not found.")
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
