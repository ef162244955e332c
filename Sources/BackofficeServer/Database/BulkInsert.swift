import Fluent
import Foundation
import SQLKit

/// Inserts many new models with one statement per batch instead of one per model.
///
/// Unlike `Model.create`, timestamps that are already set are kept, so a restored record keeps
/// the dates it had. Every model of a batch must have the same fields set (all of them, with
/// `nil` for empty optional fields), because one column list serves the whole statement.
enum BulkInsert {
  /// Rows per statement: well below SQLite's and PostgreSQL's limits on bound values for the
  /// widest table here.
  static let defaultBatch = 200

  static func insert<M: Model>(_ models: [M], on db: any Database, batch: Int = defaultBatch)
    async throws
  {
    var start = 0
    while start < models.count {
      let end = min(start + batch, models.count)
      let rows = models[start..<end].map(row)
      // Fluent stops the process on uneven rows; a thrown error is kinder.
      if let first = rows.first, rows.contains(where: { Set($0.keys) != Set(first.keys) }) {
        throw BulkInsertError(schema: M.schema)
      }
      try await M.query(on: db).set(rows).create()
      start = end
    }
  }

  /// The values the model would write, keyed by column.
  static func row(_ model: some Model) -> [FieldKey: DatabaseQuery.Value] {
    let input = RowInput()
    model.input(to: input)
    return input.values
  }

  struct BulkInsertError: Error, CustomStringConvertible {
    var schema: String
    var description: String { "Rows for \(schema) do not all set the same fields." }
  }

  private final class RowInput: DatabaseInput {
    var values: [FieldKey: DatabaseQuery.Value] = [:]

    func set(_ value: DatabaseQuery.Value, at key: FieldKey) {
      values[key] = value
    }
  }
}

/// New models turned into SQL rows ahead of time, so that a transaction holding the write lock
/// only sends them: building models and turning their values into binds stays outside it. The
/// columns are the models' own fields, as `BulkInsert` writes them.
struct PreparedInsert: Sendable {
  let table: String
  let columns: [String]
  /// One row of values per model, in the order given.
  let rows: [[any SQLExpression]]

  init<M: Model>(_ models: [M]) throws {
    table = M.schema
    let values = models.map(BulkInsert.row)
    let keys = values.first.map { $0.keys.sorted { $0.description < $1.description } } ?? []
    columns = keys.map(\.description)
    rows = try values.map { row in
      guard Set(row.keys) == Set(keys) else { throw BulkInsert.BulkInsertError(schema: M.schema) }
      return try keys.map { key in try Self.expression(row[key] ?? .null, schema: M.schema) }
    }
  }

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
    guard let sql = db as? any SQLDatabase else {
      throw BulkInsert.BulkInsertError(schema: table)
    }
    var start = 0
    while start < rows.count {
      let chunk = rows[start..<min(start + batch, rows.count)]
      let insert = sql.insert(into: table).columns(columns)
      for row in chunk { insert.values(row) }
      try await insert.run()
      start += chunk.count
    }
  }

  private static func expression(_ value: DatabaseQuery.Value, schema: String) throws
    -> any SQLExpression
  {
    switch value {
    case .bind(let encodable): SQLBind(encodable)
    case .null: SQLLiteral.null
    default: throw BulkInsert.BulkInsertError(schema: schema)
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
