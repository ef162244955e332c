import Fluent
import Foundation

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
