import Vapor

/// JSON answers of the API, encoded with `JSONEncoder.api` (snake_case keys, ISO 8601 dates).
enum APIResponse {
  static func json(_ value: some Encodable, status: HTTPResponseStatus = .ok) throws -> Response {
    let response = Response(status: status)
    try response.content.encode(value, using: JSONEncoder.api)
    return response
  }

  /// JSON already written (`ProductJSON`).
  static func json(bytes: Data, status: HTTPResponseStatus = .ok) -> Response {
    var headers = HTTPHeaders()
    headers.contentType = .json
    return Response(status: status, headers: headers, body: .init(data: bytes))
  }

  /// `201 Created` with the new record and a `Location` header naming where it now lives.
  static func created(_ value: some Encodable, location: String) throws -> Response {
    let response = try json(value, status: .created)
    response.headers.replaceOrAdd(name: .location, value: location)
    return response
  }
}

/// The record when the account (or the token's account) owns it; otherwise the API's 404, the
/// same answer as for an id that never existed, so another account's ids reveal nothing.
///
///     let record = try owned(await store.find(id))
func owned<Record>(_ record: Record?) throws -> Record {
  guard let record else { throw APIError.notFound }
  return record
}
