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
  var tokens: [TokenRow]
  var localeErrors: [String: String] = [:]
  var passwordErrors: [String: String] = [:]
  var tokenName: String = ""
  var tokenError: String? = nil
  var newToken: (name: String, secret: String)? = nil

  var title: String { "Settings" }
  var section: NavSection? { .settings }

  func content(context: PageContext) -> HTMLNode {
    let displayLocale = BackofficeLocale.resolve(locale)
    return H.group([
      H.h1("Settings"),
      newTokenNode,
      H.section(
        [.class("card"), .aria(.labelledby, "profile")],
        [
          H.h2("Profile", [.id("profile")]),
          H.dl(
            [.class("facts")],
            [H.dt([], [H.text("Email")]), H.dd([], [H.text(email)])]),
        ]),
      H.section(
        [.class("card"), .aria(.labelledby, "locale")],
        [
          H.h2("Locale and currency", [.id("locale")]),
          H.p(
            [.class("hint")],
            "Decides how amounts, numbers and dates are shown and typed, e.g. "
              + MoneyFormat.currency(1234.5, currency: currency, locale: displayLocale) + "."),
          postForm(
            action: Routes.settingsLocale.href(), csrf: context.csrf,
            attributes: [.class("stack")],
            [
              SelectView(
                name: "language", label: L("settings.language"),
                options: UILanguage.allCases.map { ($0.rawValue, $0.nativeName) },
                selected: language, error: localeErrors["language"]
              ).render(),
              SelectView(
                name: "locale", label: "Locale",
                options: BackofficeLocale.supported.map { ($0.identifier, $0.displayName) },
                selected: locale, error: localeErrors["locale"]
              ).render(),
              FieldView(
                name: "currency", label: "Currency", value: currency,
                error: localeErrors["currency"],
                hint: "ISO 4217 code, e.g. EUR, USD, UAH.", required: true,
                extra: [
                  .maxlength("3"), .autocapitalize("characters"),
                  .list("currency-codes"),
                ]
              ).render(),
              H.datalist(
                [.id("currency-codes")],
                Currency.all.map { H.option([.value($0.code)]) }),
              H.button("Save locale and currency", [.class("button button-primary")]),
            ]),
        ]),
      H.section(
        [.class("card"), .aria(.labelledby, "password")],
        [
          H.h2("Password", [.id("password")]),
          postForm(
            action: Routes.settingsPassword.href(), csrf: context.csrf,
            attributes: [.class("stack")],
            [
              FieldView(
                name: "current", label: "Current password", type: "password",
                error: passwordErrors["current"], required: true,
                autocomplete: "current-password"
              ).render(),
              FieldView(
                name: "new", label: "New password", type: "password",
                error: passwordErrors["new"],
                hint: "At least \(Passwords.minimumLength) characters.", required: true,
                autocomplete: "new-password"
              ).render(),
              FieldView(
                name: "confirm", label: "Repeat new password", type: "password",
                error: passwordErrors["confirm"], required: true, autocomplete: "new-password"
              ).render(),
              H.button("Change password", [.class("button button-primary")]),
            ]),
        ]),
      devicesSection(context: context),
      tokensSection(context: context),
      H.section(
        [.class("card"), .aria(.labelledby, "backup")],
        [
          H.h2("Backup", [.id("backup")]),
          H.p(
            [.class("hint")],
            "One JSON file with your settings, products (with photos and favourites), "
              + "expenses, ad payments, marketing plans and fundraisers (with photos and jar "
              + "history). Passwords and API tokens are not included. The server's operator "
              + "restores it with the backoffice import command."),
          H.a(
            Routes.settingsBackup.href(), [.class("button"), .download("")],
            text: "Download a backup"),
        ]),
    ])
  }

  func devicesSection(context: PageContext) -> HTMLNode {
    let summary =
      switch otherSessions {
      case 0: "Only this browser is signed in to your account."
      case 1: "One other browser or device is signed in to your account."
      default: "\(otherSessions) other browsers or devices are signed in to your account."
      }
    return H.section(
      [.class("card"), .aria(.labelledby, "devices")],
      [
        H.h2("Signed-in devices", [.id("devices")]),
        H.p([.id("devices-summary")], summary),
        H.p(
          [.class("hint")],
          "A browser is signed out after 14 days without use, and 30 days after signing in. "
            + "Changing your password signs out every other browser."),
        otherSessions == 0
          ? H.empty
          : confirmButton(
            action: Routes.settingsSignOutOthers.href(), csrf: context.csrf,
            label: "Sign out other devices",
            confirm: "Sign out every other browser and device? This one stays signed in.",
            confirmLabel: "Yes, sign them out"),
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
          "Token \u{201C}\(newToken.name)\u{201D} created. Copy it now: it will not be shown again."
        ),
        H.code([.class("secret"), .id("new-token")], [H.text(newToken.secret)]),
        H.button(
          "Copy", [.type("button"), .class("button"), .data("copy-target", "new-token")]),
      ])
  }

  func tokensSection(context: PageContext) -> HTMLNode {
    var nodes: [HTMLNode] = [
      H.h2("API tokens", [.id("tokens")]),
      H.p(
        [.class("hint")],
        "Scripts and apps use a token as Authorization: Bearer <token> for /api/v1. "
          + "Treat it like a password."),
    ]
    if tokens.isEmpty {
      nodes.append(H.p([.class("empty-inline")], "No tokens yet."))
    } else {
      nodes.append(
        H.ul([.class("token-list")], tokens.map { tokenRow($0, context: context) }))
    }
    nodes.append(
      postForm(
        action: Routes.tokenCreate.href(), csrf: context.csrf, attributes: [.class("stack")],
        [
          FieldView(
            name: "name", label: "New token name", value: tokenName, error: tokenError,
            hint: "For example \u{201C}Shop import script\u{201D}.", required: true,
            extra: [.maxlength("60")]
          ).render(),
          H.button("Create token", [.class("button button-primary")]),
        ]))
    return H.section([.class("card"), .aria(.labelledby, "tokens")], nodes)
  }

  private func tokenRow(_ token: TokenRow, context: PageContext) -> HTMLNode {
    let locale = BackofficeLocale.resolve(locale)
    let utc = TimeZone(identifier: "UTC") ?? .gmt
    let created = token.createdAt.map { locale.formatDate($0, timeZone: utc) } ?? "—"
    let used =
      token.lastUsedAt.map { "last used " + locale.formatDateTime($0, timeZone: utc) + " UTC" }
      ?? "never used"
    return H.li(
      [.class("token-row")],
      [
        H.div(
          [],
          [
            H.strong([], [H.text(token.name)]),
            H.span([.class("muted")], " \(token.prefix)…"),
            H.p([.class("muted small")], "Created \(created) · \(used)"),
          ]),
        confirmButton(
          action: Routes.tokenRevoke.href(id: token.id), csrf: context.csrf,
          label: "Revoke",
          confirm:
            "Revoke \u{201C}\(token.name)\u{201D}? Clients using it stop working at once.",
          confirmLabel: "Yes, revoke"),
      ])
  }
}
