import Fluent
import Vapor

/// Wraps the database session driver so a request that did not change its session does not
/// write it back. Without this, a slow background request (a live check, a search) that read
/// the session before a form post would save its stale copy over whatever the post stored.
struct UnchangedSessionDriver: SessionDriver {
  let base: any SessionDriver

  private struct ReadKey: StorageKey {
    typealias Value = SessionData
  }

  func createSession(_ data: SessionData, for request: Request) -> EventLoopFuture<SessionID> {
    base.createSession(data, for: request)
  }

  func readSession(_ sessionID: SessionID, for request: Request) -> EventLoopFuture<SessionData?> {
    base.readSession(sessionID, for: request).map { data in
      if let data { request.storage[ReadKey.self] = data }
      return data
    }
  }

  func updateSession(_ sessionID: SessionID, to data: SessionData, for request: Request)
    -> EventLoopFuture<SessionID>
  {
    if let read = request.storage[ReadKey.self], read == data {
      return request.eventLoop.makeSucceededFuture(sessionID)
    }
    return base.updateSession(sessionID, to: data, for: request)
  }

  func deleteSession(_ sessionID: SessionID, for request: Request) -> EventLoopFuture<Void> {
    base.deleteSession(sessionID, for: request)
  }
}
