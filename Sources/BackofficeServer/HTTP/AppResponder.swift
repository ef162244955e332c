import Dispatch
import Metrics
import NIOConcurrencyHelpers
import NIOCore
@preconcurrency import RoutingKit
import Vapor

/// The app's responder: finds the route, then runs the app's middleware, the route's guards
/// and its handler in **one task**.
///
/// Vapor's own responder does the same work, but every `AsyncMiddleware` and every async
/// handler it reaches through an `EventLoopFuture` starts a task of its own and hands its
/// answer back through a promise: a signed-in API call paid for three or four of them. Those
/// hand-offs were half of a `/health` answer's processor time (docs/PERFORMANCE.md). Here the
/// chain is put together once per route, and every stage that can be awaited is awaited
/// directly; a stage that only answers with a future (none of the app's) still works, through
/// its future.
///
/// Routing, `HEAD` falling back to `GET`, `request.route` and the request metrics
/// (`http_requests_total`, `http_request_duration_seconds`, `http_request_errors_total`, by
/// method, route template and status) are those of Vapor's responder.
struct AppResponder: Responder {
  private struct Entry {
    let route: Route
    let chain: any AsyncResponder
    /// The route's template for the metrics, `/api/v1/products/:productID`.
    let template: String
  }

  private let router: TrieRouter<Entry>
  /// Each route's chain, for tests: `"GET /api/v1/me"`.
  let chains: [String: any AsyncResponder]
  private let notFound: any AsyncResponder
  private let metrics: RequestMetrics?
  /// The app's SQLite configuration, kept in each request's state for `Request.db`.
  private let sqlite: SQLiteStorageConfiguration?

  init(
    routes: Vapor.Routes, middleware: [any Middleware], metrics: RequestMetrics?,
    sqlite: SQLiteStorageConfiguration? = nil
  ) {
    let options: Set<TrieRouter<Entry>.ConfigurationOption> =
      routes.caseInsensitive ? [.caseInsensitive] : []
    let router = TrieRouter(Entry.self, options: options)
    var chains: [String: any AsyncResponder] = [:]
    for route in routes.all {
      let stages = middleware.filter {
        !(($0 as? any RouteScopedMiddleware)?.passesOn(everyRequestOf: route) ?? false)
      }
      let entry = Entry(
        route: route, chain: AsyncChain.make(stages, last: route.responder),
        template: "/" + route.path.map { $0.description }.joined(separator: "/"))
      let path = route.path.filter {
        if case .constant(let text) = $0 { !text.isEmpty } else { true }
      }
      router.register(entry, at: [.constant(route.method.rawValue)] + path)
      chains["\(route.method.rawValue) \(entry.template)"] = entry.chain
    }
    self.router = router
    self.chains = chains
    self.notFound = AsyncChain.make(middleware, last: NoRoute())
    self.metrics = metrics
    self.sqlite = sqlite
  }

  func respond(to request: Request) -> EventLoopFuture<Response> {
    respond(to: request, path: nil)
  }

  /// Answers `request`, routing by `path` when the server already has its path as the routes
  /// see it (`RoutedPath.plain`); otherwise by the request's URL.
  func respond(to request: Request, path: Substring?) -> EventLoopFuture<Response> {
    let start = DispatchTime.now().uptimeNanoseconds
    // The request's one entry in Vapor's storage, made before anything runs in parallel, and
    // bound to the request's task, where its middleware and handler read it.
    let state = request.keep(sqlite: sqlite)
    let entry = find(request, path: path)
    request.route = entry?.route
    let chain = entry?.chain ?? notFound
    let promise = request.eventLoop.makePromise(of: Response.self)
    guard let metrics else {
      promise.completeWithTask {
        try await RequestState.$current.withValue(state) { try await chain.respond(to: request) }
      }
      return promise.futureResult
    }
    // The metrics are recorded in the request's own task, as its answer (or error) is ready.
    let method = request.method
    let template = entry?.template
    promise.completeWithTask {
      let status: UInt
      do {
        let response = try await RequestState.$current.withValue(state) {
          try await chain.respond(to: request)
        }
        status = response.status.code
        metrics.record(
          method: method, template: template, status: status,
          nanoseconds: DispatchTime.now().uptimeNanoseconds &- start)
        return response
      } catch {
        metrics.record(
          method: method, template: template, status: HTTPStatus.internalServerError.code,
          nanoseconds: DispatchTime.now().uptimeNanoseconds &- start)
        throw error
      }
    }
    return promise.futureResult
  }

