import BackofficeCore
import Vapor

/// What the layout needs from the request, read once so views stay pure.
struct PageContext: Sendable {
  var userEmail: String?
  var csrf: String
  var flashes: [FlashMessage]
  var path: String
  var locale: BackofficeLocale
  var signupOpen: Bool = true
  /// The account may change what all accounts share (the marketing catalog).
  var isAdmin: Bool = false

  var signedIn: Bool { userEmail != nil }

  init(
    userEmail: String? = nil, csrf: String = "", flashes: [FlashMessage] = [], path: String = "/",
    locale: BackofficeLocale = .resolve("en-US")
  ) {
    self.userEmail = userEmail
    self.csrf = csrf
    self.flashes = flashes
    self.path = path
    self.locale = locale
  }

  /// Takes the pending flash messages out of the session.
  init(request: Request) {
    let user = request.auth.get(User.self)
    self.userEmail = user?.email
    self.csrf = request.csrfToken
    self.flashes = request.takeFlashes()
    self.path = request.url.path
    self.locale = BackofficeLocale.resolve(user?.locale ?? "en-US")
    self.signupOpen = request.config.signupOpen
    self.isAdmin = user?.isAdmin ?? false
  }
}

extension Request {
  /// Renders a page into an HTML response.
  func page(_ view: some PageView, status: HTTPResponseStatus = .ok) -> Response {
    let html = view.render(context: PageContext(request: self))
    let response = Response(status: status, body: .init(string: html))
    response.headers.contentType = .html
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    return response
  }
}
