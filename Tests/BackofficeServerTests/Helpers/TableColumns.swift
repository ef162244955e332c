import Fluent
import SQLKit
import Testing

@testable import BackofficeServer

/// The columns of `table` as the suite's database describes it (SQLite's `table_info`,
/// PostgreSQL's `information_schema`): what row makers and reads are held to.
func tableColumns(_ table: String, on db: any Database) async throws -> Set<String> {
  let sql = try db.sql()
  let query: SQLQueryString =
    sql.dialect.name == "sqlite"
    ? "SELECT name FROM pragma_table_info(\(bind: table))"
    : """
    SELECT column_name AS name FROM information_schema.columns
    WHERE table_name = \(bind: table) AND table_schema = current_schema()
    """
  return Set(
    try await sql.raw(query).all().map { try $0.decode(column: "name", as: String.self) })
}
