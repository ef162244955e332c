import BackofficeCore
import Vapor

struct FlashMessage: Codable, Sendable, Equatable {
  enum Kind: String, Codable, Sendable { case success, info, error }
  var kind: Kind
  var text: String
}

/// What the layout needs from the request, read once so views stay pure.
struct PageContext: Sendable {
  var userEmail: String?
  var csrf: String
  var flashes: [FlashMessage]
  var path: String
  var locale: BackofficeLocale
  var signupOpen: Bool = true

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
  }
}

extension Request {
  func flash(_ kind: FlashMessage.Kind, _ text: String) {
    var pending = peekFlashes()
    pending.append(FlashMessage(kind: kind, text: text))
    if let data = try? JSONEncoder().encode(pending) {
      session.data[SessionKeys.flash] = String(decoding: data, as: UTF8.self)
    }
  }

  func takeFlashes() -> [FlashMessage] {
    guard hasSession else { return [] }
    let pending = peekFlashes()
    if !pending.isEmpty { session.data[SessionKeys.flash] = nil }
    return pending
  }

  private func peekFlashes() -> [FlashMessage] {
    guard let raw = session.data[SessionKeys.flash],
      let list = try? JSONDecoder().decode([FlashMessage].self, from: Data(raw.utf8))
    else { return [] }
    return list
  }

  /// Renders a page into an HTML response.
  func page(_ view: some PageView, status: HTTPResponseStatus = .ok) -> Response {
    let html = view.render(context: PageContext(request: self))
    let response = Response(status: status, body: .init(string: html))
    response.headers.contentType = .html
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    return response
  }
}
