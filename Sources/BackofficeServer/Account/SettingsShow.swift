import BackofficeCore
import Foundation

struct SettingsShow: PageView {
  struct TokenRow: Sendable {
    var id: UUID
    var name: String
    var prefix: String
    var createdAt: Date?
    var lastUsedAt: Date?
  }

  var email: String
  /// Other browsers signed in to this account now.
  var otherSessions: Int = 0
  var locale: String
  /// The interface language's code, as chosen or as it follows the browser.
  var language: String = UILanguage.en.rawValue
  var currency: String
  /// The workspace the settings are seen from: its currency is its owners' to set, and its
  /// backup theirs to download.
  var workspace: WorkspaceContext
  var tokens: [TokenRow]
  var localeErrors: [String: String] = [:]
  var passwordErrors: [String: String] = [:]
  var tokenName: String = ""
  var tokenError: String? = nil
  var newToken: (name: String, secret: String)? = nil
  /// For an administrator when the server sends mail: what waits and what failed lately.
  var mail: MailState? = nil

  struct MailState: Sendable {
    var queued: Int
    var failures: [MailOutbox.Entry]
  }

  var title: String { L("nav.settings") }
  var section: NavSection? { .settings }

  func content(context: PageContext) -> HTMLNode {
    let displayLocale = BackofficeLocale.resolve(locale)
    return H.group([
      H.h1(L("nav.settings")),
      newTokenNode,
      workspaceSection,
      H.section(
        [.class("card"), .aria(.labelledby, "profile")],
        [
          H.h2(L("settings.profile"), [.id("profile")]),
          H.dl(
            [.class("facts")],
            [H.dt([], [H.text(L("settings.email"))]), H.dd([], H.email(email))]),
        ]),
      H.section(
        [.class("card"), .aria(.labelledby, "locale")],
        [
          H.h2(L("settings.locale.heading"), [.id("locale")]),
          H.p(
            [.class("hint")],
            L(
              "settings.locale.hint",
              ["example": MoneyFormat.currency(1234.5, currency: currency, locale: displayLocale)])
          ),
          postForm(
            action: Routes.settingsLocale.href(), csrf: context.csrf,
            attributes: [.class("stack")],
            [
              SelectView(
                name: "language", label: L("settings.language"),
                options: UILanguage.allCases.map { ($0.rawValue, $0.nativeName) },
                selected: language, error: localeErrors["language"],
                optionLanguage: { $0 }
              ).render(),
              SelectView(
                name: "locale", label: L("settings.locale"),
                // Each locale named in its own language, marked as such.
                options: BackofficeLocale.supported.map { ($0.identifier, $0.nativeName) },
                selected: locale, error: localeErrors["locale"],
                optionLanguage: { BackofficeLocale.resolve($0).languageCode }
              ).render(),
              FieldView(
                name: "currency", label: L("settings.currency"), value: currency,
                error: localeErrors["currency"],
                hint: workspace.role == .owner
                  ? L("settings.currency.hint")
                  : L("settings.currency.hint_member", ["name": workspace.name]),
                required: true,
                extra: [
                  .maxlength("3"), .autocapitalize("characters"),
                  .list("currency-codes"),
                ] + (workspace.role == .owner ? [] : [.readonly])
              ).render(),
              H.datalist(
                [.id("currency-codes")],
                Currency.all.map { H.option([.value($0.code)]) }),
              H.button(L("settings.locale.save"), [.class("button button-primary")]),
            ]),
        ]),
      H.section(
        [.class("card"), .aria(.labelledby, "password")],
        [
          H.h2(L("settings.password.heading"), [.id("password")]),
          postForm(
            action: Routes.settingsPassword.href(), csrf: context.csrf,
            attributes: [.class("stack")],
            [
              FieldView(
                name: "current", label: L("settings.password.current"), type: "password",
                error: passwordErrors["current"], required: true,
                autocomplete: "current-password"
              ).render(),
              FieldView(
                name: "new", label: L("settings.password.new"), type: "password",
                error: passwordErrors["new"],
                hint: L("settings.password.hint", ["count": String(Passwords.minimumLength)]),
                required: true,
                autocomplete: "new-password"
              ).render(),
              FieldView(
                name: "confirm", label: L("settings.password.confirm"), type: "password",
                error: passwordErrors["confirm"], required: true, autocomplete: "new-password"
              ).render(),
              H.button(L("settings.password.save"), [.class("button button-primary")]),
            ]),
        ]),
      devicesSection(context: context),
      tokensSection(context: context),
      workspace.role == .owner
        ? H.section(
          [.class("card"), .aria(.labelledby, "backup")],
          [
            H.h2(L("settings.backup.heading"), [.id("backup")]),
            H.p(
              [.class("hint")],
              L("settings.backup.hint")),
            H.a(
              Routes.settingsBackup.href(), [.class("button"), .download("")],
              text: L("settings.backup.download")),
          ]) : H.empty,
      mailSection(locale: displayLocale),
    ])
  }

  static func kindName(_ kind: OutgoingMail.Kind) -> String {
    switch kind {
    case .passwordReset: L("settings.mail.kind.password_reset")
    case .signupConfirmation: L("settings.mail.kind.signup_confirmation")
    case .signupAttempt: L("settings.mail.kind.signup_attempt")
    case .invitation: L("settings.mail.kind.invitation")
    case .marketingPlan: L("settings.mail.kind.marketing_plan")
    }
  }

