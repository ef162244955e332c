import Fluent
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SQLKit
import SQLiteKit
import SQLiteNIO
import Vapor
import VaporCSQLite

/// Short reads that run on the calling thread, over read-only connections of their own that
/// keep their prepared statements.
///
/// The driver hands every statement to its thread pool and prepares it again each time; for
/// the one or two statements every request runs before its answer (the API token or browser
/// session with the account's change versions), that hand-off and preparation cost more than
/// the read itself (docs/PERFORMANCE.md). In WAL mode a reader never waits for the writer, so
/// such a read takes microseconds and is cheaper done where the request already runs.
///
/// It uses the same SQLite library as the driver, so both see one set of file locks. Each
/// connection is used by one caller at a time (taken from `idle` and put back); a statement
/// reads the newest committed state when it starts, like any other connection's, so a write
/// the driver has acknowledged is seen by the next direct read.
///
/// When SQLite answers anything but rows (busy during a checkpoint's recovery, a missing
/// table, a file that cannot be opened), `rows` returns `nil` and the caller reads the usual way: a direct read
/// is an optimisation, never the only path.
final class SQLiteDirectReads: Sendable {
  let path: String
  private let idle = NIOLockedValueBox<(connections: [Connection], served: Int)>(([], 0))
  private let logger: Logger
  /// Connections kept open between requests; more are opened when more callers read at once.
  static let maxIdle = 8

  init(path: String, logger: Logger) {
    self.path = path
    self.logger = logger
  }

  deinit {
    for connection in idle.withLockedValue({ $0.connections }) { connection.close() }
  }

  /// The rows `sql` returns with `binds` (`?1`, `?2`, … in SQLite's syntax), or `nil` when
  /// this read could not be made and the caller should read through the driver.
  func rows(_ sql: String, _ binds: [SQLiteData]) -> [DirectRow]? {
    guard let connection = take() else { return nil }
    switch connection.rows(sql, binds) {
    case .success(let rows):
      give(connection)
      return rows
    case .failure(let error):
      logger.debug("Direct SQLite read fell back to the driver: \(error)")
      // A connection whose statement failed is not trusted again.
      connection.close()
      return nil
    }
  }

  /// How many connections are open and idle now (for tests).
  var idleCount: Int { idle.withLockedValue { $0.connections.count } }

  /// How many reads were answered directly so far (for tests).
  var served: Int { idle.withLockedValue { $0.served } }

  /// How often the idle connections prepared `sql` again after its first preparation (for
  /// tests: a kept statement is only worth keeping if this stays 0).
  func repreparations(of sql: String) -> Int {
    idle.withLockedValue { $0.connections.reduce(0) { $0 + $1.repreparations(of: sql) } }
  }

  private func take() -> Connection? {
    if let connection = idle.withLockedValue({ $0.connections.popLast() }) { return connection }
    return Connection.open(path: path)
  }

  private func give(_ connection: Connection) {
    let kept = idle.withLockedValue { idle in
      idle.served += 1
      guard idle.connections.count < Self.maxIdle else { return false }
      idle.connections.append(connection)
      return true
    }
    if !kept { connection.close() }
  }

