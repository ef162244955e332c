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
    routes.on(Routes.signUpConfirm, use: confirmForm)
    routes.on(Routes.signUpConfirmSubmit, use: confirm)
  }

  struct Credentials: Content {
    var email: String?
    var password: String?
  }

  @Sendable func signInForm(req: Request) async throws -> Response {
    if req.signedInUser != nil { return req.redirect(to: Routes.home.href()) }
    return req.page(
      SignInView(
        notice: req.queryValue("password-reset") != nil
          ? L("auth.reset.done")
          : req.queryValue("signed-out") == nil ? nil : L("auth.signed_out"),
        next: safeNext(req.query["next"]), signupOpen: req.config.signupOpen))
  }

  @Sendable func signIn(req: Request) async throws -> Response {
    let form = try req.content.decode(Credentials.self)
    let email = EmailAddress.normalize(String((form.email ?? "").prefix(EmailAddress.maxLength)))
    let password = form.password ?? ""
    let next = safeNext(req.query["next"])
    let limiter = AttemptLimiter(window: SignInLimits.window, db: req.db, now: req.now)

    // The place is reserved before the password is checked, so parallel attempts cannot all
    // slip under the limit.
    let reservation: AttemptLimiter.Reservation
    switch try await limiter.reserve(SignInLimits.rules(email: email, address: req.clientLimitKey))
    {
    case .blocked(let minutes):
      let view = SignInView(
        email: email,
        error: L("auth.sign_in.too_many", count: minutes),
        next: next, signupOpen: req.config.signupOpen)
      let response = req.page(view, status: .tooManyRequests)
      response.headers.replaceOrAdd(name: .retryAfter, value: "\(minutes * 60)")
      return response
    case .allowed(let reserved):
      reservation = reserved
    }

    let user = try await Accounts.find(email: email, on: req.db)
    let valid: Bool
    if let user, password.utf8.count <= Passwords.maximumBytes {
      valid = (try? await req.password.async.verify(password, created: user.passwordHash)) ?? false
    } else {
      // Hash anyway so a missing account takes as long as a wrong password.
      _ = try? await req.password.async.hash(String(password.prefix(Passwords.maximumBytes)))
      valid = false
    }
    guard valid, let user else {
      try await limiter.purge()
      req.logger.info("sign-in failed")
      return req.page(
        SignInView(
          email: email, error: L("auth.sign_in.incorrect"), next: next,
          signupOpen: req.config.signupOpen),
        status: .unauthorized)
    }
    try await limiter.release(reservation)
    try await limiter.reset(key: SignInLimits.accountKey(email))
    try await req.startSession(for: user)
    return req.redirect(to: next ?? Routes.home.href())
  }

  @Sendable func signUpForm(req: Request) async throws -> Response {
    let next = safeNext(req.query["next"])
    if req.signedInUser != nil { return req.redirect(to: next ?? Routes.home.href()) }
    return req.page(
      SignUpView(signupOpen: try await signupAllowed(req, next: next), next: next))
  }

  /// Sign-up is open, or the visitor holds an invitation that can still be used: an owner
  /// asked them in, whatever the server's setting for strangers.
  func signupAllowed(_ req: Request, next: String?) async throws -> Bool {
    if req.config.signupOpen { return true }
    let prefix = Routes.join.href(["token": ""])
    guard let next, next.hasPrefix(prefix) else { return false }
    let secret = String(next.dropFirst(prefix.count))
    return try await Invitations.offer(secret: secret, now: req.now, on: req.db) != nil
  }

  /// Said when the email already has an account. It does not confirm that it has one: the
  /// same words fit an address that cannot be used for other reasons.
  static var emailUnavailable: String { L("auth.sign_up.email_unavailable") }

  @Sendable func signUp(req: Request) async throws -> Response {
    let next = safeNext(req.query["next"])
    guard try await signupAllowed(req, next: next) else {
      return req.page(SignUpView(signupOpen: false), status: .forbidden)
    }
    let form = try req.content.decode(Credentials.self)
    let email = EmailAddress.normalize(form.email ?? "")
    let password = form.password ?? ""
    var errors: [String: String] = [:]
    if let problem = EmailAddress.problem(with: email) { errors["email"] = problem }
    if let problem = Passwords.problem(with: password) { errors["password"] = problem }
    guard errors.isEmpty else {
      return req.page(
        SignUpView(email: email, errors: errors, next: next), status: .unprocessableEntity)
    }

    let limiter = AttemptLimiter(window: SignUpLimits.window, db: req.db, now: req.now)
    if case .blocked(let minutes) = try await limiter.reserve(
      SignUpLimits.rules(address: req.clientLimitKey, perHour: req.config.signupsPerHour))
    {
      let view = SignUpView(
        email: email,
        errors: [
          "email": L("auth.sign_up.too_many", count: minutes)
        ])
      let response = req.page(view, status: .tooManyRequests)
      response.headers.replaceOrAdd(name: .retryAfter, value: "\(minutes * 60)")
      return response
    }
    try await limiter.purge()

    if req.application.mailDelivery != nil {
      return try await signUpByMail(req, email: email, password: password, next: next)
    }
    if try await Accounts.find(email: email, on: req.db) != nil {
      // As long as hashing a password, so the answer's timing does not tell either.
      _ = try await req.password.async.hash(password)
      return req.page(
        SignUpView(email: email, errors: ["email": Self.emailUnavailable]),
        status: .unprocessableEntity)
    }
    let locale = BackofficeLocale.bestMatch(
      acceptLanguage: req.headers.first(name: .acceptLanguage) ?? "")
    let user: User
    do {
      user = try await Accounts.create(
        User(
          email: email, passwordHash: try await req.password.async.hash(password),
          locale: locale.identifier, currency: locale.defaultCurrency,
          uiLanguage: req.uiLanguage.rawValue),
        on: req.db)
    } catch let error as DatabaseError where error.isConstraintFailure {
      // The same email, sent twice at once: the second one lost the race.
      return req.page(
        SignUpView(email: email, errors: ["email": Self.emailUnavailable]),
        status: .unprocessableEntity)
    }
    try await req.startSession(for: user)
    req.flash(.success, L("auth.sign_up.welcome"))
    return req.redirect(to: next ?? Routes.home.href())
  }

  /// With mail on, the account is made once the address is confirmed, and the answer is the
  /// same whether or not the address has an account already: its owner gets a mail saying
  /// someone tried, a new address gets the link.
  func signUpByMail(_ req: Request, email: String, password: String, next: String?)
    async throws -> Response
  {
    let hash = try await req.password.async.hash(password)
    let limiter = AttemptLimiter(window: SignUpLimits.window, db: req.db, now: req.now)
    let turn = try await limiter.reserve([
      .init(key: "signup-mail:\(email)", limit: PendingSignups.mailsPerAddress)
    ])
    guard case .allowed = turn else { return req.page(SignUpSentView(email: email)) }
    let site = req.configuredPublicURL ?? req.publicBaseURL
    if let existing = try await Accounts.find(email: email, on: req.db) {
      let language = existing.uiLanguage.flatMap(UILanguage.init(rawValue:)) ?? req.uiLanguage
      let mail = UILanguage.$current.withValue(language) {
        OutgoingMail(
          kind: .signupAttempt, to: email, subject: L("mail.signup_attempt.subject"),
          body: L(
            "mail.signup_attempt.body",
            [
              "email": email, "site": site, "signin": site + Routes.signIn.href(),
              "reset": site + Routes.forgotPassword.href(),
            ]))
      }
      try await req.application.queueMail(mail, on: req.db)
    } else {
      let locale = BackofficeLocale.bestMatch(
        acceptLanguage: req.headers.first(name: .acceptLanguage) ?? "")
      let secret = try await PendingSignups.create(
        .init(
          email: email, passwordHash: hash, locale: locale.identifier,
          currency: locale.defaultCurrency, uiLanguage: req.uiLanguage.rawValue, next: next),
        clients: req.application.clients, on: req.db)
      let link = site + Routes.signUpConfirm.href(["token": secret])
      try await req.application.queueMail(
        OutgoingMail(
          kind: .signupConfirmation, to: email, subject: L("mail.signup.subject"),
          body: L("mail.signup.body", ["site": site, "link": link])),
        on: req.db)
    }
    return req.page(SignUpSentView(email: email))
  }

  @Sendable func confirmForm(req: Request) async throws -> Response {
    let secret = req.parameters.get("token") ?? ""
    guard try await PendingSignups.find(secret: secret, now: req.now, on: req.db) != nil else {
      return req.page(ConfirmSignUpView(secret: secret, state: .unusable), status: .notFound)
    }
    let response = req.page(ConfirmSignUpView(secret: secret, state: .ready))
    response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
    return response
  }

  @Sendable func confirm(req: Request) async throws -> Response {
    let secret = req.parameters.get("token") ?? ""
    switch try await PendingSignups.confirm(secret: secret, now: req.now, on: req.db) {
    case .unusable:
      return req.page(ConfirmSignUpView(secret: secret, state: .unusable), status: .notFound)
    case .taken:
      return req.page(ConfirmSignUpView(secret: secret, state: .taken), status: .conflict)
    case .created(let user, let next):
      try await req.startSession(for: user)
      req.flash(.success, L("auth.sign_up.welcome"))
      return req.redirect(to: safeNext(next) ?? Routes.home.href())
    }
  }

  @Sendable func signOut(req: Request) async throws -> Response {
    try await req.endSession()
    // The session is gone, so the goodbye travels in the URL rather than as a flash.
    return req.redirect(to: Routes.signIn.href(query: ["signed-out": "1"]))
  }

  /// Only same-site paths are followed after sign-in, never another host.
  func safeNext(_ raw: String?) -> String? {
    LocalPath.validated(raw)
  }
}
