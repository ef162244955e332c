import Fluent
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// The one writer of a SQLite database in this process: every write transaction, single write
/// statement, schema change and direct-writer transaction takes its turn here, the others
/// waiting in line without using the processor.
///
/// SQLite has one writer. The server keeps a connection per event loop (and the direct writer
/// one more), and when two of them begin writing at once the one that waits would have to
/// retry or nap: SQLiteNIO's busy handler retries in a tight loop (under a burst of writes most
/// of the processor went into those retries), and SQLite's sleeping `busy_timeout` naps up to
/// 100 ms while its event loop's other requests wait for the connection. Waiting here instead
/// costs nothing while the writer works, and the connections' sleeping `busy_timeout` is left
/// only for another process on the same file (a CLI command, a second server).
///
/// `GatedDatabase` puts every database of the `.sqlite` id behind the gate, so no feature has
/// to remember it. PostgreSQL locks rows, not the database: it has no gate.
final class WriteGate: Sendable {
  private struct Line {
    var busy = false
    var waiting: [@Sendable () -> Void] = []
  }
  private let line = NIOLockedValueBox(Line())

  /// Set while a task holds the gate, so the writes nested in its turn (a transaction's
  /// statements, a store called from inside another's transaction) do not wait for themselves.
  @TaskLocal static var held = false

  /// Runs `work` once every earlier caller's work has finished, in the order they came; at once
  /// when this task already holds the gate.
  func run<T>(_ work: () async throws -> T) async rethrows -> T {
    if Self.held { return try await work() }
    await withCheckedContinuation { turn in whenFree { turn.resume() } }
    defer { leave() }
    return try await Self.$held.withValue(true) { try await work() }
  }

  /// The same for work written with futures: `work` starts when the caller's turn has come,
  /// and the turn ends when its future completes.
  func run<T: Sendable>(
    on eventLoop: any EventLoop, _ work: @escaping @Sendable () -> EventLoopFuture<T>
  ) -> EventLoopFuture<T> {
    let result = eventLoop.makePromise(of: T.self)
    whenFree {
      let future = work()
      future.whenComplete { _ in self.leave() }
      result.completeWith(future)
    }
    return result.futureResult
  }

  /// Calls `go` now if nobody holds the gate, or when every earlier caller has left.
  private func whenFree(_ go: @escaping @Sendable () -> Void) {
    let now = line.withLockedValue { line in
      if line.busy {
        line.waiting.append(go)
        return false
      }
      line.busy = true
      return true
    }
    if now { go() }
  }

  /// Ends the current turn, handing the gate to the next caller in line.
  private func leave() {
    let next = line.withLockedValue { line -> (@Sendable () -> Void)? in
      if line.waiting.isEmpty {
        line.busy = false
        return nil
      }
      return line.waiting.removeFirst()
    }
    next?()
  }

  /// How many callers are waiting for their turn now (for tests).
  var queued: Int { line.withLockedValue { $0.waiting.count } }
}

extension Application {
  private struct WriteGateKey: StorageKey {
    typealias Value = WriteGate
  }

  /// The gate of a SQLite database; nil on PostgreSQL.
  var writeGate: WriteGate? {
    get { storage[WriteGateKey.self] }
    set { storage[WriteGateKey.self] = newValue }
  }
}

extension Optional where Wrapped == WriteGate {
  /// `work` through the gate when there is one.
  func run<T>(_ work: () async throws -> T) async rethrows -> T {
    guard let gate = self else { return try await work() }
    return try await gate.run(work)
  }
}

/// A SQLite configuration whose databases write only through `gate` (when there is one) and
/// carry the app's direct reads.
struct GatedSQLiteConfiguration: DatabaseConfiguration {
  var base: any DatabaseConfiguration
  let gate: WriteGate?
  let direct: SQLiteDirectReads?

  var middleware: [any AnyModelMiddleware] {
    get { base.middleware }
    set { base.middleware = newValue }
  }

