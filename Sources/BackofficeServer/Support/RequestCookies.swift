import Vapor

extension Request {
  /// The request's cookies, read from its `Cookie` header once. Vapor's `cookies` parses the
  /// header again on every access, and the flash, session and CSRF checks of a page each ask.
  var cookieJar: HTTPCookies {
    if let parsed = storage[CookieJarKey.self] { return parsed }
    let parsed = cookies
    storage[CookieJarKey.self] = parsed
    return parsed
  }
}

private struct CookieJarKey: StorageKey {
  typealias Value = HTTPCookies
}
