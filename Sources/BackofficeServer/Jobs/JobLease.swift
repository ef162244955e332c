import Fluent
import Foundation
import SQLKit
import Vapor

/// A named lease in the database, so that when several app instances share one database only
/// one of them does a given job. A lease is taken only once it has expired; taking it is one
/// conditional `UPDATE`, which both SQLite and PostgreSQL run atomically (PostgreSQL re-checks
/// the condition after waiting for a competing writer's row lock).
enum JobLease {
  static let table = "job_leases"

  /// Takes the lease `name` for `holder` until `now + duration`, if nobody holds it now.
  static func acquire(
    _ name: String, holder: String, for duration: TimeInterval, now: Date, on db: any Database
  ) async throws -> Bool {
    let sql = try db.sql()
    // The row exists from then on; an expired one is what the update below can take.
    try await sql.insert(into: table)
      .columns("name", "holder", "expires_at")
      .values(SQLBind(name), SQLBind(""), SQLBind(Date(timeIntervalSince1970: 0)))
      .ignoringConflicts(with: ["name"])
      .run()
    let taken = try await sql.update(table)
      .set("holder", to: SQLBind(holder))
      .set("expires_at", to: SQLBind(now.addingTimeInterval(duration)))
      .where("name", .equal, SQLBind(name))
      .where("expires_at", .lessThanOrEqual, SQLBind(now))
      .returning("holder")
      .all()
    return !taken.isEmpty
  }

  /// Extends a lease `holder` still has; false when it has been lost to another instance.
  static func renew(
    _ name: String, holder: String, for duration: TimeInterval, now: Date, on db: any Database
  ) async throws -> Bool {
    let renewed = try await db.sql().update(table)
      .set("expires_at", to: SQLBind(now.addingTimeInterval(duration)))
      .where("name", .equal, SQLBind(name))
      .where("holder", .equal, SQLBind(holder))
      .returning("holder")
      .all()
    return !renewed.isEmpty
  }

  /// Who holds `name` and until when, if anyone ever took it.
  static func current(_ name: String, on db: any Database) async throws
    -> (holder: String, expiresAt: Date)?
  {
    guard
      let row = try await db.sql().select().columns("holder", "expires_at")
        .from(table).where("name", .equal, SQLBind(name)).first()
    else { return nil }
    return (
      try row.decode(column: "holder", as: String.self),
      try row.decode(column: "expires_at", as: Date.self)
    )
  }
}
