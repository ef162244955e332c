import Vapor

/// Where absolute URLs of this server come from.
///
/// A page anyone may load (the public fundraiser pages) writes absolute URLs only from
/// `BACKOFFICE_PUBLIC_URL`: a `Host` header is whatever the client typed, and such a page is
/// marked for shared caches, so one request with `Host: evil.example` would otherwise plant
/// that host in the copy everyone gets. An answer for one signed-in person (an invitation
/// link, the Swipe API's photo addresses, the CSV export) also prefers the setting, and
/// without it names the address that person reached the server at.
enum PublicAddress {
  /// `host`, when it is a name or address with an optional port and nothing else.
  static func printableHost(_ host: String) -> String? {
    guard !host.isEmpty, host.utf8.count <= 255,
      host.unicodeScalars.allSatisfy({
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "." || $0 == "-" || $0 == ":" || $0 == "[" || $0 == "]"
      })
    else { return nil }
    return host
  }
}

extension Request {
  /// `BACKOFFICE_PUBLIC_URL` (`https://backoffice.example.org`), or nil when it is not set.
  var configuredPublicURL: String? { application.config.publicURL }

  /// This server's root for an absolute URL in an answer to one signed-in person:
  /// `BACKOFFICE_PUBLIC_URL`, else the request's `Host` (never echoed unless it is a plain host
  /// name or address with an optional port: it could break out of the attribute or JSON string
  /// it is printed in) with `https` when a trusted proxy said the client used https or the
  /// cookies are `Secure`. Never for a page anyone can load: those use `configuredPublicURL`.
  var publicBaseURL: String {
    if let configured = configuredPublicURL { return configured }
    let https = clientOrigin.scheme == .https || config.secureCookies
    let host = headers.first(name: .host).flatMap(PublicAddress.printableHost) ?? "127.0.0.1:8080"
    return "\(https ? "https" : "http")://\(host)"
  }
}
