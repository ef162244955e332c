import Vapor

/// Every state-changing request made with a session cookie must carry the session's token,
/// either as the `_csrf` form field or as the `X-CSRF-Token` header (for scripts). API requests
/// authenticated by a bearer token, or not authenticated at all, are left to the API's own check.
struct CSRFMiddleware: AsyncMiddleware {
  static let fieldName = "_csrf"
  static let headerName = "X-CSRF-Token"

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    switch request.method {
    case .GET, .HEAD, .OPTIONS:
      return try await next.respond(to: request)
    default:
      break
    }
    // API calls need the token only when the session cookie is what signs them in; without a
    // signed-in session the API answers 401 itself.
    if request.url.path.hasPrefix("/api/"),
      request.headers.bearerAuthorization != nil || !request.auth.has(User.self)
    {
      return try await next.respond(to: request)
    }
    guard let expected = request.hasSession ? request.session.data[SessionKeys.csrf] : nil else {
      throw CSRFError()
    }
    var sent = request.headers.first(name: Self.headerName)
    if sent == nil {
      // A body larger than one network read (a form with a photo) is still streaming here,
      // before the route collects it; read it now so the form field can be checked.
      if request.body.data == nil {
        _ = try await request.body.collect(max: request.application.routes.defaultMaxBodySize.value)
          .get()
      }
      sent = try? request.content.get(String.self, at: Self.fieldName)
    }
    guard let sent, constantTimeEquals(sent, expected) else { throw CSRFError() }
    return try await next.respond(to: request)
  }
}

struct CSRFError: AbortError {
  var status: HTTPResponseStatus { .forbidden }
  var reason: String {
    "This form has expired or was sent from another site. Reload the page and try again."
  }
}

extension Request {
  /// The session's CSRF token, created on first use.
  var csrfToken: String {
    if let token = session.data[SessionKeys.csrf] { return token }
    let token = randomToken(clients)
    session.data[SessionKeys.csrf] = token
    return token
  }
}

func constantTimeEquals(_ a: String, _ b: String) -> Bool {
  let x = Array(a.utf8)
  let y = Array(b.utf8)
  guard x.count == y.count else { return false }
  var difference: UInt8 = 0
  for index in x.indices { difference |= x[index] ^ y[index] }
  return difference == 0
}
