import FluentKit
import FluentSQL
import Foundation
import GRDB
import NIOCore
import SQLKit
import SQLiteKit

extension DatabaseID {
  /// The server's SQLite database (file or memory).
  static let sqlite = DatabaseID(string: "sqlite")
}

/// The model layer's SQLite database: Fluent's queries and schema changes, and SQLKit's
/// statements, run on `SQLiteStorage` (GRDB).
///
/// Fluent turns a query into SQL (FluentSQL's converter with SQLiteKit's dialect, as its own
/// SQLite driver does); values are bound and rows decoded with SQLiteKit's coders, so the file
/// holds exactly what it held before. Where a statement runs:
/// - outside a transaction, a read runs on a reader of the pool and a write in its turn on the
///   writer. A Fluent query says which it is, and so does an SQLKit `SELECT`; for raw SQL
///   SQLite itself says (`sqlite3_stmt_readonly`, GRDB's `Statement.isReadonly`);
/// - in a transaction or `withConnection` block, every statement runs on the writer
///   connection, which the block holds from start to end (`HeldWriter`);
/// - in a read transaction (`readTransaction`, for backups), every statement reads one
///   snapshot of its own connection, and writes are refused.
struct SQLiteFluentDatabase: FluentKit.Database, SQLDatabase {
  let storage: SQLiteStorage
  let context: DatabaseContext
  enum Access: Sendable {
    /// Reads on readers, writes in their turn on the writer.
    case shared
    /// This block holds the writer.
    case writer(HeldWriter)
    /// Reads of one snapshot; no writes.
    case snapshot(DatabaseSnapshot)
  }
  var access: Access = .shared
  var inTransaction = false

  var dialect: any SQLDialect { SQLiteDialect() }
  var version: (any SQLDatabaseReportedVersion)? { nil }
  var queryLogLevel: Logger.Level? { .debug }

  // MARK: running statements

  enum Kind {
    case read, write, unknown
  }

  /// The rows of `query`, run where its kind and this database's access say.
  func run(_ query: any SQLKit.SQLExpression, kind: Kind) async throws -> [DirectRow] {
    var serializer = SQLSerializer(database: self)
    query.serialize(to: &serializer)
    let sql = serializer.sql
    let arguments = try SQLiteStorage.arguments(serializer.binds)
    if logger.logLevel <= .debug { logger.debug("\(sql)") }
    do {
      switch access {
      case .writer(let held):
        // Only while the block lasts: a statement of a block that has ended fails (it would
        // otherwise commit on its own what belonged to the block's transaction).
        return try await held.run { db in
          try SQLiteStorage.rows(db, sql, arguments, kept: false)
        }
      case .snapshot(let snapshot):
        return try await snapshot.read { db in
          let statement = try db.makeStatement(sql: sql)
          guard statement.isReadonly else { throw ReadOnlyTransaction() }
          return try SQLiteStorage.rows(statement, arguments)
        }
      case .shared where storage.path == nil || storage.heldByThisTask != nil:
        // In memory there is one connection, which a transaction may hold open: everything
        // waits its turn. A task that holds the writer already (a transaction it runs through
        // another handle) reads there too, so it sees its own writes.
        return try await write(sql, arguments)
      case .shared:
        switch kind {
        case .read:
          return try await storage.read { db in
            try SQLiteStorage.rows(db, sql, arguments, kept: false)
          }
        case .unknown:
          // A statement SQLite cannot prepare on a reader (a schema change it cannot check
          // there) goes to the writer, which answers with the real error if there is one.
          let read = try await storage.read { db -> [DirectRow]? in
            guard let statement = try? db.makeStatement(sql: sql), statement.isReadonly else {
              return nil
            }
            return try SQLiteStorage.rows(statement, arguments)
          }
          if let read { return read }
          return try await write(sql, arguments)
        case .write:
          return try await write(sql, arguments)
        }
      }
    } catch let error as GRDB.DatabaseError {
      throw SQLiteFailure(error)
    }
  }

  private func write(_ sql: String, _ arguments: StatementArguments) async throws -> [DirectRow] {
    try await storage.onWriter { db in
      try SQLiteStorage.rows(db, sql, arguments, kept: false)
    }
  }

  private func kind(of query: any SQLKit.SQLExpression) -> Kind {
    switch query {
    case is SQLSelect, is SQLUnion: .read
    case is SQLQueryString, is SQLRaw: .unknown
    default: .write
    }
  }

  // MARK: Database

  func execute(
    query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> Void
  ) -> EventLoopFuture<Void> {
    eventLoop.makeFutureKeepingBackground {
      try await self.execute(query: query, onOutput: onOutput)
    }
  }

