import Vapor

struct FlashMessage: Codable, Sendable, Equatable {
  enum Kind: String, Codable, Sendable { case success, info, error }
  var kind: Kind
  var text: String
}

/// Flash messages travel in a short-lived cookie of their own, not in the session: a background
/// request (a live check, a search) that finishes after a form post writes back the session it
/// read before the post, which would erase a message kept there.
enum FlashCookie {
  static let name = "backoffice_flash"

  static func encode(_ messages: [FlashMessage]) -> String? {
    guard let data = try? JSONEncoder().encode(messages) else { return nil }
    return data.base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static func decode(_ value: String) -> [FlashMessage] {
    var base64 = value.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64),
      let messages = try? JSONDecoder().decode([FlashMessage].self, from: data)
    else { return [] }
    return Array(messages.prefix(5))
  }
}

struct FlashState: Sendable {
  /// Messages added while handling this request, for the next page.
  var pending: [FlashMessage] = []
  /// A page of this request showed the messages that arrived with it.
  var shown = false
}

extension Request {
  var flashState: FlashState {
    get { kept.read { $0.flash } }
    set { kept.change { $0.flash = newValue } }
  }

  func flash(_ kind: FlashMessage.Kind, _ text: String) {
    kept.change { $0.flash.pending.append(FlashMessage(kind: kind, text: text)) }
  }

  /// The messages for the page being rendered: those that arrived with the request and those
  /// added while handling it. They are shown once.
  func takeFlashes() -> [FlashMessage] {
    var state = flashState
    let arrived =
      state.shown ? [] : cookieJar[FlashCookie.name].map { FlashCookie.decode($0.string) } ?? []
    let messages = arrived + state.pending
    state.shown = true
    state.pending = []
    flashState = state
    return messages
  }
}

/// Writes pending flash messages into their cookie, and clears the cookie once a page showed them.
struct FlashMiddleware: AsyncMiddleware {
  let secure: Bool

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let response = try await next.respond(to: request)
    let state = request.flashState
    if !state.pending.isEmpty {
      var carried = state.pending
      if !state.shown, let arrived = request.cookieJar[FlashCookie.name] {
        carried = FlashCookie.decode(arrived.string) + carried
      }
      if let value = FlashCookie.encode(carried) {
        response.cookies[FlashCookie.name] = HTTPCookies.Value(
          string: value, maxAge: 300, path: "/", isSecure: secure, isHTTPOnly: true,
          sameSite: .lax)
      }
    } else if state.shown, request.cookieJar[FlashCookie.name] != nil {
      response.cookies[FlashCookie.name] = .expired
    }
    return response
  }
}