  /// The server's outgoing mail, for an administrator: how many messages wait, and the latest
  /// failures with the relay's answer (a reset or a sign-up mail that did not go out is never
  /// shown to the stranger who asked, so it is shown here).
  func mailSection(locale: BackofficeLocale) -> HTMLNode {
    guard let mail else { return H.empty }
    let utc = TimeZone(identifier: "UTC") ?? .gmt
    return H.section(
      [.class("card"), .aria(.labelledby, "server-mail")],
      [
        H.h2(L("settings.mail.heading"), [.id("server-mail")]),
        H.p([.class("hint")], L("settings.mail.queued", count: mail.queued)),
        mail.failures.isEmpty
          ? H.p([.class("empty-inline")], L("settings.mail.no_failures"))
          : H.ul(
            [.class("plain-list mail-status")],
            mail.failures.map { entry in
              let when = locale.formatDateTime(entry.createdAt, timeZone: utc) + " UTC"
              let state = MailOutbox.stateText(entry)
              return H.li(
                entry.status == .failed ? [.class("mail-failed")] : [],
                [
                  H.strong([], [H.text(entry.to)]),
                  H.text(
                    " · \(Self.kindName(entry.kind)) · \(when) · \(state)"),
                ])
            }),
      ])
  }

  /// The workspace: its name, the person's role, and the ways to its members and activity.
  var workspaceSection: HTMLNode {
    H.section(
      [.class("card"), .aria(.labelledby, "workspace")],
      [
        H.h2(L("settings.workspace.heading"), [.id("workspace")]),
        H.p(
          [],
          L("settings.workspace.summary", ["name": workspace.name, "role": workspace.role.title])),
        H.p(
          [.class("form-actions")],
          [
            H.a(Routes.members.href(), [.class("button")], text: L("settings.workspace.members")),
            H.a(Routes.activity.href(), [.class("button")], text: L("settings.workspace.activity")),
          ]),
      ])
  }

  func devicesSection(context: PageContext) -> HTMLNode {
    let summary =
      otherSessions == 0
      ? L("settings.devices.only_this")
      : L("settings.devices.others", count: otherSessions)
    return H.section(
      [.class("card"), .aria(.labelledby, "devices")],
      [
        H.h2(L("settings.devices.heading"), [.id("devices")]),
        H.p([.id("devices-summary")], summary),
        H.p(
          [.class("hint")],
          L("settings.devices.hint")),
        otherSessions == 0
          ? H.empty
          : confirmButton(
            action: Routes.settingsSignOutOthers.href(), csrf: context.csrf,
            label: L("settings.devices.sign_out_others"),
            confirm: L("settings.devices.sign_out_others.confirm"),
            confirmLabel: L("settings.devices.sign_out_others.yes")),
      ])
  }

  /// A token's secret right after it is created: at the top of the page, where the form's
  /// answer opens, since it is never shown again.
  var newTokenNode: HTMLNode {
    guard let newToken else { return H.empty }
    return H.div(
      [.class("flash flash-success new-token"), .role("status")],
      [
        H.p(
          [],
          L("settings.tokens.created", ["name": newToken.name])),
        H.code([.class("secret"), .id("new-token")], [H.text(newToken.secret)]),
        H.button(
          L("settings.tokens.copy"),
          [.type("button"), .class("button"), .data("copy-target", "new-token")]),
      ])
  }

  func tokensSection(context: PageContext) -> HTMLNode {
    var nodes: [HTMLNode] = [
      H.h2(L("settings.tokens.heading"), [.id("tokens")]),
      H.p(
        [.class("hint")],
        L("settings.tokens.hint")),
    ]
    if tokens.isEmpty {
      nodes.append(H.p([.class("empty-inline")], L("settings.tokens.empty")))
    } else {
      nodes.append(
        H.ul([.class("token-list")], tokens.map { tokenRow($0, context: context) }))
    }
    nodes.append(
      postForm(
        action: Routes.tokenCreate.href(), csrf: context.csrf, attributes: [.class("stack")],
        [
          FieldView(
            name: "name", label: L("settings.tokens.name"), value: tokenName, error: tokenError,
            hint: L("settings.tokens.name.hint"), required: true,
            extra: [.maxlength("60")]
          ).render(),
          H.button(L("settings.tokens.create"), [.class("button button-primary")]),
        ]))
    return H.section([.class("card"), .aria(.labelledby, "tokens")], nodes)
  }

  private func tokenRow(_ token: TokenRow, context: PageContext) -> HTMLNode {
    let locale = BackofficeLocale.resolve(locale)
    let utc = TimeZone(identifier: "UTC") ?? .gmt
    let created = token.createdAt.map { locale.formatDate($0, timeZone: utc) } ?? "—"
    let used =
      token.lastUsedAt.map {
        L("settings.tokens.last_used", ["time": locale.formatDateTime($0, timeZone: utc)])
      } ?? L("settings.tokens.never_used")
    return H.li(
      [.class("token-row")],
      [
        H.div(
          [],
          [
            H.strong([], [H.text(token.name)]),
            H.span([.class("muted")], " \(token.prefix)…"),
            H.p(
              [.class("muted small")],
              L("settings.tokens.created_used", ["date": created, "used": used])),
          ]),
        confirmButton(
          action: Routes.tokenRevoke.href(id: token.id), csrf: context.csrf,
          label: L("settings.tokens.revoke"),
          confirm: L("settings.tokens.revoke.confirm", ["name": token.name]),
          confirmLabel: L("settings.tokens.revoke.yes")),
      ])
  }
}
