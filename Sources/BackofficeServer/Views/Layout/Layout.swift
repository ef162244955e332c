import BackofficeCore
import NIOCore

/// A page: a title, the navigation section it belongs to, and its main content.
protocol PageView: Sendable {
  var title: String { get }
  var section: NavSection? { get }
  /// Extra ES modules this page needs, by file name under /js/.
  var scripts: [String] { get }
  /// Seconds after which a browser without JavaScript loads the page again (a page showing
  /// progress); with JavaScript the page's script updates it instead.
  var refreshWithoutScript: Int? { get }
  func content(context: PageContext) -> HTMLNode
}

extension PageView {
  var section: NavSection? { nil }
  var scripts: [String] { [] }
  var refreshWithoutScript: Int? { nil }

  /// The whole page, its texts in `context.language`.
  func render(context: PageContext) -> String {
    String(buffer: page(context: context))
  }

  /// The whole page as the bytes of a response.
  func page(context: PageContext) -> ByteBuffer {
    UILanguage.$current.withValue(context.language) {
      Layout.render(
        title: title, section: section, scripts: scripts,
        refreshWithoutScript: refreshWithoutScript, context: context
      ) {
        content(context: context)
      }
    }
  }
}

/// The areas in the main navigation. An area is listed once it exists.
enum NavSection: String, CaseIterable, Sendable {
  case home, settings
  case products
  case expenses
  case adPayments
  case marketingPlans
  case fundraisers

  var label: String {
    switch self {
    case .home: L("nav.home")
    case .settings: L("nav.settings")
    case .products: L("nav.products")
    case .expenses: L("nav.expenses")
    case .adPayments: L("nav.ad_payments")
    case .marketingPlans: L("nav.marketing_plans")
    case .fundraisers: L("nav.fundraisers")
    }
  }

  var href: String {
    switch self {
    case .home: Routes.home.href()
    case .settings: Routes.settings.href()
    case .products: Routes.products.href()
    case .expenses: Routes.expenses.href()
    case .adPayments: Routes.adPayments.href()
    case .marketingPlans: Routes.marketing.href()
    case .fundraisers: Routes.fundraisers.href()
    }
  }

  /// A shorter name for the phone's tab bar, where six areas share the screen's width; nil
  /// when the full name fits. Soft hyphens (U+00AD) mark where a long word may break.
  var tabLabel: String? {
    switch self {
    case .marketingPlans: L("nav.tab.marketing_plans")
    case .fundraisers: L("nav.tab.fundraisers")
    default: nil
    }
  }

  /// The link to the area in the main navigation. With a shorter tab name, the full name is
  /// still the link's text (what assistive technology reads); on a phone app.css shows the
  /// short one from `data-tab` in its place.
  func navLink(current: Bool) -> HTMLNode {
    let attributes: [Attr] = current ? [.aria(.current, "page")] : []
    guard let short = tabLabel, short != label else {
      return H.a(href, attributes, text: label)
    }
    return H.a(
      href, attributes + [.data("tab", short)], [H.span([.class("nav-label")], label)])
  }

  /// The areas shown in the navigation bar, in order; Settings sits apart at the end.
  static let areas: [NavSection] = [
    .home, .products, .expenses, .adPayments, .marketingPlans, .fundraisers,
  ]
}

enum Layout {
  static let appName = "Backoffice"

  static func render(
    title: String, section: NavSection?, scripts: [String], refreshWithoutScript: Int? = nil,
    context: PageContext, content: () -> HTMLNode
  ) -> ByteBuffer {
    let head = H.head(
      [],
      [
        H.meta([.charset("utf-8")]),
        H.meta([.name("viewport"), .content("width=device-width, initial-scale=1")]),
        H.meta([.name("color-scheme"), .content("light dark")]),
        // Scripts read the CSRF token here; the manifest makes the app installable.
        H.meta([.name("csrf-token"), .content(context.csrf)]),
        H.link([.rel("manifest"), .href("/manifest.webmanifest")]),
        H.title([], [H.text(title == appName ? appName : "\(title) · \(appName)")]),
        H.link([.rel("stylesheet"), .href("/css/app.css")]),
        H.link([.rel("icon"), .href("/favicon.svg"), .type("image/svg+xml")]),
        // The texts the page's scripts show, in its language (read by /js/i18n.js).
        H.script(
          [.type("application/json"), .id("ui-text")],
          [.raw(ScriptTexts.json(context.language, scripts: scripts))]),
        H.script([.type("module"), .src("/js/app.js")], []),
      ]
        + scripts.map { H.script([.type("module"), .src("/js/\($0)")], []) }
        // Inside <noscript>, so a browser running the page's script does not reload it too.
        + (refreshWithoutScript.map { seconds in
          [
            H.noscript(
              [],
              [
                H.meta([.httpEquiv("refresh"), .content("\(seconds)")])
              ])
          ]
        } ?? []))

    let body = H.body(
      context.signedIn ? offlineAttributes(context) : [],
      [
        H.a("#main", [.class("skip-link")], text: L("layout.skip_to_content")),
        header(section: section, context: context),
        H.main(
          [.id("main"), .class("container")],
          [flashes(context.flashes), content()]),
        H.footer(
          [.class("site-footer container")],
          [H.p([], L("layout.footer", ["app": appName]))]),
      ])

    // A list page is 60–100 KB: room for it at once instead of growing the array five times.
    var out: [UInt8] = []
    out.reserveCapacity(128 * 1024)
    out.append(contentsOf: "<!DOCTYPE html>".utf8)
    // The language the page's text is in, not the locale (which only decides how numbers and
    // dates are written).
    H.html([.lang(context.language.rawValue)], [head, body]).write(into: &out)
    var buffer = ByteBufferAllocator().buffer(capacity: out.count)
    buffer.writeBytes(out)
    return buffer
  }