  func makeDriver(for databases: Databases) -> any DatabaseDriver {
    Driver(base: base.makeDriver(for: databases), gate: gate, direct: direct)
  }

  struct Driver: DatabaseDriver {
    let base: any DatabaseDriver
    let gate: WriteGate?
    let direct: SQLiteDirectReads?

    func makeDatabase(with context: DatabaseContext) -> any Database {
      let database = base.makeDatabase(with: context)
      guard let sql = database as? any Database & SQLDatabase else { return database }
      return GatedDatabase(base: sql, gate: gate, direct: direct)
    }

    func shutdown() { base.shutdown() }
    func shutdownAsync() async { await base.shutdownAsync() }
  }
}

/// The driver's database with every write taking its turn at the gate first.
///
/// Reads (Fluent reads and aggregates, SQLKit `SELECT`s, raw text that starts with `SELECT`,
/// `PRAGMA name` or `EXPLAIN`) go straight through. Everything else waits for the gate: Fluent
/// creates, updates, deletes and schema changes, SQLKit inserts, updates, deletes and any other
/// statement, raw text that is not a read. A transaction or a `withConnection` block takes the
/// gate for its whole length before it takes a connection, so a task never holds a connection
/// while it waits for the gate (that order is what keeps the pool and the gate from waiting on
/// each other), and the statements inside run without asking again.
struct GatedDatabase: Database, SQLDatabase {
  let base: any Database & SQLDatabase
  /// Nil when the gate is turned off (`BACKOFFICE_SERIAL_WRITES=false`): everything passes.
  let gate: WriteGate?
  /// The app's direct reads of the same file (`DirectQuery`), nil in memory.
  let direct: SQLiteDirectReads?
  /// Whether this is the database a transaction or `withConnection` block was handed, inside
  /// the gate already. (Fluent calls those blocks from its futures, where the task's
  /// `WriteGate.held` does not reach.)
  var holding = false
  /// Whether this is a `readTransaction`'s database, which must not write.
  var readOnly = false

  var context: DatabaseContext { base.context }
  var inTransaction: Bool { base.inTransaction }

  private var passes: Bool { gate == nil || holding || WriteGate.held }

  /// `work` on the driver's database, after waiting for the gate unless this task or block
  /// already holds it.
  private func inTurn<T: Sendable>(
    _ work: @escaping @Sendable (any Database & SQLDatabase) -> EventLoopFuture<T>
  ) -> EventLoopFuture<T> {
    guard let gate, !passes else { return work(base) }
    let base = base
    return gate.run(on: base.eventLoop) { work(base) }
  }

  private var refused: EventLoopFuture<Void> {
    base.eventLoop.makeFailedFuture(ReadOnlyTransaction())
  }

  func execute(
    query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> Void
  ) -> EventLoopFuture<Void> {
    switch query.action {
    case .read, .aggregate:
      return base.execute(query: query, onOutput: onOutput)
    case .create, .update, .delete, .custom:
      if readOnly { return refused }
      return inTurn { $0.execute(query: query, onOutput: onOutput) }
    }
  }

  func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> {
    if readOnly { return refused }
    return inTurn { $0.execute(schema: schema) }
  }

  func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> {
    inTurn { $0.execute(enum: `enum`) }
  }

  // `T: Sendable`, as the SQLite driver's own database declares it: what crosses to the
  // writer's turn must be safe to send.
  func transaction<T: Sendable>(
    _ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>
  ) -> EventLoopFuture<T> {
    inTurn { $0.transaction { closure(GatedDatabase.wrap($0, like: self)) } }
  }

  func withConnection<T: Sendable>(
    _ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>
  ) -> EventLoopFuture<T> {
    inTurn { $0.withConnection { closure(GatedDatabase.wrap($0, like: self)) } }
  }

  /// A transaction's or `withConnection` block's database, inside the gate already.
  static func wrap(_ database: any Database, like outer: GatedDatabase) -> any Database {
    guard let sql = database as? any Database & SQLDatabase else { return database }
    return GatedDatabase(
      base: sql, gate: outer.gate, direct: outer.direct, holding: true, readOnly: outer.readOnly)
  }

