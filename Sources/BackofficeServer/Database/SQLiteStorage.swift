import Foundation
import GRDB
import NIOConcurrencyHelpers
import NIOCore
import SQLKit
import SQLiteKit
import Vapor

/// The server's SQLite database, through GRDB: on a file a `DatabasePool` (WAL, concurrent
/// readers on threads of their own, one serialized writer, kept statements), in memory a
/// `DatabaseQueue` (one connection, for tests that say why).
///
/// Every statement of the process runs here, whether a store wrote it or the model layer made
/// it (`SQLiteFluentDatabase`): no other SQLite library opens the file. Reads take a reader of
/// the pool and never wait for the writer. Writes wait in GRDB's one queue for its writer
/// connection, whatever made them: a statement, a store's closure (`write(_:)`), or a block
/// that awaits between its statements (a model-layer transaction), which holds the writer for
/// its whole length (`HeldWriter`).
final class SQLiteStorage: Sendable {
  let writer: any DatabaseWriter
  /// The file, or nil in memory.
  let path: String?
  /// Callers waiting for the writer now (for tests and diagnostics).
  private let waiting = NIOLockedValueBox(0)

  private init(writer: any DatabaseWriter, path: String?) {
    self.writer = writer
    self.path = path
  }

  /// How many readers a file's pool opens at most: each serves one read at a time.
  static let maximumReaders = 8

  /// Opens the file (creating it), or a database in memory when `path` is nil.
  static func open(path: String?, busyTimeoutMilliseconds: Int) throws -> SQLiteStorage {
    var configuration = GRDB.Configuration()
    configuration.label = "backoffice"
    configuration.foreignKeysEnabled = true
    // A held block's transaction begins and ends inside one access of GRDB's writer
    // (`HeldWriter.serve`), which rolls back what a block leaves open; this only keeps GRDB
    // from stopping the process for such a block.
    configuration.allowsUnsafeTransactions = true
    configuration.maximumReaderCount = maximumReaders
    // Another process on the same file (a CLI command, a second server): sleep and retry.
    // In this process writers meet only in GRDB's queue.
    configuration.busyMode = .timeout(Double(max(0, busyTimeoutMilliseconds)) / 1000)
    configuration.prepareDatabase { db in
      // In WAL mode a commit survives the process being killed; only a power cut may lose
      // the last ones before a checkpoint (docs/platform.md).
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
      // Temporary tables and indices (a `RETURNING` clause's rows, a sort that spills) in
      // memory: on disk each creates, writes and unlinks a file in /var/tmp, about one for
      // every other product creation.
      try db.execute(sql: "PRAGMA temp_store = MEMORY")
    }
    guard let path else {
      return SQLiteStorage(writer: try DatabaseQueue(configuration: configuration), path: nil)
    }
    return SQLiteStorage(
      writer: try DatabasePool(path: path, configuration: configuration), path: path)
  }

  func close() {
    try? (writer as? DatabasePool)?.close()
    try? (writer as? DatabaseQueue)?.close()
  }

