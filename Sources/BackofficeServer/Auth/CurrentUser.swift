import Fluent
import Vapor

enum SessionKeys {
  static let userID = "uid"
  static let csrf = "csrf"
}

/// Loads the signed-in account from the session cookie.
struct SessionUserMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    if request.hasSession, let raw = request.session.data[SessionKeys.userID],
      let id = UUID(uuidString: raw)
    {
      if let user = try await User.find(id, on: request.db) {
        request.auth.login(user)
      } else {
        // The account is gone; forget it rather than fail every request.
        request.session.data[SessionKeys.userID] = nil
      }
    }
    return try await next.respond(to: request)
  }
}

/// Pages behind sign-in: a browser without a session goes to the sign-in page.
struct RequireUserMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    guard request.auth.has(User.self) else {
      if request.method == .GET {
        let back = request.url.path == "/" ? nil : request.url.string
        return request.redirect(to: Routes.signIn.href(query: ["next": back]))
      }
      throw Abort(.unauthorized, reason: "Sign in to continue.")
    }
    return try await next.respond(to: request)
  }
}

extension Request {
  /// The signed-in account; throws 401 where there is none.
  var user: User {
    get throws {
      guard let user = auth.get(User.self) else {
        throw Abort(.unauthorized, reason: "Sign in to continue.")
      }
      return user
    }
  }

  var userID: UUID {
    get throws { try user.requireID() }
  }

  /// Starts a fresh session for `user`, so a session id seen before sign-in is useless after.
  func startSession(for user: User) async throws {
    if let oldID = session.id {
      try await application.sessions.driver.deleteSession(oldID, for: self).get()
      session.id = nil
    }
    var data = SessionData()
    data[SessionKeys.userID] = try user.requireID().uuidString
    data[SessionKeys.csrf] = randomToken(clients)
    session.data = data
    auth.login(user)
  }

  func endSession() {
    session.destroy()
    auth.logout(User.self)
  }
}
