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

    /// The answer's bytes: what `JSONEncoder.api` writes for this value (keys sorted, `/`
    /// escaped), written directly, since every API client asks for it.
    var json: Data {
      var object = JSONObjectWriter(out: [])
      object.field("currency", string: currency)
      object.field("email", string: email)
      object.field("id", id: id)
      object.field("locale", string: locale)
      return Data(object.close())
    }
  }

  @Sendable func me(req: Request) async throws -> Response {
    let user = try req.user
    let me = Me(
      id: try user.requireID(), email: user.email, locale: user.locale, currency: user.currency)
    return APIResponse.json(bytes: me.json)
  }
}