  /// `close()` once the writes already in GRDB's queue are done, without holding up the
  /// calling thread: closing waits for the writer, and a transaction still running (a request
  /// past the drain's grace, a background job) needs the event loops to reach its end.
  func closeWhenWritesAreDone() async {
    _ = try? await writer.writeWithoutTransaction { _ in }
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        self.close()
        continuation.resume()
      }
    }
  }

  // MARK: short reads

  /// The rows of a short read, read now on the calling thread from a reader of the pool with
  /// a kept statement: for the reads every request makes (a token, a session, a version, a
  /// page of the catalog), where handing the read to another thread costs more than the read.
  /// Never inside a transaction (its own writes would not be seen).
  func readNow(_ sql: String, _ arguments: StatementArguments) throws -> [DirectRow] {
    let asked = DispatchTime.now().uptimeNanoseconds
    return try Self.translating {
      try writer.unsafeRead { db in
        Self.recordReadWait(since: asked)
        return try Self.rows(db, sql, arguments, kept: true)
      }
    }
  }

  /// `body` with a reader, on the calling thread; for stores that read rows straight into
  /// what they answer.
  func readNow<T>(_ body: (GRDB.Database) throws -> T) throws -> T {
    let asked = DispatchTime.now().uptimeNanoseconds
    return try Self.translating {
      try writer.unsafeRead { db in
        Self.recordReadWait(since: asked)
        return try body(db)
      }
    }
  }

  /// How long a read waited for a reader (`backoffice_db_read_wait_seconds`).
  private static func recordReadWait(since asked: UInt64) {
    AppMetrics.shared.readWait.recordNanoseconds(
      Int64(DispatchTime.now().uptimeNanoseconds &- asked))
  }

  /// `body`'s value, with SQLite's refusals in the model layer's terms (`SQLiteFailure`), so
  /// every path reports a constraint or a missing parent row alike.
  static func translating<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as GRDB.DatabaseError {
      throw SQLiteFailure(error)
    }
  }

  static func translatingAsync<T>(_ body: () async throws -> T) async throws -> T {
    do {
      return try await body()
    } catch let error as GRDB.DatabaseError {
      throw SQLiteFailure(error)
    }
  }

  /// `body` (one statement's read) with a reader, on GRDB's thread for it; the caller is resumed with the value after
  /// the reader is back in the pool.
  ///
  /// Not GRDB's `async` `read`: that keeps its reader until the awaiting task runs again, and
  /// the tasks run on the event loops, where `readNow` may be waiting for a reader. With every
  /// reader kept by such a task and both loops waiting in `readNow`, nothing moved again (seen
  /// under 32 connections on the products page). A reader here is only ever held by a closure
  /// that is running.
  func read<T: Sendable>(_ body: @escaping @Sendable (GRDB.Database) throws -> T) async throws
    -> T
  {
    // One statement reads one consistent state by itself: no transaction around it.
    let asked = DispatchTime.now().uptimeNanoseconds
    return try await withCheckedThrowingContinuation { continuation in
      writer.asyncUnsafeRead { database in
        Self.recordReadWait(since: asked)
        continuation.resume(with: Result { try Self.translating { try body(database.get()) } })
      }
    }
  }

  // MARK: writes

  /// Closure writes waiting for the writer (`write(_:)`), and whether a task is writing them.
  private let queuedWrites = NIOLockedValueBox(QueuedWrites())

  private struct QueuedWrites {
    var waiting: [QueuedWrite] = []
    var draining = false
  }

  private struct QueuedWrite: Sendable {
    /// When it was asked for (`backoffice_db_write_wait_seconds` counts from here).
    let asked = DispatchTime.now().uptimeNanoseconds
    let body: @Sendable (GRDB.Database) throws -> any Sendable
    let finish: @Sendable (Result<any Sendable, any Error>) -> Void
  }

  /// `body` in a `BEGIN IMMEDIATE` transaction on the writer, in its turn in GRDB's queue;
  /// nothing of it is written when it throws. The caller resumes after the commit.
  ///
  /// **Group commit.** The closure writes that are waiting when the writer comes free run
  /// together, in order, in one transaction, each in a savepoint of its own: one that throws
  /// is rolled back alone and gets its error; the others are committed together and each gets
  /// its value after the commit (or the commit's error). A commit writes every page it changed
  /// to the log once, however many creations changed it. A write that arrives while the
  /// writer is idle runs at once, alone.
  func write<T: Sendable>(_ body: @escaping @Sendable (GRDB.Database) throws -> T) async throws
    -> T
  {
    // Inside a model-layer transaction of this task (which holds the writer already) the
    // writes join it as a savepoint.
    if let held = heldByThisTask {
      do {
        return try await nestedWrite(body, in: held)
      } catch is HeldWriter.Ended {
        // The block ended meanwhile: a write of its own below.
      }
    }
    let value: any Sendable = try await withCheckedThrowingContinuation { continuation in
      let write = QueuedWrite(body: { try body($0) }, finish: { continuation.resume(with: $0) })
      let start = queuedWrites.withLockedValue { queue in
        queue.waiting.append(write)
        if queue.draining { return false }
        queue.draining = true
        return true
      }
      if start { writeGroups() }
    }
    guard let typed = value as? T else { throw WriteError.unexpectedValue }
    return typed
  }

  /// Asks GRDB's writer for an access that commits the closure writes waiting when it runs
  /// (so a group holds every write that arrived meanwhile), and for another after it while
  /// more are waiting.
  private func writeGroups() {
    writer.asyncWriteWithoutTransaction { db in
      let group = self.queuedWrites.withLockedValue { queue -> [QueuedWrite] in
        let group = Array(queue.waiting.prefix(Self.largestGroup))
        queue.waiting.removeFirst(group.count)
        if group.isEmpty { queue.draining = false }
        return group
      }
      if group.isEmpty { return }
      for write in group { Self.recordWriteWait(since: write.asked) }
      let results = Self.commit(group, in: db)
      // Whether more came meanwhile, decided under the lock a new write takes to see whether
      // to ask for an access itself.
      let more = self.queuedWrites.withLockedValue { queue in
        if queue.waiting.isEmpty { queue.draining = false }
        return queue.draining
      }
      for (write, result) in zip(group, results) { write.finish(result) }
      if more { self.writeGroups() }
    }
  }

  /// Most writes committed together: a caller waits for at most this many bodies, and an
  /// error that ends a transaction fails at most this many writes.
  static let largestGroup = 64

  /// How many closure writes wait for the writer now (for tests).
  var waitingWrites: Int { queuedWrites.withLockedValue { $0.waiting.count } }

  /// One transaction for `group`, each write in a savepoint; the result of each.
  private static func commit(_ group: [QueuedWrite], in db: GRDB.Database)
    -> [Result<any Sendable, any Error>]
  {
    do {
      try db.execute(sql: "BEGIN IMMEDIATE")
    } catch {
      return group.map { _ in .failure(translated(error)) }
    }
    var results: [Result<any Sendable, any Error>] = []
    for write in group {
      do {
        try db.execute(sql: "SAVEPOINT grouped_write")
        let value = try write.body(db)
        try db.execute(sql: "RELEASE grouped_write")
        results.append(.success(value))
      } catch {
        results.append(.failure(translated(error)))
        var undone = false
        if db.isInsideTransaction {
          do {
            try db.execute(sql: "ROLLBACK TO grouped_write")
            try db.execute(sql: "RELEASE grouped_write")
            undone = true
          } catch {
            // What this write did could not be taken back alone: nothing of the group may
            // be committed with it.
            try? db.execute(sql: "ROLLBACK")
          }
        }
        // Some failures (a full disk, an I/O error) end the whole transaction: what the
        // earlier writes of the group did is gone with it, so they fail too.
        if !undone {
          return results.map { $0.flatMap { _ in .failure(translated(error)) } }
            + group.dropFirst(results.count).map { _ in .failure(translated(error)) }
        }
      }
    }
    do {
      try db.execute(sql: "COMMIT")
      return results
    } catch {
      // A failed COMMIT leaves the transaction open.
      try? db.execute(sql: "ROLLBACK")
      return group.map { _ in .failure(translated(error)) }
    }
  }

  enum WriteError: Error {
    /// A write's value came back as another type (cannot happen: it is the closure's own).
    case unexpectedValue
  }

  private static func translated(_ error: any Error) -> any Error {
    (error as? GRDB.DatabaseError).map(SQLiteFailure.init) ?? error
  }

  private func nestedWrite<T: Sendable>(
    _ body: @escaping @Sendable (GRDB.Database) throws -> T, in held: HeldWriter
  ) async throws -> T {
    try await Self.translatingAsync {
      try await held.run { db in
        try db.execute(sql: "SAVEPOINT store_write")
        do {
          let value = try body(db)
          try db.execute(sql: "RELEASE store_write")
          return value
        } catch {
          try? db.execute(sql: "ROLLBACK TO store_write")
          try? db.execute(sql: "RELEASE store_write")
          throw error
        }
      }
    }
  }

  // MARK: turns at the writer

  /// One caller waiting for the writer: counted in `waitingForWriter` until its access
  /// begins, when its wait is recorded (`backoffice_db_write_wait_seconds`).
  final class WriterTurn: Sendable {
    private let asked = DispatchTime.now().uptimeNanoseconds
    private let waiting: NIOLockedValueBox<Int>
    private let open = NIOLockedValueBox(true)

    fileprivate init(waiting: NIOLockedValueBox<Int>) {
      self.waiting = waiting
      waiting.withLockedValue { $0 += 1 }
    }

    /// The caller's access has begun (or will not happen); only the first call counts.
    func began() {
      guard
        open.withLockedValue({ open in
          defer { open = false }
          return open
        })
      else { return }
      waiting.withLockedValue { $0 -= 1 }
      SQLiteStorage.recordWriteWait(since: asked)
    }
  }

  func waitForTurn() -> WriterTurn { WriterTurn(waiting: waiting) }

  /// How many callers wait for the writer now: statements, held blocks and closure writes.
  var waitingForWriter: Int { waiting.withLockedValue { $0 } + waitingWrites }

  /// How long a write waited for the writer (`backoffice_db_write_wait_seconds`).
  static func recordWriteWait(since asked: UInt64) {
    AppMetrics.shared.writeWait.recordNanoseconds(
      Int64(DispatchTime.now().uptimeNanoseconds &- asked))
  }

  // MARK: statements

  /// Runs `sql` and returns its rows as `SQLRow`s, decoded as the model layer decodes rows.
  /// `kept`: a statement the app runs again and again (GRDB keeps it prepared); the model
  /// layer's statements, of many shapes, are prepared each time.
  static func rows(
    _ db: GRDB.Database, _ sql: String, _ arguments: StatementArguments, kept: Bool
  ) throws -> [DirectRow] {
    let statement = kept ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
    return try rows(statement, arguments)
  }

  static func rows(_ statement: Statement, _ arguments: StatementArguments) throws -> [DirectRow] {
    let cursor = try Row.fetchCursor(statement, arguments: arguments)
    // The statement keeps its column names: every row shares that one array.
    let names = statement.columnNames
    var rows: [DirectRow] = []
    while let row = try cursor.next() {
      rows.append(DirectRow(names: names, values: row.databaseValues.map(SQLiteData.init)))
    }
    return rows
  }

  /// The arguments of a statement, each encoded as the model layer stores it (an id as its
  /// upper-case text, a date as seconds since 1970, …).
  ///
  /// GRDB copies whatever it is given into its own array (through a key path for an array of
  /// `DatabaseValue`s); a lazy view of the values lets that copy be the only array made. Only
  /// the generic encoder can fail, so values that need it take the longer way.
  static func arguments(_ values: [any Encodable]) throws -> StatementArguments {
    guard values.allSatisfy(isDirect) else { return StatementArguments(try values.map(value)) }
    return StatementArguments(
      values.lazy.map { bound -> (any DatabaseValueConvertible)? in try? value(bound) })
  }

  /// Whether `value` is bound without the generic encoder (so `value(_:)` cannot fail).
  private static func isDirect(_ value: any Encodable) -> Bool {
    value is String || value is UUID || value is Int || value is Int64 || value is Bool
      || value is Date || value is Double
  }

  /// `arguments(_:)` for optional values (nil binds NULL).
  static func arguments(optional values: [(any Encodable)?]) throws -> StatementArguments {
    StatementArguments(try values.map { value in try value.map(Self.value) ?? .null })
  }

  /// One bound value as SQLiteKit's encoder stores it; the common kinds without its generic
  /// encoding (an id as its upper-case text, a time as seconds since 1970).
  static func value(_ value: any Encodable) throws -> DatabaseValue {
    switch value {
    case let text as String: text.databaseValue
    case let id as UUID: UUIDText.uppercased(id).databaseValue
    case let number as Int: number.databaseValue
    case let number as Int64: number.databaseValue
    case let flag as Bool: (flag ? 1 : 0).databaseValue
    case let time as Date: time.timeIntervalSince1970.databaseValue
    case let number as Double: number.databaseValue
    default: DatabaseValue(try DirectRow.encoder.encode(value))
    }
  }
}

