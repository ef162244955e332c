import Fluent
import Foundation
import SQLKit

/// How many rows one INSERT statement carries, and the error for rows that do not fit one
/// statement's column list.
enum BulkInsert {
  /// Rows per statement: well below SQLite's and PostgreSQL's limits on bound values for the
  /// widest table here.
  static let defaultBatch = 200

  struct BulkInsertError: Error, CustomStringConvertible {
    var schema: String
    var description: String { "Rows for \(schema) do not all set the same columns." }
  }
}

/// New rows (a store's row makers) turned into SQL binds ahead of time, so that a transaction
/// holding the write lock only sends them: building the rows stays outside it.
struct PreparedInsert: Sendable {
  let table: String
  let columns: [String]
  /// One row of binds per new row, in the order given.
  let rows: [[any SQLExpression]]

  /// New rows of one table, each with the same columns (a store's `new…` row makers).
  init(_ rows: [NewRow]) throws {
    let first = rows.first
    table = first?.table ?? ""
    columns = first?.columns ?? []
    self.rows = try rows.map { row in
      guard row.table == first?.table, row.columns == first?.columns else {
        throw BulkInsert.BulkInsertError(schema: row.table)
      }
      return row.binds
    }
  }

  private init(table: String, columns: [String], rows: [[any SQLExpression]]) {
    self.table = table
    self.columns = columns
    self.rows = rows
  }

  /// The same rows with `column` set to `values[n]` in row `n`: for a value known only once
  /// the write lock is held, such as a product's number.
  func setting(_ column: String, to values: [any SQLExpression]) throws -> PreparedInsert {
    guard let index = columns.firstIndex(of: column), values.count == rows.count else {
      throw BulkInsert.BulkInsertError(schema: table)
    }
    var rows = rows
    for (row, value) in zip(rows.indices, values) { rows[row][index] = value }
    return PreparedInsert(table: table, columns: columns, rows: rows)
  }

  /// Inserts every row, `batch` rows per statement.
  func run(on db: any Database, batch: Int = BulkInsert.defaultBatch) async throws {
    let sql = try db.sql()
    var start = 0
    while start < rows.count {
      let chunk = rows[start..<min(start + batch, rows.count)]
      let insert = sql.insert(into: table).columns(columns)
      for row in chunk { insert.values(row) }
      try await insert.run()
      start += chunk.count
    }
  }
}

/// A new row's table, columns and values, in the same order: what a store's row makers give
/// (`ProductStore.newProduct`), so each table's insert has one column list however it is sent.
struct NewRow: Sendable {
  let table: String
  let columns: [String]
  let values: [(any Encodable & Sendable)?]

  /// The values as binds (nil as NULL).
  var binds: [any SQLExpression] {
    values.map { value -> any SQLExpression in
      if let value { SQLBind(value) } else { SQLLiteral.null }
    }
  }
}