  /// What every signed-in page gives its scripts for working offline (`/js/app.js`): the
  /// service worker, and the account whose copy of the catalog is kept on the device, with
  /// where its changes come from and how its texts are written.
  static func offlineAttributes(_ context: PageContext) -> [Attr] {
    [
      .data("service-worker", OutboxSettings.serviceWorker),
      .data("account", context.offlineKey ?? ""),
      .data("catalog-api", Routes.apiProductChanges.href()),
      .data("catalog-format", context.catalogFormat),
      .data("locale", context.locale.identifier),
      // A viewer's scripts keep nothing to send: their role would refuse it.
      .data("role", context.workspace?.role.rawValue ?? ""),
    ]
  }

  static func header(section: NavSection?, context: PageContext) -> HTMLNode {
    var inner: [HTMLNode] = [
      H.a(Routes.home.href(), [.class("brand")], text: appName)
    ]
    if context.signedIn, let workspace = context.workspace {
      inner.append(
        workspaceMenu(
          workspace, others: context.otherWorkspaces, section: section, context: context))
    }
    if context.signedIn {
      // The areas: a row in the header on wider screens, a tab bar along the bottom edge of a
      // phone (app.css). The account's links stay at the top on every screen.
      let areas = NavSection.areas.map { $0.navLink(current: $0 == section) }
      inner.append(H.nav([.aria(.label, L("nav.main")), .class("main-nav")], areas))
      inner.append(
        H.nav(
          [.aria(.label, L("nav.account")), .class("account-nav")],
          [
            H.a(
              NavSection.settings.href,
              section == .settings ? [.aria(.current, "page")] : [],
              text: NavSection.settings.label),
            postForm(
              action: Routes.signOut.href(), csrf: context.csrf,
              attributes: [.class("inline-form sign-out")],
              [H.button(L("nav.sign_out"), [.class("link-button")])]),
          ]))
    } else {
      inner.append(
        H.nav(
          [.aria(.label, L("nav.account")), .class("account-nav")],
          [H.a(Routes.signIn.href(), text: L("nav.sign_in"))]
            + (context.signupOpen
              ? [H.a(Routes.signUp.href(), text: L("nav.create_account"))] : [])))
    }
    return H.header([.class("site-header")], [H.div([.class("container header-inner")], inner)])
  }

  /// The workspace every page shows: its name, beside the brand on every page; for a person
  /// in several, a menu to switch (each a small form, so it works without scripts), and for
  /// everyone the way to its members.
  static func workspaceMenu(
    _ workspace: WorkspaceContext, others: [WorkspaceContext], section: NavSection?,
    context: PageContext
  ) -> HTMLNode {
    let members = H.a(
      Routes.members.href(), [.class("workspace-members")], text: L("workspace.menu.members"))
    guard !others.isEmpty else {
      return H.div(
        [.class("workspace-menu")],
        [
          H.a(
            Routes.members.href(),
            [
              .class("workspace-name"), .title(workspace.name),
              .aria(.label, L("workspace.menu.current", ["name": workspace.name])),
            ], text: workspace.name)
        ])
    }
    let back = section.map(\.href) ?? Routes.home.href()
    return H.details(
      [.class("workspace-menu workspace-switch")],
      [
        H.summary(
          [
            .class("workspace-name"), .title(workspace.name),
            .aria(.label, L("workspace.menu.switch", ["name": workspace.name])),
          ], [H.text(workspace.name)]),
        H.div(
          [.class("workspace-list")],
          [
            H.p([.class("muted small")], L("workspace.menu.switch_to")),
            H.ul(
              [],
              others.map { other in
                H.li(
                  [],
                  [
                    postForm(
                      action: Routes.workspaceSwitch.href(), csrf: context.csrf,
                      attributes: [.class("inline-form")],
                      [
                        H.input([
                          .type("hidden"), .name("workspace"),
                          .value(other.id.uuidString.lowercased()),
                        ]),
                        H.input([.type("hidden"), .name("back"), .value(back)]),
                        H.button(
                          [.class("link-button workspace-option")],
                          [
                            H.span([], [H.text(other.name)]),
                            H.span([.class("muted small")], " · " + other.role.title),
                          ]),
                      ])
                  ])
              }),
            members,
          ]),
      ])
  }

  static func flashes(_ messages: [FlashMessage]) -> HTMLNode {
    guard !messages.isEmpty else { return H.empty }
    return H.div(
      [.class("flashes")],
      messages.map { message in
        H.div(
          [
            .class("flash flash-\(message.kind.rawValue)"),
            .role(message.kind == .error ? "alert" : "status"),
          ], [H.text(message.text)])
      })
  }
}
