import FluentKit
import SQLKit
import Vapor

/// Whether the database answers: one trivial statement (`/ready`).
enum DatabaseHealth {
  static func check(_ db: any Database) async throws {
    let sql = try db.sql()
    try await sql.raw("SELECT 1").run()
  }
}
