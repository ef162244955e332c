import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import BackofficeServer

/// The app's responder runs the middleware, a route's guards and its handler in one task, in
/// the order they were given, with errors passing outwards as through Vapor's own responder.
@Suite("App responder")
struct AppResponderTests {
  /// Records the request's way through it: which stage saw it, in which task.
  struct Recorder: AsyncMiddleware {
    let name: String
    let log: NIOLockedValueBox<[String]>
    var tasks = NIOLockedValueBox<[Int]>([])
    var fails = false
    var catches = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws
      -> Response
    {
      log.withLockedValue { $0.append("in \(name)") }
      tasks.withLockedValue { $0.append(AppResponderTests.currentTask()) }
      if fails { throw Abort(.conflict) }
      do {
        let response = try await next.respond(to: request)
        log.withLockedValue { $0.append("out \(name)") }
        return response
      } catch  where catches {
        log.withLockedValue { $0.append("caught by \(name)") }
        return Response(status: .accepted)
      }
    }
  }

  static func currentTask() -> Int { withUnsafeCurrentTask { $0?.hashValue ?? 0 } }

  private func request(_ app: Application, _ method: HTTPMethod, _ path: String) -> Request {
    Request(application: app, method: method, url: URI(string: path), on: app.eventLoopGroup.next())
  }

