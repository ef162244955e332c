import Vapor

extension Request {
  /// The request's cookies, read from its `Cookie` header once. Vapor's `cookies` parses the
  /// header again on every access, and the flash, session and CSRF checks of a page each ask.
  var cookieJar: HTTPCookies {
    let state = kept
    if let parsed = state.read({ $0.cookieJar }) { return parsed }
    let parsed = cookies
    state.change { $0.cookieJar = parsed }
    return parsed
  }
}
