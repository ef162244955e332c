import BackofficeCore
import Fluent
import Vapor

/// Pages behind sign-in: a browser without a session goes to the sign-in page.
struct RequireUserMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    guard request.signedInUser != nil else {
      if request.method == .GET || request.method == .HEAD {
        let back = request.url.path == "/" ? nil : LocalPath.validated(request.url.string)
        return request.redirect(to: Routes.signIn.href(query: ["next": back]))
      }
      throw Abort(.unauthorized, reason: L("auth.sign_in_to_continue"))
    }
    return try await next.respond(to: request)
  }
}

extension Request {
  /// The signed-in account; throws 401 where there is none.
  var user: User {
    get throws {
      guard let user = signedInUser else {
        throw Abort(.unauthorized, reason: L("auth.sign_in_to_continue"))
      }
      return user
    }
  }

  var userID: UUID {
    get throws { try user.requireID() }
  }
}

/// Routes that change what every account shares. To anyone but an administrator they do not
/// exist (404), so they are not even discoverable.
struct RequireAdminMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    guard request.signedInUser?.isAdmin == true else {
      if AppErrorMiddleware.wantsJSON(request) { throw APIError.notFound }
      throw Abort(.notFound)
    }
    return try await next.respond(to: request)
  }
}
