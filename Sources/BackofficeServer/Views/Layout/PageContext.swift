import BackofficeCore
import Vapor

/// What the layout needs from the request, read once so views stay pure.
struct PageContext: Sendable {
  var userEmail: String?
  var csrf: String
  var flashes: [FlashMessage]
  var path: String
  var locale: BackofficeLocale
  /// The language of the page's text; `locale` only decides how numbers and dates are written.
  var language: UILanguage = .en
  var signupOpen: Bool = true
  /// The account may change what all accounts share (the marketing catalog).
  var isAdmin: Bool = false
  /// The signed-in person in their workspace (`Request.offlineKey`): whose copy of the catalog
  /// and whose outbox the page's scripts keep on the device.
  var offlineKey: String? = nil
  /// The account's currency (prices in the offline copy are written in it).
  var currency: String = "USD"
  /// The workspace the page shows, the person's role there, and their other workspaces (the
  /// header's menu).
  var workspace: WorkspaceContext? = nil
  var otherWorkspaces: [WorkspaceContext] = []

  /// Whether the page offers ways to change records (a viewer's pages do not).
  var canWrite: Bool { workspace?.role.allows(.write) ?? true }
  var isOwner: Bool { workspace?.role == .owner }

  var signedIn: Bool { userEmail != nil }

  init(
    userEmail: String? = nil, csrf: String = "", flashes: [FlashMessage] = [], path: String = "/",
    locale: BackofficeLocale = .resolve("en-US"), language: UILanguage = .en
  ) {
    self.userEmail = userEmail
    self.csrf = csrf
    self.flashes = flashes
    self.path = path
    self.locale = locale
    self.language = language
  }

  /// Takes the pending flash messages out of the session.
  init(request: Request) {
    let user = request.signedInUser
    self.userEmail = user?.email
    self.csrf = request.csrfToken
    self.flashes = request.takeFlashes()
    self.path = request.url.path
    self.locale = BackofficeLocale.resolve(user?.locale ?? "en-US")
    self.language = request.uiLanguage
    self.signupOpen = request.config.signupOpen
    self.isAdmin = user?.isAdmin ?? false
    self.offlineKey = user == nil ? nil : try? request.offlineKey
    self.currency = user?.currency ?? "USD"
    self.workspace = request.workspaceContext
    self.otherWorkspaces = request.otherWorkspaces
  }

  /// How the account's texts are written: locale, currency and interface language, as the
  /// catalog's change feed names them (`ProductChanges.Feed.format`). A device whose copy was
  /// made with another format fetches it anew.
  var catalogFormat: String {
    Self.catalogFormat(locale: locale, currency: currency, language: language)
  }

  static func catalogFormat(locale: BackofficeLocale, currency: String, language: UILanguage)
    -> String
  {
    [locale.identifier, currency, language.rawValue].joined(separator: "|")
  }
}

extension Request {
  /// Renders a page into an HTML response.
  func page(_ view: some PageView, status: HTTPResponseStatus = .ok) -> Response {
    page(html: view.page(context: PageContext(request: self)), status: status)
  }

  private func page(html: ByteBuffer, status: HTTPResponseStatus) -> Response {
    let response = Response(status: status, body: .init(buffer: html))
    response.headers.contentType = .html
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    // Whose page this is (the person in their workspace): the service worker keeps copies
    // of pages under it and lets go of every other one's when it changes.
    if let key = try? offlineKey {
      response.headers.replaceOrAdd(name: Self.offlineKeyHeader, value: key)
    }
    return response
  }

  static let offlineKeyHeader = "X-Offline-Key"

  /// A page rendered once and kept in the read cache for the same view (`key`, in `area`) and
  /// the same context (account, session's CSRF token, path, settings). A page that shows flash
  /// messages is rendered afresh, since they are shown once.
  func cachedPage<View: PageView & ReadCacheable, Key: Hashable & Sendable>(
    _ area: ChangeArea, key: Key, view make: () async throws -> View
  ) async throws -> Response {
    let context = PageContext(request: self)
    guard let contextKey = context.renderKey else {
      return page(html: try await make().page(context: context), status: .ok)
    }
    let rendered = try await cached(area, key: RenderKey(view: key, context: contextKey)) {
      RenderedPage(html: try await make().page(context: context))
    }
    return page(html: rendered.html, status: .ok)
  }
}

/// A rendered page's key: the view's arguments and its context's.
struct RenderKey<View: Hashable & Sendable>: Hashable, Sendable {
  var view: View
  var context: PageContext.RenderContext
}

/// A page's HTML as the read cache keeps it.
struct RenderedPage: ReadCacheable {
  var html: ByteBuffer
  var cacheCost: Int { html.readableBytes }
}

extension PageContext {
  /// Every part of the context a page's HTML depends on.
  struct RenderContext: Hashable, Sendable {
    var userEmail: String?
    var csrf: String
    var path: String
    var locale: String
    var language: String
    var signupOpen: Bool
    var isAdmin: Bool
    var offlineKey: String?
    var currency: String
    var workspaceName: String?
    var role: String?
    var otherWorkspaces: [String]
  }

  /// The context a page's HTML depends on, or nil when it holds flash messages.
  var renderKey: RenderContext? {
    guard flashes.isEmpty else { return nil }
    return RenderContext(
      userEmail: userEmail, csrf: csrf, path: path, locale: locale.identifier,
      language: language.rawValue, signupOpen: signupOpen, isAdmin: isAdmin,
      offlineKey: offlineKey, currency: currency, workspaceName: workspace?.name,
      role: workspace?.role.rawValue, otherWorkspaces: otherWorkspaces.map(\.name))
  }
}
