import BackofficeCore
import Fluent
import Vapor

struct SettingsController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.settings, use: show)
    routes.on(Routes.settingsLocale, use: updateLocale)
    routes.on(Routes.settingsPassword, use: updatePassword)
    routes.on(Routes.settingsBackup, use: backup)
    routes.on(Routes.tokenCreate, use: createToken)
    routes.on(Routes.tokenRevoke, use: revokeToken)
    routes.on(Routes.settingsSignOutOthers, use: signOutOthers)
  }

  @Sendable func show(req: Request) async throws -> Response {
    req.page(try await model(req))
  }

  /// The signed-in account as a backup file, the same file `backoffice export` writes.
  @Sendable func backup(req: Request) async throws -> Response {
    let now = req.now
    let (workspaceID, person, db) = (try req.workspaceID, try req.userID, req.db)
    // Read and written away from the event loops: a large workspace takes a second or more.
    let file = try await BackgroundWork.shared.run {
      try await AccountBackup.export(workspaceID: workspaceID, person: person, on: db, now: now)
        .encoded()
    }
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .contentType, value: "application/json; charset=utf-8")
    headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    let day = String(BackupDate.format(now).prefix(10))
    headers.replaceOrAdd(
      name: .contentDisposition, value: "attachment; filename=\"backoffice-backup-\(day).json\"")
    return Response(status: .ok, headers: headers, body: .init(data: file))
  }

  func model(_ req: Request, change: (inout SettingsShow) -> Void = { _ in }) async throws
    -> SettingsShow
  {
    let user = try req.user
    let workspace = try req.workspace
    // The person's tokens for this workspace (a token acts in one).
    let tokens = try await APITokens.list(
      userID: user.requireID(), workspaceID: workspace.id, on: req.db)
    let otherSessions = try await BrowserSessionStore(db: req.db).countActive(
      userID: user.requireID(), excluding: req.browserSession?.id, now: req.now)
    var view = SettingsShow(
      email: user.email,
      otherSessions: otherSessions,
      locale: user.locale,
      language: req.uiLanguage.rawValue,
      currency: user.currency,
      workspace: workspace,
      tokens: tokens.map { token in
        SettingsShow.TokenRow(
          id: token.id, name: token.name, prefix: token.prefix, createdAt: token.createdAt,
          lastUsedAt: token.lastUsedAt)
      })
    if user.isAdmin, req.application.mailDelivery != nil {
      let outbox = MailOutbox(db: req.db)
      view.mail = SettingsShow.MailState(
        queued: try await outbox.count(.queued),
        failures: try await outbox.recentFailures(limit: 5))
    }
    change(&view)
    return view
  }

  struct LocaleForm: Content {
    /// Absent from older forms and clients: the language then stays as it is.
    var language: String?
    var locale: String?
    var currency: String?
  }

  @Sendable func updateLocale(req: Request) async throws -> Response {
    var user = try req.user
    let form = try req.content.decode(LocaleForm.self)
    let localeID = form.locale ?? ""
    let currency = (form.currency ?? "").trimmingCharacters(in: .whitespaces).uppercased()
    var errors: [String: String] = [:]
    let language = form.language.map { UILanguage(rawValue: $0) }
    if language == .some(nil) {
      errors["language"] = L("settings.language.invalid")
    }
    if BackofficeLocale(identifier: localeID) == nil {
      errors["locale"] = L("settings.locale.invalid")
    }
    let workspace = try req.workspace
    if !Currency.isValid(currency) {
      errors["currency"] = L("settings.currency.invalid")
    } else if currency != workspace.currency, !workspace.role.allows(.manage) {
      // The currency is the workspace's: its owners decide it.
      errors["currency"] = L("settings.currency.owner_only")
    }
    guard errors.isEmpty else {
      let view = try await model(req) {
        $0.language = form.language ?? $0.language
        $0.locale = localeID
        $0.currency = currency
        $0.localeErrors = errors
      }
      return req.page(view, status: .unprocessableEntity)
    }
    user.locale = localeID
    user.currency = currency
    if let chosen = language ?? nil { user.uiLanguage = chosen.rawValue }
    try await Accounts.save(user, on: req.db)
    // The rest of this request (the message below) sees the new settings.
    req.signedInUser = user
    if currency != workspace.currency {
      try await WorkspaceStore(db: req.db).setCurrency(of: workspace.id, to: currency)
    }
    // Said in the language just chosen.
    UILanguage.$current.withValue(req.uiLanguage) {
      req.flash(.success, L("settings.locale.saved"))
    }
    return req.redirect(to: Routes.settings.href())
  }

  struct PasswordForm: Content {
    var current: String?
    var new: String?
    var confirm: String?
  }

  @Sendable func updatePassword(req: Request) async throws -> Response {
    var user = try req.user
    let form = try req.content.decode(PasswordForm.self)
    var errors: [String: String] = [:]
    let currentOK =
      (try? await req.password.async.verify(form.current ?? "", created: user.passwordHash))
      ?? false
    if !currentOK { errors["current"] = L("settings.password.wrong") }
    if let problem = Passwords.problem(with: form.new ?? "") {
      errors["new"] = problem
    } else if form.new != form.confirm {
      errors["confirm"] = L("settings.password.mismatch")
    }
    guard errors.isEmpty else {
      let view = try await model(req) { $0.passwordErrors = errors }
      return req.page(view, status: .unprocessableEntity)
    }
    user.passwordHash = try await req.password.async.hash(form.new ?? "")
    try await Accounts.save(user, on: req.db)
    // A changed password is often a reaction to a device that should no longer be signed in;
    // every other browser signs in again. API tokens are separate secrets and stay valid.
    let ended = try await BrowserSessionStore(db: req.db).deleteAll(
      userID: user.requireID(), keeping: req.browserSession?.id)
    req.flash(
      .success,
      ended == 0
        ? L("settings.password.changed")
        : L("settings.password.changed_others", ["count": String(ended)]))
    return req.redirect(to: Routes.settings.href())
  }

  /// Ends every session of the account but this browser's.
  @Sendable func signOutOthers(req: Request) async throws -> Response {
    let user = try req.user
    let ended = try await BrowserSessionStore(db: req.db).deleteAll(
      userID: user.requireID(), keeping: req.browserSession?.id)
    req.flash(
      .success,
      ended == 0
        ? L("settings.devices.none_signed_out")
        : L("settings.devices.signed_out", count: ended))
    return req.redirect(to: Routes.settings.href())
  }

  struct TokenForm: Content {
    var name: String?
  }

  @Sendable func createToken(req: Request) async throws -> Response {
    let user = try req.user
    let form = try req.content.decode(TokenForm.self)
    let name = (form.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty, name.count <= 60 else {
      let view = try await model(req) {
        $0.tokenName = name
        $0.tokenError =
          name.isEmpty
          ? L("settings.tokens.name.blank")
          : L("settings.tokens.name.too_long")
      }
      return req.page(view, status: .unprocessableEntity)
    }
    let secret = APITokens.secretPrefix + randomToken(req.clients)
    let token = APIToken(
      userID: try user.requireID(), workspaceID: try req.workspaceID, name: name,
      tokenHash: secretHash(secret),
      prefix: String(secret.prefix(10)), createdAt: req.now)
    try await APITokens.create(token, on: req.db)
    // The secret is shown in this response only and never stored in clear.
    let view = try await model(req) { $0.newToken = (name, secret) }
    return req.page(view, status: .created)
  }

  @Sendable func revokeToken(req: Request) async throws -> Response {
    let user = try req.user
    guard let id = req.parameters.get("tokenID", as: UUID.self),
      let token = try await APITokens.find(
        id, userID: user.requireID(), workspaceID: req.workspaceID, on: req.db)
    else { throw Abort(.notFound) }
    try await APITokens.revoke(token, on: req.db)
    req.flash(
      .success, L("settings.tokens.revoked", ["name": token.name]))
    return req.redirect(to: Routes.settings.href())
  }
}
