import BackofficeCore
import Vapor

extension Request {
  /// The language this request's texts are in: the account's choice, else the browser's
  /// `Accept-Language`, else English.
  var uiLanguage: UILanguage {
    if let chosen = signedInUser?.uiLanguage.flatMap(UILanguage.init(code:)) {
      return chosen
    }
    return UILanguage.bestMatch(acceptLanguage: headers.first(name: .acceptLanguage) ?? "")
  }
}

/// Runs the rest of the chain in the request's interface language, so texts made before a
/// route's handler runs (a refused sign-in, a CSRF failure) are in it too. Route handlers set
/// it again once the account is known (`RoutesBuilder.on`).
struct LanguageMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    try await UILanguage.$current.withValue(request.uiLanguage) {
      try await next.respond(to: request)
    }
  }
}