extension DatabaseValue {
  init(_ data: SQLiteData) {
    switch data {
    case .integer(let number): self = Int64(number).databaseValue
    case .float(let number): self = number.databaseValue
    case .text(let text): self = text.databaseValue
    case .blob(let buffer): self = Data(buffer.readableBytesView).databaseValue
    case .null: self = .null
    }
  }
}

extension SQLiteData {
  init(_ value: DatabaseValue) {
    switch value.storage {
    case .null: self = .null
    case .int64(let number): self = .integer(Int(number))
    case .double(let number): self = .float(number)
    case .string(let text): self = .text(text)
    case .blob(let data): self = .blob(ByteBuffer(bytes: data))
    }
  }
}

/// One row read from SQLite, decoded the way the model layer decodes its values.
struct DirectRow: SQLRow, Sendable {
  let names: [String]
  let values: [SQLiteData]

  init(names: [String], values: [SQLiteData]) {
    self.names = names
    self.values = values
  }

  init(_ row: Row) {
    names = Array(row.columnNames)
    values = row.databaseValues.map(SQLiteData.init)
  }

  var allColumns: [String] { names }

  func contains(column: String) -> Bool { names.contains(column) }

  private func value(_ column: String) throws -> SQLiteData {
    guard let index = names.firstIndex(of: column) else {
      throw DecodingError.keyNotFound(
        ColumnKey(column),
        .init(codingPath: [], debugDescription: "No column \(column) in the row."))
    }
    return values[index]
  }

