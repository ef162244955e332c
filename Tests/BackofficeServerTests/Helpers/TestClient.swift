import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting

@testable import BackofficeServer

/// A browser stand-in: keeps cookies between requests and sends the CSRF token of the last
/// page it saw with every form, like a real form post would; so too the record version of the
/// last page that had one (the hidden `version` field of edit forms), unless a form names its
/// own.
final class TestClient: Sendable {
  let app: Application
  private let state = NIOLockedValueBox<
    (cookies: [String: String], csrf: String?, version: String?)
  >(([:], nil, nil))

  init(app: Application) { self.app = app }

  var csrf: String? { state.withLockedValue { $0.csrf } }
  var cookies: [String: String] { state.withLockedValue { $0.cookies } }
  /// The record version the last page with an edit form carried.
  var version: String? { state.withLockedValue { $0.version } }

  func forgetCookies() { state.withLockedValue { $0 = ([:], nil, nil) } }

  @discardableResult
  func get(_ path: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
    try await send(.GET, path, headers: headers)
  }

  /// Posts a urlencoded form. `csrf: false` leaves the token out; `csrfToken` overrides it.
  @discardableResult
  func post(
    _ path: String, form: [(String, String)] = [], csrf: Bool = true, csrfToken: String? = nil,
    headers: HTTPHeaders = [:]
  ) async throws -> TestResponse {
    var fields = form
    if csrf, let token = csrfToken ?? self.csrf {
      fields.append((CSRFMiddleware.fieldName, token))
    }
    if !fields.contains(where: { $0.0 == VersionField.name }), let version {
      fields.append((VersionField.name, version))
    }
    var headers = headers
    headers.contentType = .urlEncodedForm
    return try await send(.POST, path, headers: headers, body: formEncode(fields))
  }

  func send(
    _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: String? = nil
  ) async throws -> TestResponse {
    try await send(method, path, headers: headers, bytes: body.map { Data($0.utf8) })
  }

  func send(
    _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], bytes: Data?
  ) async throws -> TestResponse {
    var headers = headers
    // As a browser asks for a page (its pictures and scripts' requests ask for other types).
    if method == .GET, !headers.contains(name: .accept), !path.hasPrefix("/api/") {
      headers.replaceOrAdd(name: .accept, value: "text/html,application/xhtml+xml,*/*;q=0.8")
    }
    let jar = cookies
    if !jar.isEmpty {
      headers.replaceOrAdd(
        name: .cookie, value: jar.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; "))
    }
    let buffer = bytes.map { ByteBuffer(data: $0) }
    let response = try await app.testing().sendRequest(
      method, path, headers: headers, body: buffer)
    let result = TestResponse(
      status: response.status, headers: response.headers,
      body: String(buffer: response.body))
    state.withLockedValue { state in
      for (name, value) in result.setCookies {
        if value.isEmpty { state.cookies[name] = nil } else { state.cookies[name] = value }
      }
      if let token = result.csrfToken { state.csrf = token }
      if let version = result.versionField { state.version = version }
    }
    return result
  }

  // MARK: account shortcuts

  @discardableResult
  func signUp(
    email: String = "user-\(UUID().uuidString.prefix(8).lowercased())@example.com",
    password: String = "correct horse battery", acceptLanguage: String? = nil
  ) async throws -> String {
    try await get("/sign-up")
    var headers = HTTPHeaders()
    if let acceptLanguage { headers.add(name: .acceptLanguage, value: acceptLanguage) }
    let response = try await post(
      "/sign-up", form: [("email", email), ("password", password)], headers: headers)
    #expect(response.status == .seeOther, "sign-up failed: \(response.status) \(response.body)")
    try await applyTestLanguage(email: email)
    try await get("/")
    return email
  }

  func signIn(email: String, password: String = "correct horse battery") async throws
    -> TestResponse
  {
    try await get("/sign-in")
    return try await post("/sign-in", form: [("email", email), ("password", password)])
  }

  /// Creates an API token on the settings page and returns its secret.
  func createToken(name: String = "test") async throws -> String {
    try await get("/settings")
    let response = try await post("/settings/tokens", form: [("name", name)])
    #expect(response.status == .created)
    return try #require(response.firstMatch(#"<code class="secret" id="new-token">([^<]+)</code>"#))
  }
}

struct TestResponse: Sendable {
  var status: HTTPStatus
  var headers: HTTPHeaders
  var body: String

  var location: String? { headers.first(name: .location) }

  var csrfToken: String? { firstMatch(#"name="_csrf" value="([^"]+)""#) }

  /// The hidden record version of the page's forms.
  var versionField: String? { firstMatch(#"name="version" value="([^"]+)""#) }

  var setCookies: [(String, String)] {
    headers[.setCookie].compactMap { line in
      guard let pair = line.split(separator: ";").first,
        let equals = pair.firstIndex(of: "=")
      else { return nil }
      let name = String(pair[..<equals]).trimmingCharacters(in: .whitespaces)
      let value = String(pair[pair.index(after: equals)...])
      return (name, Self.removesCookie(line) ? "" : value)
    }
  }

  /// Whether a `Set-Cookie` line asks the browser to drop the cookie: `Max-Age` zero or less,
  /// or an `Expires` date in 1970. Only the attributes are read, never the value, which is
  /// random and may well contain "1970".
  static func removesCookie(_ line: String) -> Bool {
    line.split(separator: ";").dropFirst().contains { attribute in
      let parts = attribute.split(separator: "=", maxSplits: 1).map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      guard parts.count == 2 else { return false }
      switch parts[0] {
      case "max-age": return (Int(parts[1]) ?? 1) <= 0
      case "expires": return parts[1].contains("1970")
      default: return false
      }
    }
  }

  func firstMatch(_ pattern: String) -> String? {
    guard let regex = try? NSRegularExpression(pattern: pattern),
      let match = regex.firstMatch(in: body, range: NSRange(body.startIndex..., in: body)),
      match.numberOfRanges > 1, let range = Range(match.range(at: 1), in: body)
    else { return nil }
    return String(body[range])
  }

  func json() throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(body.utf8))
    return try #require(object as? [String: Any], "not a JSON object: \(body)")
  }
}

private func formEncode(_ fields: [(String, String)]) -> String {
  var allowed = CharacterSet.alphanumerics
  allowed.insert(charactersIn: "-._~")
  return fields.map { key, value in
    (key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key) + "="
      + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)
  }.joined(separator: "&")
}
