import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

/// The spec's link examples, and the messages the original app shows.
enum AdPaymentExamples {
  static let validURLs = [
    "https://www.google.com", "http://example.org", "https://example.com/path?q=1",
    "https://приклад.укр",
  ]
  static let invalidURLs = [
    "http://google", "https://invalid.", "http://test", "ftp://x.com", "http://1.2.3.4",
    "http://-a.com",
  ]
  static let blankName = "Name cannot be blank."
  static let invalidURL = "Please enter a valid URL (e.g., https://www.example.com)"
}

extension TestClient {
  /// Adds an entry through the form and returns its id.
  @discardableResult
  func addAdPayment(name: String, url: String, db: any Database) async throws -> UUID {
    try await get("/ad-payments/new")
    let response = try await post("/ad-payments", form: [("name", name), ("url", url)])
    #expect(response.status == .seeOther, "add failed: \(response.status) \(response.body)")
    try await get("/ad-payments")
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    let entry = try await AdPaymentTable.query(on: db).filter(\.$name == trimmed)
      .sort(\.$createdAt, .descending).first()
    return try #require(entry?.id)
  }

  /// Posts a multipart form with one file field, as a browser's upload form does.
  func upload(
    _ path: String, file: Data, filename: String = "payments.csv",
    fields: [(String, String)] = [], csrf: Bool = true
  ) async throws -> TestResponse {
    let boundary = "----backoffice-test-\(UUID().uuidString)"
    var body = Data()
    var all = fields
    if csrf, let token = self.csrf { all.append((CSRFMiddleware.fieldName, token)) }
    for (name, value) in all {
      body.append(
        Data(
          "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            .utf8))
    }
    body.append(
      Data(
        ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; "
          + "filename=\"\(filename)\"\r\nContent-Type: text/csv\r\n\r\n").utf8))
    body.append(file)
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
    return try await send(.POST, path, headers: headers, bytes: body)
  }

  /// A JSON request to the API with a bearer token.
  func api(
    _ method: HTTPMethod, _ path: String, token: String?, json: String? = nil,
    headers extra: HTTPHeaders = [:]
  ) async throws -> TestResponse {
    var headers = extra
    if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
    if json != nil { headers.replaceOrAdd(name: .contentType, value: "application/json") }
    return try await send(method, path, headers: headers, body: json)
  }
}

extension TestResponse {
  /// The text of the error slot under a form field ("" when it is empty).
  func fieldError(_ field: String) -> String? {
    firstMatch(#"id="field-\#(field)-error"[^>]*>([^<]*)</p>"#)
  }

  /// The value attribute of a form input.
  func inputValue(_ field: String) -> String? {
    firstMatch(#"id="field-\#(field)"[^>]*value="([^"]*)""#)
  }

  /// Names in the list, in page order.
  var listedNames: [String] {
    guard
      let regex = try? NSRegularExpression(
        pattern: #"<strong class="ad-payment-name">([^<]*)</strong>"#)
    else { return [] }
    return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
      Range($0.range(at: 1), in: body).map { String(body[$0]) }
    }
  }
}

/// Makes the next INSERT or UPDATE of an ad payment fail inside the database, the way a full
/// disk or a lost connection would.
func failAdPaymentWrites(_ t: TestApp, on event: String) async throws {
  let sql = try t.db.sql()
  if isPostgresRun {
    try await sql.raw(
      """
      CREATE FUNCTION ad_payments_refuse() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql
      """
    ).run()
    try await sql.raw(
      """
      CREATE TRIGGER ad_payments_refuse BEFORE \(unsafeRaw: event) ON ad_payments
      FOR EACH ROW EXECUTE FUNCTION ad_payments_refuse()
      """
    ).run()
  } else {
    try await sql.raw(
      """
      CREATE TRIGGER ad_payments_refuse BEFORE \(unsafeRaw: event) ON ad_payments
      BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
      """
    ).run()
  }
}