  private func find(_ request: Request, path: Substring?) -> Entry? {
    // One array, sized for most paths at once (growing it one segment at a time, and the
    // split's own array, cost five allocations on a short path).
    var components: [String] = []
    components.reserveCapacity(8)
    components.append(request.method == .HEAD ? "HEAD" : request.method.rawValue)
    let routed = path ?? Substring(request.url.path)
    var start = routed.startIndex
    while start < routed.endIndex {
      let end = routed[start...].firstIndex(of: "/") ?? routed.endIndex
      if end > start { components.append(String(routed[start..<end])) }
      start = end < routed.endIndex ? routed.index(after: end) : end
    }
    // A HEAD route if there is one, otherwise the GET route answers HEAD.
    if request.method == .HEAD {
      if let entry = router.route(path: components, parameters: &request.parameters) {
        return entry
      }
      components[0] = HTTPMethod.GET.rawValue
    }
    return router.route(path: components, parameters: &request.parameters)
  }

  /// What runs when no route matches: the error middleware turns `NoRouteFound` into a 404
  /// (or a 405 when the path takes other methods).
  private struct NoRoute: AsyncResponder {
    func respond(to request: Request) async throws -> Response { throw NoRouteFound() }
  }
}

/// No route matches the request's method and path.
struct NoRouteFound: Error {}

/// Middleware that can tell from a route alone that it hands every request of that route
/// straight on, unchanged: the responder leaves it out of that route's chain (each stage is
/// two async calls per request, and their frames). Requests no route matches still pass
/// through all of it.
protocol RouteScopedMiddleware: AsyncMiddleware {
  func passesOn(everyRequestOf route: Route) -> Bool
}

extension Route {
  /// Only requests that change nothing reach it: `GET` routes also answer `HEAD`, nothing else.
  var takesOnlySafeMethods: Bool {
    switch method {
    case .GET, .HEAD, .OPTIONS, .TRACE: true
    default: false
    }
  }
}

/// A request line's path and query, when they are plain (`RoutedPath.target`).
struct PlainTarget: Sendable, Equatable {
  var path: String
  var query: String?
}

extension Request {
  /// Set by the server for a request whose target is plain.
  var plainTarget: PlainTarget? {
    get { kept.read { $0.plainTarget } }
    set { kept.change { $0.plainTarget = newValue } }
  }

  /// `url.path`, without asking Foundation's URL parser again when the request line was plain.
  var urlPath: String { plainTarget?.path ?? url.path }

  /// `url.query`, the same way.
  var urlQuery: String? {
    if let plain = plainTarget { return plain.query }
    return url.query
  }
}

/// The path the routes are matched against, read straight from the request line.
enum RoutedPath {
  /// `target`'s path (before `?` or `#`) when it is a plain one — it starts with a single `/`
  /// and holds only letters, digits and the characters RFC 3986 allows unescaped in a path —
  /// which is then exactly what the request's parsed URL would give; nil for anything else
  /// (percent-escapes, `//` which a URL reads as a host, an absolute URL, other bytes), which
  /// is routed by the parsed URL.
  static func plain(_ target: String) -> Substring? {
    var utf8 = target.utf8[...]
    guard utf8.first == UInt8(ascii: "/"), utf8.dropFirst().first != UInt8(ascii: "/") else {
      return nil
    }
    if let end = utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
      utf8 = utf8[..<end]
    }
    for byte in utf8 where !allowed(byte) { return nil }
    return Substring(utf8)
  }

  /// `target`'s path and query when the whole target is plain (a plain path, then at most a
  /// query of the same characters, `?` and whole percent-escapes such as `%20`; no `#`):
  /// exactly the `url.path` and `url.query` the parsed URL gives, as the parsed URL keeps a
  /// query's escapes as they were written. Nil for anything else.
  static func target(_ target: String) -> PlainTarget? {
    let utf8 = target.utf8
    guard utf8.first == UInt8(ascii: "/"), utf8.dropFirst().first != UInt8(ascii: "/") else {
      return nil
    }
    var question: String.Index?
    // Bytes still to come of an escape begun in the query.
    var escape = 0
    for index in utf8.indices {
      let byte = utf8[index]
      if escape > 0 {
        guard isHexDigit(byte) else { return nil }
        escape -= 1
      } else if byte == UInt8(ascii: "?") {
        if question == nil { question = index }
      } else if byte == UInt8(ascii: "%"), question != nil {
        escape = 2
      } else if !allowed(byte) {
        return nil
      }
    }
    guard escape == 0 else { return nil }
    guard let question else { return PlainTarget(path: target, query: nil) }
    return PlainTarget(
      path: String(target[..<question]), query: String(target[utf8.index(after: question)...]))
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
      UInt8(ascii: "A")...UInt8(ascii: "F"):
      true
    default: false
    }
  }

  private static func allowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
      UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
      UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
      UInt8(ascii: ":"), UInt8(ascii: "@"):
      true
    default: false
    }
  }
}