  @Test func middlewareGuardsAndHandlerRunInOneTaskInOrder() async throws {
    try await withApp { t in
      let log = NIOLockedValueBox<[String]>([])
      let tasks = NIOLockedValueBox<[Int]>([])
      t.app.middleware.use(Recorder(name: "app", log: log, tasks: tasks))
      t.app.guarded(Recorder(name: "guard", log: log, tasks: tasks)).get("probe") {
        _ async -> String in
        log.withLockedValue { $0.append("handler") }
        tasks.withLockedValue { $0.append(Self.currentTask()) }
        return "ok"
      }
      let answer = try await t.app.responder.current.respond(to: request(t.app, .GET, "/probe"))
        .get()
      #expect(answer.status == .ok)
      #expect(
        log.withLockedValue { $0 } == ["in app", "in guard", "handler", "out guard", "out app"])
      let seen = tasks.withLockedValue { $0 }
      #expect(seen.count == 3 && !seen.contains(0) && Set(seen).count == 1, "\(seen)")
    }
  }

  @Test func stagesRunInOrderAndErrorsPassOutwards() async throws {
    try await withApp { t in
      let log = NIOLockedValueBox<[String]>([])
      let end = AsyncBasicResponder { _ in Response(status: .ok) }
      let failing = AsyncChain.make(
        [
          Recorder(name: "a", log: log, catches: true),
          Recorder(name: "b", log: log),
          Recorder(name: "c", log: log, fails: true),
        ], last: end)
      let caught = try await failing.respond(to: request(t.app, .GET, "/"))
      #expect(caught.status == .accepted)
      #expect(log.withLockedValue { $0 } == ["in a", "in b", "in c", "caught by a"])
    }
  }

  /// Vapor's `grouped(_:)` would put a route behind a future (a task more per request):
  /// every route the app registers can be awaited directly.
  @Test func everyRouteOfTheAppAnswersInTheRequestsTask() async throws {
    try await withApp { t in
      let slow = t.app.routes.all.filter { AsyncChain.futures(in: $0.responder) > 0 }
      #expect(slow.isEmpty, "\(slow.map(\.description))")
      #expect(t.app.routes.all.count == Routes.all.count)
    }
  }

  /// The count sees a future-answering stage anywhere in a chain.
  @Test func aStageBehindAFutureIsCounted() async throws {
    try await withApp { t in
      let log = NIOLockedValueBox<[String]>([])
      let async = AsyncBasicResponder { _ in Response(status: .ok) }
      #expect(
        AsyncChain.futures(in: AsyncChain.make([Recorder(name: "a", log: log)], last: async)) == 0)
      let grouped = t.app.grouped(Recorder(name: "vapor", log: log))
      let route = grouped.get("vapor-group") { _ async in "ok" }
      #expect(AsyncChain.futures(in: route.responder) == 1)
      let guardedOverGrouped = t.app.guarded(Recorder(name: "a", log: log))
        .grouped(Recorder(name: "b", log: log)).get("mixed") { _ async in "ok" }
      #expect(AsyncChain.futures(in: guardedOverGrouped.responder) == 1)
    }
  }

  @Test func headIsAnsweredByTheGetRouteAndUnknownPathsAre404() async throws {
    try await withApp { t in
      let head = try await t.app.responder.current.respond(to: request(t.app, .HEAD, "/health"))
        .get()
      #expect(head.status == .ok)
      #expect(head.headers.first(name: "content-security-policy") != nil)
      let missing = try await t.app.responder.current.respond(
        to: request(t.app, .GET, "/no/such/page")
      ).get()
      #expect(missing.status == .notFound)
      let wrongMethod = try await t.app.responder.current.respond(
        to: request(t.app, .DELETE, "/health")
      ).get()
      #expect(wrongMethod.status == .methodNotAllowed)
    }
  }

  /// The middleware and the handler find the request's kept values bound to its task; any other
  /// request read there (one the handler makes, say) still gets its own.
  @Test func theRequestsStateIsBoundToItsTaskAndOnlyForThatRequest() async throws {
    try await withApp { t in
      let seen = NIOLockedValueBox<[Bool]>([])
      t.app.get("state-probe") { req async -> String in
        let state = req.kept
        let other = Request(
          application: req.application, method: .GET, url: "/", on: req.eventLoop)
        seen.withLockedValue {
          $0 = [RequestState.current === state, other.kept !== state, other.kept === other.kept]
        }
        return "ok"
      }
      let answer = try await t.app.responder.current.respond(
        to: request(t.app, .GET, "/state-probe")
      ).get()
      #expect(answer.status == .ok)
      #expect(seen.withLockedValue { $0 } == [true, true, true])
      #expect(RequestState.current == nil, "nothing is bound outside a request's task")
    }
  }

  /// A request's database is made once and kept; on SQLite it is made on the app's storage,
  /// with the request's own logger. (Fluent's `req.db`, which the app's shadows, made a new
  /// one with a copied logger on every read, and kept nothing.)
  @Test func aRequestMakesItsDatabaseOnce() async throws {
    try await withApp { t in
      // Nil on PostgreSQL, where Fluent makes the database (once).
      let appStorage = (t.db as? SQLiteFluentDatabase)?.storage
      let seen = NIOLockedValueBox<[Bool]>([])
      t.app.get("database-probe") { req async -> String in
        let before = req.kept.read { $0.database == nil }
        let made = req.db
        let kept = req.kept.read { $0.database }
        var checks = [
          before, kept != nil, (made as? SQLiteFluentDatabase == nil) == (appStorage == nil),
        ]
        if let appStorage {
          let sqlite = made as? SQLiteFluentDatabase
          checks += [
            sqlite?.storage === appStorage,
            (kept as? SQLiteFluentDatabase)?.storage === appStorage,
            sqlite?.context.logger[metadataKey: "database-id"] == nil,
            (req.db as? SQLiteFluentDatabase)?.storage === appStorage,
          ]
        }
        seen.withLockedValue { $0 = checks }
        return "ok"
      }
      let answer = try await t.app.responder.current.respond(
        to: request(t.app, .GET, "/database-probe")
      ).get()
      #expect(answer.status == .ok)
      let checks = seen.withLockedValue { $0 }
      #expect(checks.count == (appStorage == nil ? 3 : 7))
      #expect(checks.allSatisfy { $0 }, "\(checks)")
    }
  }

  /// A state whose request is gone belongs to no request, so a task that outlives its
  /// request never hands that state to a later one.
  @Test func aStateOutlivingItsRequestBelongsToNoOther() async throws {
    try await withApp { t in
      var first: Request? = request(t.app, .GET, "/")
      let state = try #require(first?.kept)
      #expect(state.belongs(to: try #require(first)))
      first = nil
      let next = request(t.app, .GET, "/")
      #expect(!state.belongs(to: next))
      try await RequestState.$current.withValue(state) {
        #expect(next.kept !== state)
      }
    }
  }

  /// A route's chain leaves out the middleware that would hand all its requests straight on:
  /// the body limit and the CSRF check on routes of safe methods, the static files on routes
  /// no file's path fits. Everything else runs, and a route that changes something keeps them.
  @Test func aRoutesChainLeavesOutWhatNeverActsOnIt() async throws {
    try await withApp { t in
      let responder = try #require(t.app.responder.current as? AppResponder)
      let everything = t.app.middleware.resolve().map { "\(type(of: $0))" }
      let left = ["StaticFilesMiddleware", "BodyLimitMiddleware", "CSRFMiddleware"]
      let me = try #require(responder.chains["GET /api/v1/me"])
      #expect(
        AsyncChain.stages(in: me) == everything.filter { !left.contains($0) } + [
          "APIAuthMiddleware"
        ])
      let create = try #require(responder.chains["POST /api/v1/products"])
      #expect(
        AsyncChain.stages(in: create).filter(left.contains)
          == ["BodyLimitMiddleware", "CSRFMiddleware"])
    }
  }

  /// A route whose path a file's path fits keeps the static files in front of it.
  @Test func aFileStillWinsOverARouteItsPathFits() async throws {
    #expect(StaticFilesMiddleware.fits("/css/app.css", ["css", ":name"]))
    #expect(StaticFilesMiddleware.fits("/css/app.css", ["**"]))
    #expect(StaticFilesMiddleware.fits("/sw.js", ["*"]))
    #expect(!StaticFilesMiddleware.fits("/css/app.css", ["css"]))
    #expect(!StaticFilesMiddleware.fits("/css/app.css", ["api", "v1", "me"]))
    #expect(!StaticFilesMiddleware.fits("/sw.js", [":a", ":b"]))
    try await withApp { t in
      t.app.get("css", ":name") { _ async in "route" }
      let answer = try await t.app.responder.current.respond(
        to: request(t.app, .GET, "/css/app.css")
      ).get()
      #expect(answer.status == .ok)
      #expect(answer.headers.contentType?.subType == "css")
      let other = try await t.app.responder.current.respond(
        to: request(t.app, .GET, "/css/other.css")
      ).get()
      #expect(other.body.string == "route")
    }
  }
}
