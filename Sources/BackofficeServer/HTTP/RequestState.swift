import FluentKit
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
///
/// Even that one entry cost a lock, a dictionary look-up and a run-time cast on each of the
/// dozen reads an API call makes, so the app's responder also binds the state to the request's
/// task (`RequestState.current`): the middleware, the guards and the handler run in that task
/// and find it there first. Code outside the task (a future's callback, a detached task) finds
/// no binding, or one for another request, and falls back to the storage entry.
final class RequestState: Sendable {
  /// The state of the request whose task this is (bound by `AppResponder`).
  @TaskLocal static var current: RequestState?

  /// The request this state belongs to. Weak: the request holds its state, and a task that
  /// outlives its request (an unstructured child copies the binding) must not take another
  /// request at the same address for this one.
  private weak let owner: Request?
  /// The app's SQLite configuration, which `Request.db` makes the request's database from
  /// (nil on PostgreSQL, or for a state made outside the responder).
  let sqlite: SQLiteStorageConfiguration?

  init(owner: Request, sqlite: SQLiteStorageConfiguration? = nil) {
    self.owner = owner
    self.sqlite = sqlite
  }

  /// Whether this is `request`'s state.
  func belongs(to request: Request) -> Bool { owner === request }

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
    /// The request's database, once `Request.db` has made it.
    var database: (any FluentKit.Database)?
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
    if let state = RequestState.current, state.belongs(to: self) { return state }
    return keep(sqlite: nil)
  }

  /// The kept state, made with `sqlite` if there is none yet (the responder's first call).
  func keep(sqlite: SQLiteStorageConfiguration?) -> RequestState {
    if let state = storage[RequestStateKey.self] { return state }
    let state = RequestState(owner: self, sqlite: sqlite)
    storage[RequestStateKey.self] = state
    return state
  }

  /// The signed-in person (set by the session or the API token); nil when signed out.
  var signedInUser: User? {
    get { kept.read { $0.user } }
    set { kept.change { $0.user = newValue } }
  }
}
