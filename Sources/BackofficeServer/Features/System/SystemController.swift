import Fluent
import SQLKit
import Vapor

/// Liveness and readiness for load balancers and orchestrators.
struct SystemController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.health, use: health)
    routes.on(Routes.ready, use: ready)
  }

  struct Status: Content {
    var status: String
  }

  @Sendable func health(req: Request) async throws -> Status {
    Status(status: "ok")
  }

  @Sendable func ready(req: Request) async throws -> Response {
    do {
      try await DatabaseHealth.check(req.db)
      return try await Status(status: "ready").encodeResponse(for: req)
    } catch {
      req.logger.warning("readiness check failed: \(String(describing: error))")
      let response = try await Status(status: "database unavailable").encodeResponse(for: req)
      response.status = .serviceUnavailable
      return response
    }
  }
}