/// Middleware and a responder put together once into one responder that runs them all in the
/// calling task: each stage awaits the next directly.
enum AsyncChain {
  static func make(_ middleware: [any Middleware], last: any Responder) -> any AsyncResponder {
    var next = awaitable(last)
    for stage in middleware.reversed() {
      next =
        if let stage = stage as? any AsyncMiddleware {
          Stage(middleware: stage, next: next)
        } else {
          FutureStage(middleware: stage, next: next)
        }
    }
    return next
  }

  /// How many stages of `responder`'s chain answer through a future (each a task more per
  /// request): 0 for a chain of async middleware ending in an async handler.
  static func futures(in responder: any Responder) -> Int {
    switch responder {
    case let stage as Stage: futures(in: stage.next)
    case let stage as FutureStage: 1 + futures(in: stage.next)
    case is FutureResponder: 1
    case is any AsyncResponder: 0
    default: 1
    }
  }

  /// The middleware of `responder`'s chain, outermost first, by type name.
  static func stages(in responder: any Responder) -> [String] {
    switch responder {
    case let stage as Stage: ["\(type(of: stage.middleware))"] + stages(in: stage.next)
    case let stage as FutureStage: ["\(type(of: stage.middleware))"] + stages(in: stage.next)
    default: []
    }
  }

  /// `responder` as something to await: itself if it can be awaited, else through its future.
  static func awaitable(_ responder: any Responder) -> any AsyncResponder {
    if let responder = responder as? any AsyncResponder { return responder }
    return FutureResponder(base: responder)
  }

  private struct Stage: AsyncResponder {
    let middleware: any AsyncMiddleware
    let next: any AsyncResponder

    func respond(to request: Request) async throws -> Response {
      try await middleware.respond(to: request, chainingTo: next)
    }
  }

  private struct FutureStage: AsyncResponder {
    let middleware: any Middleware
    let next: any AsyncResponder

    func respond(to request: Request) async throws -> Response {
      try await middleware.respond(to: request, chainingTo: next as any Responder).get()
    }
  }

  private struct FutureResponder: AsyncResponder {
    let base: any Responder

    func respond(to request: Request) async throws -> Response {
      try await base.respond(to: request).get()
    }
  }
}

extension RoutesBuilder {
  /// Routes behind `guards` (run in order, before the handler), in the handler's own task.
  /// Use this instead of Vapor's `grouped(_:)`, whose groups answer through a future and so
  /// start a task of their own for every request (`AppResponderTests` checks every route).
  func guarded(_ guards: any AsyncMiddleware...) -> any RoutesBuilder {
    GuardedRoutes(root: self, guards: guards)
  }
}

private final class GuardedRoutes: RoutesBuilder {
  let root: any RoutesBuilder
  let guards: [any AsyncMiddleware]

  init(root: any RoutesBuilder, guards: [any AsyncMiddleware]) {
    self.root = root
    self.guards = guards
  }

  func add(_ route: Route) {
    route.responder = AsyncChain.make(guards, last: route.responder)
    root.add(route)
  }
}

/// The request counters and timers, one set of handles per method, route and status, made once.
final class RequestMetrics: Sendable {
  private struct Key: Hashable {
    let method: String
    let template: String?
    let status: UInt
  }

  private struct Handles {
    let requests: Counter
    let errors: Counter?
    let duration: Metrics.Timer
  }

  private let handles = NIOLockedValueBox<[Key: Handles]>([:])

  func record(method: HTTPMethod, template: String?, status: UInt, nanoseconds: UInt64) {
    // A path no route matched counts under one name: made-up paths cannot grow the list.
    let key = Key(
      method: template == nil ? "undefined" : method.rawValue, template: template,
      status: status)
    let found = handles.withLockedValue { handles in
      if let found = handles[key] { return found }
      let dimensions = [
        ("method", key.method), ("path", template ?? "vapor_route_undefined"),
        ("status", String(status)),
      ]
      let made = Handles(
        requests: Counter(label: "http_requests_total", dimensions: dimensions),
        errors: status >= 500
          ? Counter(label: "http_request_errors_total", dimensions: dimensions) : nil,
        duration: Metrics.Timer(
          label: "http_request_duration_seconds", dimensions: dimensions,
          preferredDisplayUnit: .seconds))
      handles[key] = made
      return made
    }
    found.requests.increment()
    found.errors?.increment()
    found.duration.recordNanoseconds(Int64(clamping: nanoseconds))
  }
}
