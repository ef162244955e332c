import Vapor

/// `/api/v1/me`: who a token belongs to, and their formatting settings.
struct AccountAPIController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.apiMe, use: me)
  }

  struct Me: Content {
    @LowercasedID var id: UUID
    var email: String
    var locale: String
    var currency: String
  }

  @Sendable func me(req: Request) async throws -> Response {
    let user = try req.user
    return try APIResponse.json(
      Me(id: try user.requireID(), email: user.email, locale: user.locale, currency: user.currency))
  }
}