  struct Failure: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var description: String { "SQLite \(code): \(message)" }
  }

  /// One `sqlite3` handle and its prepared statements. Never used by two threads at once: a
  /// caller takes it from the idle list and puts it back when done.
  final class Connection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    private init(handle: OpaquePointer) { self.handle = handle }

    /// A reading connection, or with `setUp` a writing one set up by those statements.
    static func open(path: String, setUp: [String] = ["PRAGMA query_only = 1"]) -> Connection? {
      var handle: OpaquePointer?
      let flags =
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
      guard sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
        if let handle { sqlite_nio_sqlite3_close_v2(handle) }
        return nil
      }
      // By default reads only: this connection never writes, whatever it is asked.
      for statement in setUp {
        guard sqlite_nio_sqlite3_exec(handle, statement, nil, nil, nil) == SQLITE_OK else {
          sqlite_nio_sqlite3_close_v2(handle)
          return nil
        }
      }
      return Connection(handle: handle)
    }

    /// Waits up to `milliseconds` for another connection's write lock, sleeping.
    func waitForLocks(milliseconds: Int32) {
      if let handle { sqlite_nio_sqlite3_busy_timeout(handle, milliseconds) }
    }

    /// `rows`, throwing what SQLite answered instead of rows.
    @discardableResult
    func run(_ sql: String, _ binds: [SQLiteData] = []) throws -> [DirectRow] {
      try rows(sql, binds).get()
    }

    func close() {
      for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
      statements = [:]
      if let handle { sqlite_nio_sqlite3_close_v2(handle) }
      handle = nil
    }

    deinit { close() }

    private func failure(_ code: Int32) -> Failure {
      let message = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) }
      return Failure(code: code, message: message ?? "unknown")
    }

    private func statement(_ sql: String) -> Result<OpaquePointer, Failure> {
      if let cached = statements[sql] { return .success(cached) }
      var statement: OpaquePointer?
      let code = sqlite_nio_sqlite3_prepare_v3(
        handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
      guard code == SQLITE_OK, let statement else { return .failure(failure(code)) }
      statements[sql] = statement
      return .success(statement)
    }

    func repreparations(of sql: String) -> Int {
      guard let statement = statements[sql] else { return 0 }
      return Int(
        sqlite_nio_sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0))
    }

    func rows(_ sql: String, _ binds: [SQLiteData]) -> Result<[DirectRow], Failure> {
      let statement: OpaquePointer
      switch self.statement(sql) {
      case .success(let found): statement = found
      case .failure(let failure): return .failure(failure)
      }
      defer {
        sqlite_nio_sqlite3_reset(statement)
        sqlite_nio_sqlite3_clear_bindings(statement)
      }
      for (offset, value) in binds.enumerated() {
        let code = Self.bind(value, at: Int32(offset + 1), to: statement)
        guard code == SQLITE_OK else { return .failure(failure(code)) }
      }
      let count = sqlite_nio_sqlite3_column_count(statement)
      let names = (0..<count).map { column in
        sqlite_nio_sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
      }
      var rows: [DirectRow] = []
      while true {
        let code = sqlite_nio_sqlite3_step(statement)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else { return .failure(failure(code)) }
        let values = (0..<count).map { Self.value(of: statement, column: $0) }
        rows.append(DirectRow(names: names, values: values))
      }
      return .success(rows)
    }

    /// SQLite copies text and blobs at binding time.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func bind(_ value: SQLiteData, at index: Int32, to statement: OpaquePointer)
      -> Int32
    {
      switch value {
      case .integer(let number):
        return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
      case .float(let number): return sqlite_nio_sqlite3_bind_double(statement, index, number)
      case .text(let text):
        // With its length, as the driver binds it: text may hold NUL characters.
        return sqlite_nio_sqlite3_bind_text64(
          statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
      case .blob(let buffer):
        return buffer.withUnsafeReadableBytes { bytes in
          sqlite_nio_sqlite3_bind_blob(
            statement, index, bytes.baseAddress, Int32(bytes.count), transient)
        }
      case .null: return sqlite_nio_sqlite3_bind_null(statement, index)
      }
    }

    private static func value(of statement: OpaquePointer, column: Int32) -> SQLiteData {
      switch sqlite_nio_sqlite3_column_type(statement, column) {
      case SQLITE_INTEGER:
        return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
      case SQLITE_FLOAT:
        return .float(sqlite_nio_sqlite3_column_double(statement, column))
      case SQLITE_TEXT:
        // Read as the driver reads text (up to a NUL character), so both answer alike.
        guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
        return .text(String(cString: text))
      case SQLITE_BLOB:
        let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
        var buffer = ByteBufferAllocator().buffer(capacity: length)
        if let bytes = sqlite_nio_sqlite3_column_blob(statement, column), length > 0 {
          buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: length))
        }
        return .blob(buffer)
      default:
        return .null
      }
    }
  }
}

/// One row of a direct read, decoded the way the driver decodes its own rows.
struct DirectRow: SQLRow, Sendable {
  let names: [String]
  let values: [SQLiteData]

  var allColumns: [String] { names }

  func contains(column: String) -> Bool { names.contains(column) }

  private func value(_ column: String) throws -> SQLiteData {
    guard let index = names.firstIndex(of: column) else {
      throw DecodingError.keyNotFound(
        SQLiteDirectReads.ColumnKey(column),
        .init(codingPath: [], debugDescription: "No column \(column) in the row."))
    }
    return values[index]
  }

  func decodeNil(column: String) throws -> Bool { try value(column) == .null }

  func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
    try Self.decoder.decode(D.self, from: value(column))
  }

  /// The driver's own conversions, made once: each makes a JSON coder when created, which a
  /// read on every request should not pay for each value.
  static let decoder = SQLiteDataDecoder()
  static let encoder = SQLiteDataEncoder()
}

extension SQLiteDirectReads {
  struct ColumnKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }
}