  func execute(
    query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> Void
  ) async throws {
    var converted = SQLQueryConverter(delegate: SQLiteConverterDelegate()).convert(query)
    // A creation answers with its id, as the SQLite driver of the model layer does.
    if case .create = query.action, query.customIDKey != .some(.string("")) {
      converted = SQLKit.SQLList(
        [converted, SQLReturning(SQLColumn((query.customIDKey ?? .id).description))],
        separator: SQLRaw(" "))
    }
    let kind: Kind
    switch query.action {
    case .read, .aggregate: kind = .read
    case .create, .update, .delete, .custom: kind = .write
    }
    for row in try await run(converted, kind: kind) { onOutput(RowOutput(row: row, schema: nil)) }
  }

  func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> {
    var schema = schema
    if schema.action == .update {
      schema.updateFields = schema.updateFields.filter {
        if case .dataType(_, .enum) = $0 { return false }
        return true
      }
      guard schema.createConstraints.isEmpty, schema.updateFields.isEmpty,
        schema.deleteConstraints.isEmpty
      else { return eventLoop.makeFailedFuture(UnsupportedAlter()) }
      if schema.createFields.isEmpty, schema.deleteFields.isEmpty {
        return eventLoop.makeSucceededVoidFuture()
      }
    }
    let statement = SQLSchemaConverter(delegate: SQLiteConverterDelegate()).convert(schema)
    return eventLoop.makeFutureWithTask { _ = try await self.run(statement, kind: .write) }
  }

  func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> {
    eventLoop.makeSucceededVoidFuture()
  }

  /// `closure` holding the writer connection from start to end,
  /// without a transaction: for work that needs one connection's settings.
  func withConnection<T: Sendable>(
    _ closure: @escaping @Sendable (any FluentKit.Database) async throws -> T
  ) async throws -> T {
    try await holdingWriter { try await closure($0) }
  }

  func withConnection<T: Sendable>(
    _ closure: @escaping @Sendable (any FluentKit.Database) -> EventLoopFuture<T>
  ) -> EventLoopFuture<T> {
    eventLoop.makeFutureKeepingBackground {
      try await self.withConnection { try await closure($0).get() }
    }
  }

  /// `closure` as one `BEGIN IMMEDIATE` transaction on the writer connection, which it holds
  /// until the commit; inside a transaction this task holds already (through another handle),
  /// a savepoint of it.
  func transaction<T: Sendable>(
    _ closure: @escaping @Sendable (any FluentKit.Database) async throws -> T
  ) async throws -> T {
    if inTransaction { return try await closure(self) }
    if case .snapshot = access { throw ReadOnlyTransaction() }
    return try await holdingWriter { held in
      guard case .writer(let writer) = held.access else { throw HeldWriter.Ended() }
      var db = held
      db.inTransaction = true
      let nested = try await SQLiteStorage.translatingAsync {
        try await writer.run { connection in
          if connection.isInsideTransaction {
            try connection.execute(sql: "SAVEPOINT model_transaction")
            return true
          }
          try connection.execute(sql: "BEGIN IMMEDIATE")
          return false
        }
      }
      do {
        let value = try await closure(db)
        _ = try await db.run(SQLRaw(nested ? "RELEASE model_transaction" : "COMMIT"), kind: .write)
        return value
      } catch {
        // A failed COMMIT leaves the transaction open as well.
        let undo = nested ? "ROLLBACK TO model_transaction; RELEASE model_transaction" : "ROLLBACK"
        _ = try? await writer.run { connection in try connection.execute(sql: undo) }
        throw error
      }
    }
  }

  func transaction<T: Sendable>(
    _ closure: @escaping @Sendable (any FluentKit.Database) -> EventLoopFuture<T>
  ) -> EventLoopFuture<T> {
    eventLoop.makeFutureKeepingBackground {
      try await self.transaction { try await closure($0).get() }
    }
  }

  /// `body` reading one consistent snapshot on a connection of its own, however long it
  /// takes, while writers go on; a write inside fails with `ReadOnlyTransaction`.
  func readTransaction<T: Sendable>(
    _ body: @escaping @Sendable (any FluentKit.Database) async throws -> T
  ) async throws -> T {
    guard case .shared = access, let pool = storage.writer as? DatabasePool else {
      return try await transaction(body)
    }
    var reader = self
    reader.access = .snapshot(try pool.makeSnapshot())
    return try await body(reader)
  }

  /// `body` with this database holding the writer connection, taken first when this task
  /// does not hold it already.
  private func holdingWriter<T>(_ body: (SQLiteFluentDatabase) async throws -> T) async throws
    -> T
  {
    guard case .shared = access else { return try await body(self) }
    return try await storage.holdingWriter { writer in
      var held = self
      held.access = .writer(writer)
      return try await body(held)
    }
  }

