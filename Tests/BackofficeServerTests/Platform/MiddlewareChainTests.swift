import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import BackofficeServer

/// The chained middlewares behave as the same list given to Vapor one by one: each sees the
/// request in order, the answers come back in reverse order, and an error thrown inside
/// passes out through the outer stages, which may turn it into an answer.
@Suite("Middleware chain")
struct MiddlewareChainTests {
  struct Recorder: AsyncMiddleware {
    let name: String
    let log: NIOLockedValueBox<[String]>
    var fails = false
    var catches = false

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws
      -> Response
    {
      log.withLockedValue { $0.append("in \(name)") }
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

  @Test func stagesRunInOrderAndErrorsPassOutwards() async throws {
    try await withApp { t in
      let log = NIOLockedValueBox<[String]>([])
      let chain = MiddlewareChain([
        Recorder(name: "a", log: log, catches: true),
        Recorder(name: "b", log: log),
        Recorder(name: "c", log: log),
      ])
      let end = AsyncBasicResponder { _ in Response(status: .ok) }
      let request = Request(
        application: t.app, method: .GET, url: URI(string: "/"), on: t.app.eventLoopGroup.next())
      let answer = try await chain.respond(to: request, chainingTo: end)
      #expect(answer.status == .ok)
      #expect(log.withLockedValue { $0 } == ["in a", "in b", "in c", "out c", "out b", "out a"])

      log.withLockedValue { $0 = [] }
      let failing = MiddlewareChain([
        Recorder(name: "a", log: log, catches: true),
        Recorder(name: "b", log: log),
        Recorder(name: "c", log: log, fails: true),
      ])
      let caught = try await failing.respond(to: request, chainingTo: end)
      #expect(caught.status == .accepted)
      #expect(log.withLockedValue { $0 } == ["in a", "in b", "in c", "caught by a"])
    }
  }
}
