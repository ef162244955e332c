import FluentKit
import SQLKit
import Vapor

/// Whether the database answers: one trivial statement (`/ready`).
enum DatabaseHealth {
  static func check(_ db: any Database) async throws {
    guard let sql = db as? any SQLDatabase else { throw Abort(.serviceUnavailable) }
    try await sql.raw("SELECT 1").run()
  }
}
