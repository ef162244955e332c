import Vapor

/// `Routes.all` arranged for lookups by method and path, before the router has run: which
/// route a request is for (so its body limit applies), and which methods a path answers (so
/// another method gets `405` with `Allow` instead of a misleading 404).
struct RouteTable: Sendable {
  private let routes: [(segments: [Segment], route: AppRoute)]

  private enum Segment: Sendable, Equatable {
    case constant(String)
    case parameter
  }

  init(_ routes: [AppRoute]) {
    self.routes = routes.map { route in
      (
        route.template.split(separator: "/").map {
          $0.hasPrefix(":") ? .parameter : .constant(String($0))
        }, route
      )
    }
  }

  /// The route `method` and `path` reach (a `HEAD` reaches the `GET` route), preferring a
  /// constant segment over a parameter the way the router does.
  func route(method: HTTPMethod, path: String) -> AppRoute? {
    let segments = Self.split(path)
    let wanted = method == .HEAD ? HTTPMethod.GET : method
    return routes.filter { $0.route.method == wanted && Self.matches($0.segments, segments) }
      .max { Self.constants($0.segments) < Self.constants($1.segments) }?.route
  }

  /// The methods registered for `path` (with `HEAD` wherever `GET` is), sorted. Of the
  /// templates that fit, only the most specific counts: `/api/v1/expenses/summary` takes GET,
  /// even though `/api/v1/expenses/:expenseID` also fits it and takes PUT and DELETE.
  func allowed(for path: String) -> [String] {
    let segments = Self.split(path)
    let fitting = routes.filter { Self.matches($0.segments, segments) }
    guard let best = fitting.map(\.segments).max(by: Self.lessSpecific) else { return [] }
    var methods = Set<String>()
    for entry in fitting where entry.segments == best {
      methods.insert(entry.route.method.rawValue)
      if entry.route.method == .GET { methods.insert(HTTPMethod.HEAD.rawValue) }
    }
    return methods.sorted()
  }

  /// At the first segment where two templates differ, a constant beats a parameter.
  private static func lessSpecific(_ a: [Segment], _ b: [Segment]) -> Bool {
    for (x, y) in zip(a, b) where x != y { return x == .parameter }
    return false
  }

  private static func split(_ path: String) -> [Substring] {
    path.split(separator: "/")
  }

  private static func constants(_ pattern: [Segment]) -> Int {
    pattern.filter { $0 != .parameter }.count
  }

  private static func matches(_ pattern: [Segment], _ segments: [Substring]) -> Bool {
    guard pattern.count == segments.count else { return false }
    for (part, segment) in zip(pattern, segments) {
      if case .constant(let value) = part, value != segment { return false }
    }
    return true
  }
}

/// Reads every request body before the routes run, up to the limit of the route it is for
/// (`AppRoute.body`), so one table decides every limit and the CSRF check can read form fields
/// of any size a route accepts. Routes themselves are registered as streaming and find the
/// body collected.
struct BodyLimitMiddleware: RouteScopedMiddleware {
  /// Bodies of safe methods are never read.
  func passesOn(everyRequestOf route: Route) -> Bool { route.takesOnlySafeMethods }

  let table: RouteTable
  let limits: BodyLimits

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    switch request.method {
    case .GET, .HEAD, .OPTIONS, .TRACE:
      return try await next.respond(to: request)
    default:
      break
    }
    let kind = table.route(method: request.method, path: request.urlPath)?.body ?? .standard
    let limit = limits.bytes(kind)
    if let length = request.headers.first(name: .contentLength).flatMap(Int.init), length > limit {
      throw Abort(.payloadTooLarge)
    }
    if let collected = request.body.data {
      guard collected.readableBytes <= limit else { throw Abort(.payloadTooLarge) }
    } else {
      _ = try await request.body.collect(max: limit).get()
    }
    return try await next.respond(to: request)
  }
}

extension Application {
  private struct RouteTableKey: StorageKey {
    typealias Value = RouteTable
  }

  var routeTable: RouteTable {
    get { storage[RouteTableKey.self] ?? RouteTable(Routes.all) }
    set { storage[RouteTableKey.self] = newValue }
  }
}