/// A value a short read binds, encoded for a direct read exactly as the driver encodes it.
protocol ShortReadValue: Encodable, Sendable {}
extension String: ShortReadValue {}
extension UUID: ShortReadValue {}

/// A short read that every request of some kind runs (the API token, the browser session, a
/// change version), written once with numbered parameters (`?1`, `?2`, …).
///
/// A parameter compared with a column in a join is best written `CAST(?1 AS TEXT)`: SQLite
/// (3.53) marks a bare parameter there as one whose value may change the plan, and then
/// prepares the kept statement again on every new value, which costs more than the read.
/// The cast keeps the index (`EXPLAIN QUERY PLAN` shows the same searches). It runs as a direct
/// read when the app has them (SQLite files) and through the driver otherwise (PostgreSQL, an
/// in-memory SQLite, or a direct read that could not be made).
struct ShortRead: Sendable {
  enum Piece: Sendable {
    case text(String)
    case parameter(Int)
  }

  let sql: String
  private let pieces: [Piece]

  init(_ sql: String) {
    self.sql = sql
    var pieces: [Piece] = []
    var text = ""
    var rest = Substring(sql)
    while let first = rest.first {
      rest = rest.dropFirst()
      guard first == "?" else {
        text.append(first)
        continue
      }
      let digits = rest.prefix(while: \.isASCII).prefix(while: \.isNumber)
      guard let number = Int(digits), number > 0 else {
        text.append(first)
        continue
      }
      rest = rest.dropFirst(digits.count)
      pieces.append(.text(text))
      text = ""
      pieces.append(.parameter(number - 1))
    }
    pieces.append(.text(text))
    self.pieces = pieces
  }

  /// The same statement for the driver, each parameter a bind in the database's own syntax.
  func query(_ binds: [any ShortReadValue]) -> SQLQueryString {
    var query = SQLQueryString("")
    for piece in pieces {
      switch piece {
      case .text(let text): query.appendLiteral(text)
      case .parameter(let index): query.appendInterpolation(bind: binds[index])
      }
    }
    return query
  }

  func rows(on db: any Database, direct: SQLiteDirectReads?, _ binds: [any ShortReadValue])
    async throws -> [any SQLRow]
  {
    // Inside a transaction the read must see the transaction's own writes: the driver's.
    if let direct, !db.inTransaction,
      let values = try? binds.map({ try DirectRow.encoder.encode($0) }),
      let rows = direct.rows(sql, values)
    {
      return rows
    }
    guard let sql = db as? any SQLDatabase else {
      throw Abort(.internalServerError, reason: "This read needs an SQL database.")
    }
    return try await sql.raw(query(binds)).all()
  }

  func first(on db: any Database, direct: SQLiteDirectReads?, _ binds: [any ShortReadValue])
    async throws -> (any SQLRow)?
  {
    try await rows(on: db, direct: direct, binds).first
  }
}

extension Application {
  private struct DirectReadsKey: StorageKey {
    typealias Value = SQLiteDirectReads
  }

  /// Direct reads of the SQLite file, when the app stores its data in one.
  var directReads: SQLiteDirectReads? {
    get { storage[DirectReadsKey.self] }
    set { storage[DirectReadsKey.self] = newValue }
  }
}

/// A short read written with SQLKit (a statement with binds, a select builder's query), made
/// directly (`SQLiteDirectReads`) when the database is the app's SQLite file and not inside a
/// transaction, through the driver otherwise.
///
/// Only for reads that take well under a millisecond (an indexed page, a count from an index):
/// a direct read runs on the request's own thread. Whole-table reads (exports, backups) go
/// through the driver, which runs them on its own pool.
enum DirectQuery {
  static func rows(_ query: any SQLExpression, on db: any Database) async throws -> [any SQLRow] {
    guard let sql = db as? any SQLDatabase else {
      throw Abort(.internalServerError, reason: "This read needs an SQL database.")
    }
    if let direct = (db as? GatedDatabase)?.direct, !db.inTransaction {
      var serializer = SQLSerializer(database: sql)
      query.serialize(to: &serializer)
      if let values = try? serializer.binds.map({ try DirectRow.encoder.encode($0) }),
        let rows = direct.rows(serializer.sql, values)
      {
        return rows
      }
    }
    let rows = NIOLockedValueBox<[any SQLRow]>([])
    try await sql.execute(sql: query) { row in rows.withLockedValue { $0.append(row) } }
    return rows.withLockedValue { $0 }
  }

  static func first(_ query: any SQLExpression, on db: any Database) async throws -> (any SQLRow)? {
    try await rows(query, on: db).first
  }
}
