import BackofficeCore
import Vapor

/// Every state-changing request made with a session cookie must carry the session's token,
/// either as the `_csrf` form field or as the `X-CSRF-Token` header (for scripts). Forms shown
/// to signed-out visitors (sign-in, sign-up) are checked against a token kept in a cookie of
/// its own, so no session row is stored for them. API requests authenticated by a bearer
/// token, or not authenticated at all, are left to the API's own check.
struct CSRFMiddleware: RouteScopedMiddleware {
  /// Only requests that change something need the token.
  func passesOn(everyRequestOf route: Route) -> Bool { route.takesOnlySafeMethods }

  static let fieldName = "_csrf"
  static let headerName = "X-CSRF-Token"

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    switch request.method {
    case .GET, .HEAD, .OPTIONS, .TRACE:
      return try await next.respond(to: request)
    default:
      break
    }
    // No route answers this method and path, so nothing can change; the router says 404/405.
    guard
      let route = request.application.routeTable.route(
        method: request.method, path: request.urlPath)
    else { return try await next.respond(to: request) }
    // API calls need the token only when the session cookie is what signs them in; without a
    // signed-in session the API answers 401 itself.
    if request.urlPath.hasPrefix("/api/"),
      request.headers.bearerToken != nil || request.signedInUser == nil
    {
      return try await next.respond(to: request)
    }
    let expected = request.browserSession?.csrf ?? AnonymousCSRF.fromCookie(request)
    guard let expected else { throw CSRFError() }
    // `BodyLimitMiddleware` has read the body by now, whatever its size.
    let sent =
      request.headers.first(name: Self.headerName)
      ?? (try? request.content.get(String.self, at: Self.fieldName))
    guard let sent else { throw CSRFError() }
    let token = FormWorkspace.read(sent)
    guard constantTimeEquals(token.secret, expected) else { throw CSRFError() }
    try await FormWorkspace.check(request, route: route, sentFrom: token.workspace)
    return try await next.respond(to: request)
  }
}

struct CSRFError: AbortError {
  var status: HTTPResponseStatus { .forbidden }
  var reason: String {
    L("auth.csrf.expired")
  }
}

/// The CSRF token of a signed-out browser: a random value in a cookie, which the form repeats.
enum AnonymousCSRF {
  static let cookieName = "backoffice_csrf"

  static func fromCookie(_ request: Request) -> String? {
    guard let value = request.cookieJar[cookieName]?.string,
      SessionMiddleware.looksLikeSecret(value)
    else { return nil }
    return value
  }
}

extension Request {
  /// The token forms and scripts send back: the session's, or for a signed-out browser the one
  /// in its CSRF cookie (created on first use and sent with the response).
  var csrfToken: String {
    if let session = browserSession {
      return FormWorkspace.token(session.csrf, workspace: workspaceContext?.id)
    }
    if let token = sessionState.newAnonymousCSRF ?? AnonymousCSRF.fromCookie(self) {
      return token
    }
    let token = randomToken(clients)
    sessionState.newAnonymousCSRF = token
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
