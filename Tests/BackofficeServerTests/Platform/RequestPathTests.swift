import NIOCore
import NIOEmbedded
import Testing
import Vapor

@testable import BackofficeServer

/// The server routes most requests by the path as written in the request line instead of
/// asking the parsed URL; the two must never differ.
@Suite("Routed path and the connection deadline")
struct RequestPathTests {
  static let plainTargets = [
    "/", "/health", "/api/v1/me", "/api/v1/products?page=2&per_page=20", "/a//b/",
    "/products/0A1B2C3D-0000-4000-8000-000000000001/edit", "/a/../b", "/a/./b", "/x;y=1",
    "/a-b_c~d.e!f$g&h'i(j)k*l+m,n;o=p:q@r", "/search?q=%D0%BC%D0%BE#frag", "/p#only-fragment",
    "/?", "/a?b?c", "/UPPER/lower/123",
  ]

  @Test func aPlainPathIsWhatTheParsedURLGives() {
    for target in Self.plainTargets {
      let plain = RoutedPath.plain(target)
      #expect(plain != nil, "\(target)")
      #expect(plain.map(String.init) == URI(string: target).path, "\(target)")
    }
  }

  @Test func aPlainTargetsPathAndQueryAreWhatTheParsedURLGives() throws {
    let targets = [
      "/", "/health", "/api/v1/products?page=2&per_page=20", "/p?", "/p?a", "/p?=x&&y=",
      "/a?b?c", "/a?b/c:d@e", "/search?q=lamp+desk&sort=name", "/x;y=1?z=2", "/a/../b?c=.",
      "/a-b_c~d.e!f$g&h'i(j)k*l+m,n;o=p:q@r?s=t", "/search?q=%D0%BC", "/p?q=lamp%20",
      "/p?%41=%7e&b=%2B%25", "/p?a=%3F%26%3D",
    ]
    for target in targets {
      let plain = try #require(RoutedPath.target(target), "\(target)")
      let parsed = URI(string: target)
      #expect(plain.path == parsed.path, "\(target)")
      #expect(plain.query == parsed.query, "\(target)")
    }
    for target in [
      "/caf%C3%A9?q=1", "/p?a%", "/p?a%4", "/p?a%G1", "/p?a%4G", "/p?%%41", "/p#f", "/p?a#f",
      "//a?b", "/p?a b", "/p?ü", "/p?a<b", "/p?a\"b",
      "http://example.com/p?a", "/p?a|b", "/p?a[]=1",
    ] {
      #expect(RoutedPath.target(target) == nil, "\(target)")
    }
  }

