import NIOConcurrencyHelpers
import Vapor

/// What the app keeps for one request while it is answered, in one object the request holds
/// once (`Request.kept`).
///
/// Vapor's `Request.storage` copies its whole dictionary on every write (the copy it hands out
/// still refers to the same buffer), and looks up and casts a value at run time on every read;
/// an API call wrote five or six values there (the routed path, the session, the person, the
/// workspace, the client, the query) and read them a dozen times. Here a request makes one
/// entry in Vapor's storage, and each value is a field changed in place under one lock.
final class RequestState: Sendable {
  struct Values: Sendable {
    /// Set by the server for a request whose target is plain (`RoutedPath.target`).
    var plainTarget: PlainTarget?
    var queryValues: QueryValues?
    var clientOrigin: ClientOrigin?
    var cookieJar: HTTPCookies?
    /// Nil until `SessionMiddleware` has read the session.
    var session: SessionState?
    /// The signed-in person, with the workspace's currency.
    var user: User?
    var workspace: WorkspaceContext?
    var otherWorkspaces: [WorkspaceContext] = []
    var repeatsADeletion = false
    var activityNote: ActivityLog.Note?
    var flash = FlashState()
    var knownChangeVersions: [ChangeArea: Int64] = [:]
  }

  private let values = NIOLockedValueBox(Values())

  /// A value read from the fields.
  func read<T>(_ body: (Values) -> T) -> T {
    values.withLockedValue { body($0) }
  }

  /// The fields changed in place.
  func change<T>(_ body: (inout Values) -> T) -> T {
    values.withLockedValue { body(&$0) }
  }
}

extension Request {
  private struct RequestStateKey: StorageKey {
    typealias Value = RequestState
  }

  /// This request's kept values. Made by the app's responder before any middleware runs, so
  /// the one entry is written while Vapor's storage is still empty.
  var kept: RequestState {
    if let state = storage[RequestStateKey.self] { return state }
    let state = RequestState()
    storage[RequestStateKey.self] = state
    return state
  }

  /// The signed-in person (set by the session or the API token); nil when signed out.
  var signedInUser: User? {
    get { kept.read { $0.user } }
    set { kept.change { $0.user = newValue } }
  }
}
