import BackofficeCore
import Foundation

/// Where a redirect from `url` leads, if it stays on the same scheme, host and port. Outgoing
/// requests (the catalog, Monobank) go to one configured place; following a redirect to any
/// other host would let that place steer the server at addresses it was never meant to reach.
enum SameOriginRedirect {
  static func target(of url: String, location: String?) throws(MarketingFetchFailure) -> String {
    guard let location, let base = URL(string: url),
      let next = URL(string: location, relativeTo: base)?.absoluteURL
    else {
      throw .error(message: L("errors.redirect.no_location", ["url": url]))
    }
    guard next.scheme?.lowercased() == base.scheme?.lowercased(),
      next.host?.lowercased() == base.host?.lowercased(),
      (next.port ?? defaultPort(next.scheme)) == (base.port ?? defaultPort(base.scheme))
    else {
      throw .error(
        message: L("errors.redirect.other_host", ["url": url, "host": next.host ?? "?"]))
    }
    return next.absoluteString
  }

  private static func defaultPort(_ scheme: String?) -> Int? {
    switch scheme?.lowercased() {
    case "http": 80
    case "https": 443
    default: nil
    }
  }
}
