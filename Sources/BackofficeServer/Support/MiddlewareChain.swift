import Vapor

/// Several async middlewares run as one: each calls the next directly.
///
/// Vapor runs every `AsyncMiddleware` it is given as a task of its own behind a future, so
/// eight of them cost eight tasks, eight promises and the hand-offs between them on every
/// request, `/health` included. Chained here, a request pays for that once; the middlewares'
/// order and behaviour, errors included, are exactly those of the list.
struct MiddlewareChain: AsyncMiddleware {
  let stages: [any AsyncMiddleware]

  init(_ stages: [any AsyncMiddleware]) {
    self.stages = stages
  }

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    try await Stage(stages: stages[...], last: next).respond(to: request)
  }

  /// The rest of the chain from its first stage, ending in the responder after the chain.
  private struct Stage: AsyncResponder {
    let stages: ArraySlice<any AsyncMiddleware>
    let last: any AsyncResponder

    func respond(to request: Request) async throws -> Response {
      guard let first = stages.first else { return try await last.respond(to: request) }
      return try await first.respond(
        to: request, chainingTo: Stage(stages: stages.dropFirst(), last: last))
    }
  }
}
