import BackofficeCore
import Vapor

/// `/api/v1/*` accepts `Authorization: Bearer <token>`, or the browser's session cookie
/// (state-changing requests then also need the CSRF header).
struct APIAuthMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    if let bearer = request.headers.bearerToken {
      let hash = secretHash(bearer)
      guard
        let found = try await APITokens.account(
          forHash: hash, on: request.db)
      else {
        throw APIError(.unauthorized, code: "unauthorized", message: L("api.token.invalid"))
      }
      // Replaces any account a session cookie signed in: the token decides.
      request.signIn(found.user, to: found.workspace)
      // One write per minute at most, so busy clients do not write on every request.
      let now = request.now
      if found.lastUsedAt.map({ now.timeIntervalSince($0) > 60 }) ?? true {
        try await APITokens.markUsed(found.tokenID, at: now, on: request.db)
      }
      return try await next.respond(to: request)
    }
    guard request.signedInUser != nil else {
      throw APIError(
        .unauthorized, code: "unauthorized",
        message: L("api.token.missing"))
    }
    return try await next.respond(to: request)
  }
}
