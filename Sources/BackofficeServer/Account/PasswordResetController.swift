import BackofficeCore
import Foundation
import Vapor

struct PasswordResetController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.forgotPassword, use: form)
    routes.on(Routes.forgotPasswordSubmit, use: request)
    routes.on(Routes.resetPassword, use: resetForm)
    routes.on(Routes.resetPasswordSubmit, use: reset)
  }

  struct EmailForm: Content {
    var email: String?
  }

  struct PasswordForm: Content {
    var password: String?
    var confirm: String?
  }

  @Sendable func form(req: Request) async throws -> Response {
    req.page(ForgotPasswordView(mailOn: req.application.mailDelivery != nil))
  }

  @Sendable func request(req: Request) async throws -> Response {
    guard req.application.mailDelivery != nil else {
      return req.page(ForgotPasswordView(mailOn: false))
    }
    let form = try req.content.decode(EmailForm.self)
    let email = EmailAddress.normalize(String((form.email ?? "").prefix(EmailAddress.maxLength)))
    if let problem = EmailAddress.problem(with: email) {
      return req.page(
        ForgotPasswordView(mailOn: true, email: email, error: problem),
        status: .unprocessableEntity)
    }
    let limiter = AttemptLimiter(window: PasswordResetLimits.window, db: req.db, now: req.now)
    if case .blocked(let minutes) = try await limiter.reserve([
      PasswordResetLimits.addressRule(req.clientLimitKey)
    ]) {
      let response = req.page(
        ForgotPasswordView(
          mailOn: true, email: email, error: L("auth.reset.too_many", count: minutes)),
        status: .tooManyRequests)
      response.headers.replaceOrAdd(name: .retryAfter, value: "\(minutes * 60)")
      return response
    }
    // Past the per-account limit nothing more is sent, and nothing in the answer says so.
    let accountTurn = try await limiter.reserve([PasswordResetLimits.accountRule(email)])
    try await limiter.purge()
    if case .allowed = accountTurn,
      let user = try await Accounts.find(email: email, on: req.db)
    {
      let userID = try user.requireID()
      let secret = try await PasswordResets.create(
        userID: userID, clients: req.application.clients, on: req.db)
      let link =
        (req.configuredPublicURL ?? req.publicBaseURL)
        + Routes.resetPassword.href(["token": secret])
      let language = user.uiLanguage.flatMap(UILanguage.init(rawValue:)) ?? req.uiLanguage
      let mail = UILanguage.$current.withValue(language) {
        OutgoingMail(
          kind: .passwordReset, to: email, subject: L("mail.reset.subject"),
          body: L(
            "mail.reset.body",
            ["email": email, "site": req.configuredPublicURL ?? "", "link": link]),
          requestedBy: nil)
      }
      try await req.application.queueMail(mail, on: req.db)
    }
    return req.page(ForgotPasswordView(mailOn: true, sentTo: email))
  }

  @Sendable func resetForm(req: Request) async throws -> Response {
    let secret = req.parameters.get("token") ?? ""
    guard try await PasswordResets.account(secret: secret, now: req.now, on: req.db) != nil
    else { return req.page(ResetPasswordView(secret: secret, usable: false), status: .notFound) }
    return noReferrer(req.page(ResetPasswordView(secret: secret)))
  }

  @Sendable func reset(req: Request) async throws -> Response {
    let secret = req.parameters.get("token") ?? ""
    guard try await PasswordResets.account(secret: secret, now: req.now, on: req.db) != nil
    else { return req.page(ResetPasswordView(secret: secret, usable: false), status: .notFound) }
    let form = try req.content.decode(PasswordForm.self)
    let password = form.password ?? ""
    var errors: [String: String] = [:]
    if let problem = Passwords.problem(with: password) { errors["password"] = problem }
    if errors.isEmpty, password != (form.confirm ?? "") {
      errors["confirm"] = L("settings.password.mismatch")
    }
    guard errors.isEmpty else {
      return noReferrer(
        req.page(ResetPasswordView(secret: secret, errors: errors), status: .unprocessableEntity))
    }
    let hash = try await req.password.async.hash(password)
    guard
      let userID = try await PasswordResets.use(
        secret: secret, passwordHash: hash, now: req.now, on: req.db)
    else { return req.page(ResetPasswordView(secret: secret, usable: false), status: .notFound) }
    if let user = try await Accounts.find(id: userID, on: req.db) {
      try await AttemptLimiter(window: SignInLimits.window, db: req.db, now: req.now)
        .reset(key: SignInLimits.accountKey(user.email))
    }
    // This browser's own session (if any) ended with the others.
    req.signedInUser = nil
    return req.redirect(to: Routes.signIn.href(query: ["password-reset": "1"]))
  }

  /// The link's secret is in the address: no other site learns it from a `Referer`.
  private func noReferrer(_ response: Response) -> Response {
    response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
    return response
  }
}
