import Vapor

/// What this request knows about its browser session. Kept in the request's storage, so every
/// reader (the error page included) gets an answer even where no session was ever loaded: a
/// request that never reached `SessionMiddleware` simply has none.
struct SessionState: Sendable {
  /// The session as read from the database, to tell what the handler changed.
  var loaded: BrowserSession?
  var current: BrowserSession?
  /// A new cookie secret to send (after sign-in).
  var newSecret: String?
  /// The browser's session cookie is to be removed (signed out, expired, unknown).
  var clearCookie = false
  /// A new anonymous CSRF token to send in its cookie.
  var newAnonymousCSRF: String?
}

extension Request {
  var sessionState: SessionState {
    get { kept.read { $0.session } ?? SessionState() }
    set { kept.change { $0.session = newValue } }
  }

  /// The signed-in browser's session, if any.
  var browserSession: BrowserSession? { sessionState.current }

  /// A value kept for this browser between requests; nil when signed out.
  func sessionValue(_ key: String) -> String? {
    sessionState.current?.data[key]
  }

  /// Keeps `value` for this browser (written back after the response); ignored when signed out.
  func setSessionValue(_ key: String, _ value: String?) {
    kept.change {
      guard $0.session?.current != nil else { return }
      $0.session?.current?.data[key] = value
    }
  }

  /// Starts a fresh session for `user`, so a session id seen before sign-in is useless after.
  /// It works in the account's own workspace (or, without one, the first it belongs to).
  func startSession(for user: User) async throws {
    let store = BrowserSessionStore(db: db)
    var state = sessionState
    if let old = state.current { try await store.delete(id: old.id) }
    try await store.purgeExpired(now: now)
    let secret = randomToken(clients)
    let session = try await store.create(
      userID: try user.requireID(), csrf: randomToken(clients), secret: secret, now: now)
    state.loaded = session
    state.current = session
    state.newSecret = secret
    state.clearCookie = false
    let workspace = try await WorkspaceStore(db: db).fallback(for: user)
    try await store.setWorkspace(id: session.id, workspaceID: workspace.id)
    state.loaded?.workspaceID = workspace.id
    state.current?.workspaceID = workspace.id
    sessionState = state
    signIn(user, to: workspace)
  }

  /// Signs this browser out: its session row goes, and so does the cookie.
  func endSession() async throws {
    var state = sessionState
    if let current = state.current {
      try await BrowserSessionStore(db: db).delete(id: current.id)
    }
    state.loaded = nil
    state.current = nil
    state.newSecret = nil
    state.clearCookie = true
    sessionState = state
    signedInUser = nil
  }
}

/// Loads the signed-in account from the session cookie, and afterwards writes back what the
/// handler changed. A request that changed nothing writes nothing (apart from noting, at most
/// every `touchInterval`, that the session is still in use), so a slow background request can
/// never save a stale copy over what a form post stored meanwhile.
struct SessionMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    var state = SessionState()
    if let secret = request.cookieJar[BrowserSession.cookieName]?.string {
      let store = BrowserSessionStore(db: request.db)
      if Self.looksLikeSecret(secret),
        let found = try await store.find(secret: secret)
      {
        if found.session.isExpired(at: request.now) {
          try await store.delete(id: found.session.id)
          state.clearCookie = true
        } else {
          state.loaded = found.session
          state.current = found.session
          var workspace = found.workspace
          if workspace == nil {
            // No longer a member of the workspace it worked in: its own, or the first left.
            let fallback = try await WorkspaceStore(db: request.db).fallback(for: found.user)
            try await store.setWorkspace(id: found.session.id, workspaceID: fallback.id)
            workspace = fallback
          }
          if let workspace { request.signIn(found.user, to: workspace) }
          // The header's workspace menu, for pages of a person in more than one: only for
          // what a browser opens as a page, not its pictures, downloads or polling.
          if found.workspaceCount > 1, request.method == .GET,
            !request.urlPath.hasPrefix("/api/"),
            request.headers[.accept].contains(where: { $0.contains("text/html") })
          {
            request.otherWorkspaces = try await WorkspaceStore(db: request.db)
              .workspaces(of: found.session.userID)
              .filter { $0.id != workspace?.id }
          }
        }
      } else {
        state.clearCookie = true
      }
    }
    request.sessionState = state

    let response = try await next.respond(to: request)

    let after = request.sessionState
    if var current = after.current {
      let changed = current.data != after.loaded?.data
      let stale = request.now.timeIntervalSince(current.lastSeenAt) > BrowserSession.touchInterval
      if changed || stale {
        current.lastSeenAt = request.now
        try await BrowserSessionStore(db: request.db).save(current, includingData: changed)
      }
    }
    return response
  }

  /// Secrets are 43 URL-safe base64 characters; anything else is not worth a query.
  static func looksLikeSecret(_ value: String) -> Bool {
    value.utf8.count == 43
      && value.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
          || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
      }
  }
}

/// Sends the cookies the session layer decided on. It sits outside the error middleware, so an
/// error page that created a CSRF token, or a sign-out that failed later, still sends them.
struct SessionCookieMiddleware: AsyncMiddleware {
  let secure: Bool

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let response = try await next.respond(to: request)
    let state = request.sessionState
    if let secret = state.newSecret {
      response.cookies[BrowserSession.cookieName] = cookie(
        secret, maxAge: Int(BrowserSession.absoluteLifetime))
      if request.cookieJar[AnonymousCSRF.cookieName] != nil {
        response.cookies[AnonymousCSRF.cookieName] = .expired
      }
    } else if state.clearCookie {
      response.cookies[BrowserSession.cookieName] = .expired
    }
    if let token = state.newAnonymousCSRF, state.current == nil {
      // A day: long enough for a sign-in page left open in a tab.
      response.cookies[AnonymousCSRF.cookieName] = cookie(token, maxAge: 24 * 60 * 60)
    }
    return response
  }

  private func cookie(_ value: String, maxAge: Int) -> HTTPCookies.Value {
    HTTPCookies.Value(
      string: value, maxAge: maxAge, path: "/", isSecure: secure, isHTTPOnly: true,
      sameSite: .lax)
  }
}
