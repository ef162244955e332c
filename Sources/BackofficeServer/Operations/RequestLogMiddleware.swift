import Foundation
import Vapor

/// One log line per request, written when its answer is ready: the client's address (after
/// trusted proxies), method, route template (never the path of a matched route, so ids and
/// invitation or reset tokens stay out of logs), status and duration. Requests no route
/// matched (static files, 404s) name their path, without the query and at most 200 characters.
struct RequestLogMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let start = DispatchTime.now().uptimeNanoseconds
    do {
      let response = try await next.respond(to: request)
      Self.log(request, status: response.status.code, since: start)
      return response
    } catch {
      Self.log(request, status: (error as? any AbortError)?.status.code ?? 500, since: start)
      throw error
    }
  }

  static func log(_ request: Request, status: UInt, since start: UInt64) {
    let logger = request.logger
    guard logger.logLevel <= .info else { return }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- start) / 1_000_000
    let milliseconds = (elapsed * 100).rounded() / 100
    var fields: Logger.Metadata = [
      "client": .string(request.clientAddress),
      "method": .string(request.method.rawValue),
      "status": .stringConvertible(Int(status)),
      "duration_ms": .stringConvertible(milliseconds),
    ]
    if let route = request.route {
      fields["route"] = .string("/" + route.path.map(\.description).joined(separator: "/"))
    } else {
      fields["path"] = .string(String(request.url.path.prefix(200)))
    }
    logger.info("request", metadata: fields)
  }
}
