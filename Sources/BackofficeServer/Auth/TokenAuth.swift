import Crypto
import Fluent
import Vapor

enum APITokens {
  static let secretPrefix = "bo_"

  static func hash(_ secret: String) -> String {
    SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
  }
}

/// `/api/v1/*` accepts `Authorization: Bearer <token>`, or the browser's session cookie
/// (state-changing requests then also need the CSRF header).
struct APIAuthMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    if let bearer = request.headers.bearerAuthorization {
      let hash = APITokens.hash(bearer.token)
      guard
        let token = try await APIToken.query(on: request.db)
          .filter(\.$tokenHash == hash).with(\.$user).first()
      else {
        throw APIError(.unauthorized, code: "unauthorized", message: "The API token is not valid.")
      }
      request.auth.logout(User.self)
      request.auth.login(token.user)
      // One write per minute at most, so busy clients do not write on every request.
      let now = request.now
      if token.lastUsedAt.map({ now.timeIntervalSince($0) > 60 }) ?? true {
        token.lastUsedAt = now
        try await token.save(on: request.db)
      }
    }
    guard request.auth.has(User.self) else {
      throw APIError(
        .unauthorized, code: "unauthorized",
        message: "Send an API token as Authorization: Bearer <token>.")
    }
    return try await next.respond(to: request)
  }
}
