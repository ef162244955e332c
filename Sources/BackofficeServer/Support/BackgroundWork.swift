import NIOCore
import NIOPosix

/// Long reads a request starts (a workspace's backup, a whole-area CSV export, the Swipe list)
/// on threads of their own instead of the event loops that answer requests.
///
/// Swift's tasks run on the event loops (`Entrypoint.runTasksOnEventLoops`), which suits the
/// short steps of a request; but a backup of a workspace with 30 000 expenses decodes and
/// encodes for a second or more without awaiting anything, and every other request of that
/// loop (`/health` included) waited behind it: 400–640 ms at the p99 in the stress scenario.
/// Code inside `run` keeps its task (its task-local values, its cancellation) but runs on this
/// executor's threads, as does everything it awaits; the caller goes on where it was after.
///
/// Reads only: the model layer's writes check that their rows come back on the database's
/// event loop (in debug builds), which they do not here.
///
/// The app's own executor because neither NIO nor Vapor offers a task executor here (NIO's
/// thread pool runs closures, not tasks): it is NIO's thread pool with the few lines
/// `TaskExecutor` asks for.
final class BackgroundWork: TaskExecutor, Sendable {
  /// One for the process, with a thread for every core but one (at least one): the event loops
  /// keep a core between them while background work runs.
  static let shared = BackgroundWork(threads: max(1, System.coreCount - 1))

  private let pool: NIOThreadPool
  private static let marker = ThreadSpecificVariable<Marker>()
  private static let mark = Marker()
  private final class Marker: Sendable {}

  init(threads: Int) {
    pool = NIOThreadPool(numberOfThreads: threads)
    pool.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    pool.submit { _ in
      Self.marker.currentValue = Self.mark
      defer { Self.marker.currentValue = nil }
      job.runSynchronously(on: executor)
    }
  }

  /// Whether the calling code runs on one of the background threads.
  static var isCurrent: Bool { marker.currentValue != nil }

  /// `body` on the background threads, with the caller's task.
  func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await withTaskExecutorPreference(self) { try await body() }
  }
}

extension EventLoop {
  /// `makeFutureWithTask`, except that work asked for on the background threads runs there
  /// too. The model layer's `async` calls reach the database through its futures, and a new
  /// task would otherwise run on the event loops: every row a backup read was decoded there.
  func makeFutureKeepingBackground<T: Sendable>(
    _ body: @escaping @Sendable () async throws -> T
  ) -> EventLoopFuture<T> {
    let promise = makePromise(of: T.self)
    Task(executorPreference: BackgroundWork.isCurrent ? BackgroundWork.shared : nil) {
      do {
        promise.succeed(try await body())
      } catch {
        promise.fail(error)
      }
    }
    return promise.futureResult
  }
}