  func decodeNil(column: String) throws -> Bool { try value(column) == .null }

  func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
    let value = try value(column)
    if let known = Self.known(value, as: D.self) { return known }
    return try Self.decoder.decode(D.self, from: value)
  }

  /// SQLiteKit's conversion of the values the app's columns hold (text, ids as text, integers,
  /// flags, times as seconds, and each of them or NULL), with the same result, without its
  /// generic decoding: every request decodes a dozen such values (its session or token, the
  /// person, the workspace), and the generic way cost more than the statement. Anything else
  /// (and any value these rules would refuse) goes the generic way, with its errors.
  static func known<D>(_ value: SQLiteData, as type: D.Type) -> D? {
    func same<T>(_ known: T) -> D { unsafeBitCast(known, to: D.self) }
    switch value {
    case .text(let text):
      if D.self == String.self { return same(text) }
      if D.self == String?.self { return same(String?.some(text)) }
      if D.self == UUID.self, let id = UUIDText.parse(text) { return same(id) }
      if D.self == UUID?.self, let id = UUIDText.parse(text) { return same(UUID?.some(id)) }
    case .integer(let number):
      if D.self == Int.self { return same(number) }
      if D.self == Int?.self { return same(Int?.some(number)) }
      if D.self == Int64.self { return same(Int64(number)) }
      if D.self == Int64?.self { return same(Int64?.some(Int64(number))) }
      if D.self == Bool.self, number == 0 || number == 1 { return same(number == 1) }
      if D.self == Bool?.self, number == 0 || number == 1 { return same(Bool?.some(number == 1)) }
      if D.self == Date.self { return same(date(Double(number))) }
      if D.self == Date?.self { return same(Date?.some(date(Double(number)))) }
      if D.self == Double.self { return same(Double(number)) }
      if D.self == Double?.self { return same(Double?.some(Double(number))) }
    case .float(let number):
      if D.self == Date.self { return same(date(number)) }
      if D.self == Date?.self { return same(Date?.some(date(number))) }
      if D.self == Double.self { return same(number) }
      if D.self == Double?.self { return same(Double?.some(number)) }
    case .null:
      if D.self == String?.self { return same(String?.none) }
      if D.self == UUID?.self { return same(UUID?.none) }
      if D.self == Int?.self { return same(Int?.none) }
      if D.self == Int64?.self { return same(Int64?.none) }
      if D.self == Bool?.self { return same(Bool?.none) }
      if D.self == Date?.self { return same(Date?.none) }
      if D.self == Double?.self { return same(Double?.none) }
    case .blob:
      break
    }
    return nil
  }

  /// Seconds since 1970 as SQLiteKit reads them: rounded to the microsecond, so a time read
  /// back equals the time written.
  static func date(_ seconds: Double) -> Date {
    let sinceReference = seconds - Date.timeIntervalBetween1970AndReferenceDate
    return Date(timeIntervalSinceReferenceDate: (sinceReference * 1e6).rounded() / 1e6)
  }

  /// SQLiteKit's conversions, made once: each makes a JSON coder when created, which a read
  /// on every request should not pay for each value.
  static let decoder = SQLiteDataDecoder()
  static let encoder = SQLiteDataEncoder()

  struct ColumnKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

extension Application {
  /// The SQLite database, when the app stores its data in one (for tests and diagnostics).
  var sqliteStorage: SQLiteStorage? { (db as? SQLiteFluentDatabase)?.storage }
}

extension ShortWrite {
  /// The statements' SQL and SQLite arguments, made before a turn at the writer.
  static func prepared(_ writes: [ShortWrite]) throws -> [(String, StatementArguments)] {
    try writes.map { ($0.statement.sql, try SQLiteStorage.arguments($0.binds)) }
  }

  /// Runs prepared statements inside a store's write on the SQLite file.
  static func run(_ prepared: [(String, StatementArguments)], in db: GRDB.Database) throws {
    for (sql, arguments) in prepared {
      try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }
  }
}
