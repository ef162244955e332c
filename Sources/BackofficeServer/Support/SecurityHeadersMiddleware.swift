import Vapor

/// Headers on every response. Scripts come only from this origin, never inline.
struct SecurityHeadersMiddleware: AsyncMiddleware {
  static let contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].joined(separator: "; ")

  /// Added unless the answer set its own (made once, not for every answer).
  static let headers = [
    ("Content-Security-Policy", contentSecurityPolicy),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
  ]

  /// Sent only when the server is known to be reached over HTTPS (`BACKOFFICE_SECURE_COOKIES`):
  /// on plain HTTP it would lock browsers out of a server that has no certificate.
  var strictTransportSecurity = false
  static let hstsValue = "max-age=31536000"

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let response = try await next.respond(to: request)
    // Changed as one copy: each change through `response.headers` copies them all again.
    var headers = response.headers
    headers.reserveCapacity(headers.count + Self.headers.count + 1)
    if strictTransportSecurity {
      headers.replaceOrAdd(name: "Strict-Transport-Security", value: Self.hstsValue)
    }
    for (name, value) in Self.headers where !headers.contains(name: name) {
      headers.add(name: name, value: value)
    }
    response.headers = headers
    return response
  }
}