  /// What the app reads from a request (static file lookup, the API's `Link` header, query
  /// values, JSON or page errors) is the same whether the server knew the plain target or not.
  @Test func readersGiveTheSameWithTheRequestLinesTarget() async throws {
    try await withApp { t in
      for target in [
        "/api/v1/products?page=2&per_page=20&q=lamp", "/api/v1/products?q=a+b&q=c&sort=name",
        "/api/v1/products", "/api/v1/products?", "/products?type=Tools&page=x", "/app.css",
        "/api/v1/products?per=20&q=lamp%20", "/api/v1/products?q=%D0%BB%D0%B0+%2B&page=%32",
      ] {
        let plain = try #require(RoutedPath.target(target))
        let known = Request(
          application: t.app, method: .GET, url: URI(string: target),
          on: t.app.eventLoopGroup.next())
        known.plainTarget = plain
        let parsed = Request(
          application: t.app, method: .GET, url: URI(string: target),
          on: t.app.eventLoopGroup.next())
        #expect(known.urlPath == parsed.url.path, "\(target)")
        #expect(known.urlQuery == parsed.url.query, "\(target)")
        #expect(
          ListPage<Int>.address(known, page: 3) == ListPage<Int>.address(parsed, page: 3),
          "\(target)")
        for name in ["q", "page", "per_page", "sort", "type"] {
          #expect(known.queryValue(name) == parsed.queryValue(name), "\(target) \(name)")
        }
        #expect(AppErrorMiddleware.wantsJSON(known) == AppErrorMiddleware.wantsJSON(parsed))
      }
    }
  }

  @Test func anythingElseIsLeftToTheParsedURL() {
    for target in [
      "/caf%C3%A9", "/a%2Fb", "//a//b/", "//", "http://example.com/health", "*", "", "health",
      "/a b", "/ü",
      "/a\"b", "/a<b>", "/a{b}", "/a|b", "/a\\b", "/a^b", "/a`b", "/a[b]",
    ] {
      #expect(RoutedPath.plain(target) == nil, "\(target)")
    }
  }

  @Test func aDeadlineMovedLaterNeedsNoNewTimer() throws {
    let loop = EmbeddedEventLoop()
    var deadline = ConnectionDeadline()
    let start = NIODeadline.uptimeNanoseconds(1_000)
    #expect(deadline.arm(at: start + .seconds(20)) == start + .seconds(20))
    let first = deadline.starting(due: start + .seconds(20))
    deadline.started(loop.scheduleTask(in: .seconds(20)) {})
    // Later: the running timer fires first and then waits for the rest.
    #expect(deadline.arm(at: start + .seconds(30)) == nil)
    #expect(deadline.fired(now: start + .seconds(20), timer: first) == .wait(start + .seconds(30)))
    let second = deadline.starting(due: start + .seconds(30))
    deadline.started(loop.scheduleTask(in: .seconds(10)) {})
    #expect(deadline.fired(now: start + .seconds(30), timer: second) == .close)
    try loop.syncShutdownGracefully()
  }

  @Test func anEarlierDeadlineStartsItsOwnTimer() throws {
    let loop = EmbeddedEventLoop()
    var deadline = ConnectionDeadline()
    let start = NIODeadline.uptimeNanoseconds(1_000)
    _ = deadline.arm(at: start + .seconds(60))
    _ = deadline.starting(due: start + .seconds(60))
    deadline.started(loop.scheduleTask(in: .seconds(60)) {})
    #expect(deadline.arm(at: start + .seconds(5)) == start + .seconds(5))
    try loop.syncShutdownGracefully()
  }

  /// A timer cancelled after the event loop took it to run still runs: it must leave the timer
  /// that replaced it in charge (else the next request would start a second one).
  @Test func aCancelledTimerThatRunsAnywayChangesNothing() throws {
    let loop = EmbeddedEventLoop()
    var deadline = ConnectionDeadline()
    let start = NIODeadline.uptimeNanoseconds(1_000)
    _ = deadline.arm(at: start + .seconds(60))
    let old = deadline.starting(due: start + .seconds(60))
    deadline.started(loop.scheduleTask(in: .seconds(60)) {})
    #expect(deadline.arm(at: start + .seconds(5)) == start + .seconds(5))
    let new = deadline.starting(due: start + .seconds(5))
    deadline.started(loop.scheduleTask(in: .seconds(5)) {})
    #expect(deadline.fired(now: start + .seconds(61), timer: old) == nil)
    // The new timer still runs, so a later deadline needs none…
    #expect(deadline.arm(at: start + .seconds(30)) == nil)
    // …and it is the one that decides.
    #expect(deadline.fired(now: start + .seconds(5), timer: new) == .wait(start + .seconds(30)))
    try loop.syncShutdownGracefully()
  }

  @Test func aDisarmedDeadlineClosesNothing() {
    var deadline = ConnectionDeadline()
    let start = NIODeadline.uptimeNanoseconds(1_000)
    _ = deadline.arm(at: start + .seconds(20))
    let first = deadline.starting(due: start + .seconds(20))
    deadline.disarm()
    #expect(deadline.fired(now: start + .seconds(25), timer: first) == nil)
    _ = deadline.arm(at: start + .seconds(40))
    let second = deadline.starting(due: start + .seconds(40))
    deadline.cancel()
    #expect(deadline.fired(now: start + .seconds(45), timer: second) == nil)
  }
}