  /// A transaction that only reads, without waiting for the gate: in WAL mode it reads one
  /// consistent snapshot however long it takes, while writers go on. A write inside it fails
  /// with `ReadOnlyTransaction` (taking the gate while holding a connection could deadlock).
  func readTransaction<T: Sendable>(
    _ body: @escaping @Sendable (any Database) async throws -> T
  ) async throws -> T {
    var reader = self
    reader.readOnly = true
    return try await base.transaction { [reader] db in
      try await body(GatedDatabase.wrap(db, like: reader))
    }
  }

  // SQLDatabase

  var dialect: any SQLDialect { base.dialect }
  var version: (any SQLDatabaseReportedVersion)? { base.version }
  var queryLogLevel: Logger.Level? { base.queryLogLevel }

  func execute(
    sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
  ) -> EventLoopFuture<Void> {
    if isRead(query) { return base.execute(sql: query, onRow) }
    if readOnly { return refused }
    return inTurn { $0.execute(sql: query, onRow) }
  }

  func execute(
    sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
  ) async throws {
    if isRead(query) { return try await base.execute(sql: query, onRow) }
    if readOnly { throw ReadOnlyTransaction() }
    if passes { return try await base.execute(sql: query, onRow) }
    try await gate.run { try await base.execute(sql: query, onRow) }
  }

  func withSession<R>(
    _ closure: @escaping @Sendable (any SQLDatabase) async throws -> R
  ) async throws -> R {
    if passes { return try await base.withSession(closure) }
    return try await gate.run { try await base.withSession(closure) }
  }

  /// Whether `query` only reads. Unknown expressions count as writes: the gate is the safe side.
  func isRead(_ query: any SQLExpression) -> Bool {
    switch query {
    case is SQLSelect, is SQLUnion: return true
    case is SQLQueryString, is SQLRaw:
      var serializer = SQLSerializer(database: self)
      query.serialize(to: &serializer)
      return Self.readsOnly(serializer.sql)
    default: return false
    }
  }

  /// Whether raw SQL text is a read: `SELECT …`, `EXPLAIN …`, or a pragma that sets nothing.
  static func readsOnly(_ text: String) -> Bool {
    let words = text.drop { $0.isWhitespace || $0 == "(" }.prefix(8).uppercased()
    if words.hasPrefix("SELECT") || words.hasPrefix("EXPLAIN") { return true }
    // `PRAGMA name = value` and `PRAGMA name(value)` change things, and so do a few bare
    // names; any other bare name only reads.
    if words.hasPrefix("PRAGMA") {
      let name = text.lowercased()
      let acting = ["optimize", "wal_checkpoint", "incremental_vacuum"]
      return !text.contains("=") && !text.contains("(") && !acting.contains { name.contains($0) }
    }
    return false
  }
}

/// A write inside `Database.readTransaction`.
struct ReadOnlyTransaction: Error, CustomStringConvertible {
  var description: String { "A read-only transaction cannot write." }
}

extension DatabaseID {
  /// The same SQLite file as `.sqlite`, for reads that take long (`Request.longReads`).
  static let sqliteLongReads = DatabaseID(string: "sqlite-long-reads")
}

extension Request {
  /// The database for a read that takes long (a backup's snapshot): on a SQLite file its own
  /// connections, so the request connections of the event loops stay free for everyone else;
  /// elsewhere the usual one.
  var longReads: any Database {
    guard application.databases.configuration(for: .sqliteLongReads) != nil else { return db }
    return db(.sqliteLongReads)
  }
}

extension Database {
  /// A transaction for reads that need one consistent view (a backup): on SQLite it does not
  /// hold up writers (`GatedDatabase.readTransaction`); elsewhere a plain transaction.
  func readTransaction<T: Sendable>(
    _ body: @escaping @Sendable (any Database) async throws -> T
  ) async throws -> T {
    if let gated = self as? GatedDatabase { return try await gated.readTransaction(body) }
    return try await transaction(body)
  }
}
