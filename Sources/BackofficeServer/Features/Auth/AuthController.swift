import BackofficeCore
import Fluent
import Vapor

struct AuthController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.signIn, use: signInForm)
    routes.on(Routes.signInSubmit, use: signIn)
    routes.on(Routes.signUp, use: signUpForm)
    routes.on(Routes.signUpSubmit, use: signUp)
    routes.on(Routes.signOut, use: signOut)
  }

  struct Credentials: Content {
    var email: String?
    var password: String?
  }

  @Sendable func signInForm(req: Request) async throws -> Response {
    if req.auth.has(User.self) { return req.redirect(to: Routes.home.href()) }
    return req.page(
      SignInView(
        notice: req.query[String.self, at: "signed-out"] == nil
          ? nil : "You have been signed out.",
        next: safeNext(req.query["next"]), signupOpen: req.config.signupOpen))
  }

  @Sendable func signIn(req: Request) async throws -> Response {
    let form = try req.content.decode(Credentials.self)
    let email = EmailAddress.normalize(form.email ?? "")
    let password = form.password ?? ""
    let next = safeNext(req.query["next"])
    let limiter = SignInRateLimiter(db: req.db, now: req.now)

    if let minutes = try await limiter.blockedMinutes(email: email, address: req.clientAddress) {
      let view = SignInView(
        email: email,
        error:
          "Too many sign-in attempts. Try again in \(minutes) minute\(minutes == 1 ? "" : "s").",
        next: next, signupOpen: req.config.signupOpen)
      let response = req.page(view, status: .tooManyRequests)
      response.headers.replaceOrAdd(name: .retryAfter, value: "\(minutes * 60)")
      return response
    }

    let user = try await User.query(on: req.db).filter(\.$email == email).first()
    let valid: Bool
    if let user {
      valid = (try? await req.password.async.verify(password, created: user.passwordHash)) ?? false
    } else {
      // Hash anyway so a missing account takes as long as a wrong password.
      _ = try? await req.password.async.hash(password)
      valid = false
    }
    guard valid, let user else {
      try await limiter.recordFailure(email: email, address: req.clientAddress)
      req.logger.info("sign-in failed")
      return req.page(
        SignInView(
          email: email, error: "Email or password is incorrect.", next: next,
          signupOpen: req.config.signupOpen),
        status: .unauthorized)
    }
    try await limiter.reset(email: email)
    try await req.startSession(for: user)
    return req.redirect(to: next ?? Routes.home.href())
  }

  @Sendable func signUpForm(req: Request) async throws -> Response {
    if req.auth.has(User.self) { return req.redirect(to: Routes.home.href()) }
    return req.page(SignUpView(signupOpen: req.config.signupOpen))
  }

  @Sendable func signUp(req: Request) async throws -> Response {
    guard req.config.signupOpen else {
      return req.page(SignUpView(signupOpen: false), status: .forbidden)
    }
    let form = try req.content.decode(Credentials.self)
    let email = EmailAddress.normalize(form.email ?? "")
    let password = form.password ?? ""
    var errors: [String: String] = [:]
    if let problem = EmailAddress.problem(with: email) { errors["email"] = problem }
    if let problem = Passwords.problem(with: password) { errors["password"] = problem }
    if errors.isEmpty,
      try await User.query(on: req.db).filter(\.$email == email).count() > 0
    {
      errors["email"] = "An account with this email already exists. Sign in instead."
    }
    guard errors.isEmpty else {
      return req.page(SignUpView(email: email, errors: errors), status: .unprocessableEntity)
    }
    let locale = BackofficeLocale.bestMatch(
      acceptLanguage: req.headers.first(name: .acceptLanguage) ?? "")
    let user = User(
      email: email, passwordHash: try await req.password.async.hash(password),
      locale: locale.identifier, currency: locale.defaultCurrency)
    try await user.create(on: req.db)
    try await req.startSession(for: user)
    req.flash(.success, "Welcome to Backoffice.")
    return req.redirect(to: Routes.home.href())
  }

  @Sendable func signOut(req: Request) async throws -> Response {
    req.endSession()
    // The session is gone, so the goodbye travels in the URL rather than as a flash.
    return req.redirect(to: Routes.signIn.href(query: ["signed-out": "1"]))
  }

  /// Only same-site paths are followed after sign-in, never another host.
  func safeNext(_ raw: String?) -> String? {
    guard let raw, raw.hasPrefix("/"), !raw.hasPrefix("//"), !raw.contains("\\") else {
      return nil
    }
    return raw
  }
}
