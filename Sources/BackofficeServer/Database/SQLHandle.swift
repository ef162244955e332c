import FluentKit
import SQLKit
import Vapor

extension Database {
  /// The database's SQL handle. Both databases the app runs on (SQLite through GRDB and
  /// PostgreSQL through PostgresNIO) are SQL databases, so every store writes its SQL through
  /// this one cast; the error is for a database that is not, which no configuration makes.
  func sql() throws -> any SQLDatabase {
    guard let sql = self as? any SQLDatabase else {
      throw Abort(.internalServerError, reason: "This needs an SQL database.")
    }
    return sql
  }
}
