import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// A value a short read binds, encoded as the model layer encodes it.
protocol ShortReadValue: Encodable, Sendable {}
extension String: ShortReadValue {}
extension UUID: ShortReadValue {}

/// A short read that every request of some kind runs (the API token, the browser session, a
/// change version), written once with numbered parameters (`?1`, `?2`, …).
///
/// A parameter compared with a column in a join is best written `CAST(?1 AS TEXT)`: some SQLite
/// versions (3.53) mark a bare parameter there as one whose value may change the plan, and
/// then prepare the kept statement again on every new value, which costs more than the read.
/// The cast keeps the index (`EXPLAIN QUERY PLAN` shows the same searches). On a SQLite file it
/// runs at once on a reader with a kept statement (`SQLiteStorage.readNow`); elsewhere (in a
/// transaction, on PostgreSQL, in memory, or when SQLite refuses it on a reader) through the
/// model layer's SQL database, `?1` becoming that database's own binds.
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

  /// The same statement for the model layer's SQL database, each parameter a bind in its syntax.
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

  func rows(on db: any Database, _ binds: [any ShortReadValue]) async throws
    -> [any SQLRow]
  {
    if let storage = (db as? SQLiteFluentDatabase)?.readsNow,
      let rows = try? storage.readNow(sql, SQLiteStorage.arguments(binds))
    {
      return rows
    }
    let sql = try db.sql()
    return try await sql.raw(query(binds)).all()
  }

  func first(on db: any Database, _ binds: [any ShortReadValue]) async throws -> (
    any SQLRow
  )? {
    try await rows(on: db, binds).first
  }
}

/// A short read written with SQLKit (a statement with binds, a select builder's query), made
/// at once on a reader (`SQLiteStorage.readNow`) when the database is the app's SQLite file
/// and not inside a transaction, through the model layer's SQL database otherwise.
///
/// Only for reads that take well under a millisecond (an indexed page, a count from an index):
/// such a read runs on the request's own thread. Whole-table reads (exports, backups) go
/// through the model layer, which reads on the pool's threads.
enum DirectQuery {
  static func rows(_ query: any SQLExpression, on db: any Database) async throws
    -> [any SQLRow]
  {
    let sql = try db.sql()
    if let storage = (db as? SQLiteFluentDatabase)?.readsNow {
      var serializer = SQLSerializer(database: sql)
      query.serialize(to: &serializer)
      if let rows = try? storage.readNow(serializer.sql, SQLiteStorage.arguments(serializer.binds))
      {
        return rows
      }
    }
    let rows = NIOLockedValueBox<[any SQLRow]>([])
    try await sql.execute(sql: query) { row in rows.withLockedValue { $0.append(row) } }
    return rows.withLockedValue { $0 }
  }

  static func first(_ query: any SQLExpression, on db: any Database) async throws -> (
    any SQLRow
  )? {
    try await rows(query, on: db).first
  }
}

extension Date: ShortReadValue {}
extension Optional: ShortReadValue where Wrapped: ShortReadValue {}

/// Short writes that need no answer (a log line and the pruning of old lines), written like
/// `ShortRead` with numbered parameters and run as one transaction: on a SQLite file in one
/// turn on GRDB's writer with kept statements (`SQLiteStorage.write`, a savepoint inside a
/// transaction the task holds); elsewhere, or through a transaction's own handle, through the
/// model layer's SQL database.
struct ShortWrite: Sendable {
  let statement: ShortRead
  let binds: [any ShortReadValue]

  init(_ statement: ShortRead, _ binds: [any ShortReadValue]) {
    self.statement = statement
    self.binds = binds
  }

  static func run(_ writes: [ShortWrite], on db: any Database) async throws {
    // A shared handle on the SQLite file, also inside a transaction this task holds (whose
    // writer the closure write then joins as a savepoint).
    if let sqlite = db as? SQLiteFluentDatabase, case .shared = sqlite.access,
      sqlite.storage.path != nil
    {
      let prepared = try prepared(writes)
      try await sqlite.storage.write { db in try run(prepared, in: db) }
      return
    }
    try await db.transaction { db in
      let sql = try db.sql()
      for write in writes { try await sql.raw(write.statement.query(write.binds)).run() }
    }
  }
}