  // MARK: SQLDatabase

  func execute(
    sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
  ) -> EventLoopFuture<Void> {
    eventLoop.makeFutureKeepingBackground { try await self.execute(sql: query, onRow) }
  }

  func execute(
    sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void
  ) async throws {
    for row in try await run(query, kind: kind(of: query)) { onRow(row) }
  }

  func withSession<R>(
    _ closure: @escaping @Sendable (any SQLDatabase) async throws -> R
  ) async throws -> R {
    try await holdingWriter { try await closure($0) }
  }
}

/// What SQLite answered instead of rows, in the model layer's terms (a constraint, a syntax
/// error, a closed database), with SQLite's own message.
struct SQLiteFailure: Error, FluentKit.DatabaseError, CustomStringConvertible {
  let error: GRDB.DatabaseError

  init(_ error: GRDB.DatabaseError) { self.error = error }

  /// SQLite's code and message, without the statement (which may be thousands of binds long).
  var description: String {
    "SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "\(error.resultCode)")"
  }
  var isSyntaxError: Bool { error.resultCode == .SQLITE_ERROR }
  var isConnectionClosed: Bool {
    error.resultCode == .SQLITE_MISUSE || error.resultCode == .SQLITE_CANTOPEN
  }
  var isConstraintFailure: Bool { error.resultCode == .SQLITE_CONSTRAINT }
  /// A row refused because the row it refers to is gone.
  var isMissingParent: Bool { error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY }
}

/// A write inside `Database.readTransaction`.
struct ReadOnlyTransaction: Error, CustomStringConvertible {
  var description: String { "A read-only transaction cannot write." }
}

private struct UnsupportedAlter: Error, CustomStringConvertible {
  var description: String { "SQLite only supports adding columns in ALTER TABLE statements." }
}

/// SQLite's column types for the model layer's schema, as its SQLite driver maps them.
private struct SQLiteConverterDelegate: SQLConverterDelegate {
  func customDataType(_ dataType: DatabaseSchema.DataType) -> (any SQLKit.SQLExpression)? {
    switch dataType {
    case .string: SQLRaw("TEXT")
    case .datetime: SQLRaw("REAL")
    case .int64: SQLRaw("INTEGER")
    case .enum: SQLRaw("TEXT")
    default: nil
    }
  }
}

/// A row as the model layer reads it (a field key, optionally under a schema prefix).
private struct RowOutput: DatabaseOutput {
  let row: any SQLRow
  let schema: String?

  var description: String { String(describing: row) }

  private func column(_ key: FieldKey) -> String {
    (schema.map { .prefix(.prefix(.string($0), "_"), key) } ?? key).description
  }

  func schema(_ schema: String) -> any DatabaseOutput { RowOutput(row: row, schema: schema) }
  func contains(_ key: FieldKey) -> Bool { row.contains(column: column(key)) }
  func decodeNil(_ key: FieldKey) throws -> Bool { try row.decodeNil(column: column(key)) }
  func decode<T: Decodable>(_ key: FieldKey, as: T.Type) throws -> T {
    try row.decode(column: column(key), as: T.self)
  }
}

/// The model layer's configuration for `SQLiteStorage`.
struct SQLiteStorageConfiguration: DatabaseConfiguration {
  let storage: SQLiteStorage
  var middleware: [any AnyModelMiddleware] = []

  func makeDriver(for databases: Databases) -> any DatabaseDriver { Driver(storage: storage) }

  struct Driver: DatabaseDriver {
    let storage: SQLiteStorage

    func makeDatabase(with context: DatabaseContext) -> any FluentKit.Database {
      SQLiteFluentDatabase(storage: storage, context: context)
    }

    func shutdown() { storage.close() }

    func shutdownAsync() async { await storage.closeWhenWritesAreDone() }
  }
}

extension SQLiteFluentDatabase {
  /// The storage a short read may read now, on the calling thread: on a file, outside any
  /// transaction or held block (whose own writes such a read would not see).
  var readsNow: SQLiteStorage? {
    guard case .shared = access, storage.path != nil, storage.heldByThisTask == nil else {
      return nil
    }
    return storage
  }
}

extension FluentKit.Database {
  /// A transaction for reads that need one consistent view (a backup): on a SQLite file a
  /// snapshot that does not hold up writers (`SQLiteFluentDatabase.readTransaction`);
  /// elsewhere a plain transaction.
  func readTransaction<T: Sendable>(
    _ body: @escaping @Sendable (any FluentKit.Database) async throws -> T
  ) async throws -> T {
    if let sqlite = self as? SQLiteFluentDatabase { return try await sqlite.readTransaction(body) }
    return try await transaction(body)
  }
}
