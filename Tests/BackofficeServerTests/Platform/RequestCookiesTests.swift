import Testing
import Vapor

@testable import BackofficeServer

@Suite("Request cookies")
struct RequestCookiesTests {
  /// The `Cookie` header is parsed once per request: later reads get the same values without
  /// parsing it again (a request's headers do not change once it arrived).
  @Test func theCookieHeaderIsReadOnce() async throws {
    try await withApp { t in
      let request = Request(
        application: t.app, method: .GET, url: URI(string: "/"),
        headers: ["Cookie": "bo_session=abc; bo_flash=xyz"], on: t.app.eventLoopGroup.next())
      #expect(request.cookieJar["bo_session"]?.string == "abc")
      #expect(request.cookieJar["bo_flash"]?.string == "xyz")
      request.headers.replaceOrAdd(name: .cookie, value: "bo_session=changed")
      #expect(request.cookieJar["bo_session"]?.string == "abc")
      #expect(request.cookies["bo_session"]?.string == "changed")
    }
  }
}
