import Crypto
import Foundation
import Vapor

/// `GET /metrics`: the process's metrics in Prometheus's text format (`AppMetrics`), for the
/// configured addresses or with the token (docs/platform.md, "Metrics").
struct MetricsController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.metrics, use: metrics)
  }

  @Sendable func metrics(req: Request) async throws -> Response {
    switch MetricsGate.decide(req, access: req.application.config.metrics) {
    case .allowed:
      var headers = HTTPHeaders()
      headers.contentType = HTTPMediaType(
        type: "text", subType: "plain",
        parameters: ["version": "0.0.4", "charset": "utf-8"])
      headers.cacheControl = .init(noStore: true)
      let bytes = AppMetrics.shared.exposition()
      return Response(status: .ok, headers: headers, body: .init(buffer: ByteBuffer(bytes: bytes)))
    case .tokenNeeded:
      return Response(
        status: .unauthorized,
        headers: ["WWW-Authenticate": "Bearer", "Cache-Control": "no-store"],
        body: .init(string: "Metrics need the token of BACKOFFICE_METRICS_TOKEN.\n"))
    case .refused:
      return Response(
        status: .forbidden, headers: ["Cache-Control": "no-store"],
        body: .init(
          string: "Metrics are served only to the addresses of BACKOFFICE_METRICS_ALLOW.\n"))
    }
  }
}

/// Who may read the metrics.
enum MetricsGate {
  enum Decision: Equatable { case allowed, tokenNeeded, refused }

  /// Allowed with the configured token (`Authorization: Bearer …`), or from an allowed client
  /// address. The address is the client's after trusted proxies; a request that names a client
  /// in forwarding headers but comes from a proxy that is not trusted is refused, because
  /// every request through such a proxy (nginx on the same machine, say) would otherwise count
  /// as coming from the proxy's loopback address.
  static func decide(_ req: Request, access: MetricsAccess) -> Decision {
    if let token = access.token, let presented = req.headers.bearerToken {
      return matches(presented, token) ? .allowed : .tokenNeeded
    }
    let trusted = req.application.config.trustedProxies
    let peer = req.remoteAddress.flatMap(IPAddress.init)
    let forwarded = ["X-Forwarded-For", "Forwarded", "X-Real-IP"].contains {
      req.headers.contains(name: $0)
    }
    let fromTrustedProxy = peer.map { !trusted.isEmpty && trusted.contains($0) } ?? false
    if !forwarded || fromTrustedProxy, let client = IPAddress(req.clientAddress),
      access.allowed.contains(client)
    {
      return .allowed
    }
    return access.token == nil ? .refused : .tokenNeeded
  }

  /// Compares digests, so the time taken says nothing about how much of the token matched.
  private static func matches(_ presented: String, _ token: String) -> Bool {
    SHA256.hash(data: Data(presented.utf8)) == SHA256.hash(data: Data(token.utf8))
  }
}
