import BackofficeCore
import Fluent
import FluentPostgresDriver
import Foundation
import SQLKit
import Vapor

/// Deleting a workspace: every record in it, for every member, in one transaction. Members
/// lose it at once (their browsers move to another workspace of theirs on their next request,
/// their tokens for it are deleted); an account left with none gets a new, empty one of its
/// own, with a new id (`WorkspaceStore.fallback`).
///
/// A write that was already on its way when the deletion committed (its token or session read
/// before, its row written after) is refused by the database: every record's `workspace_id`
/// references `workspaces(id)` (M093), so the row cannot be written for a workspace that is
/// gone, and the id is never handed out again. The client gets 404 `workspace_gone`
/// (`AppErrorMiddleware`). The workspace's change numbers are left behind (a few rows under an
/// id nobody uses again).
enum WorkspaceDeletion {
  /// The tables whose rows go, children before their parents. Most go with the workspace's
  /// row already (their references cascade, M093); API tokens and favourites have none, and
  /// naming every table keeps the list of what goes in one place.
  static let tables = [
    "product_favorites", "product_photos", "products", "fundraiser_photos", "fundraisers",
    "expenses", "ad_payments", "marketing_plans", "import_jobs", "idempotency_keys",
    "api_tokens", "invitations", "activity", "memberships",
  ]

  /// Deletes `workspaceID` and everything in it; false when it was already gone (the same
  /// form sent twice at once: one deletes, the others find nothing to do). Running imports
  /// into it stop (their job is gone, so their next batch is rolled back).
  @discardableResult
  static func delete(_ workspaceID: UUID, named name: String, on db: any Database) async throws
    -> Bool
  {
    try await db.transaction { db in
      let sql = try db.sql()
      // On PostgreSQL, the product counter's row first: a product's creation locks it and then
      // checks its workspace's row, so a deletion that locked the workspace's row first and
      // then met the counter (its cascade) would deadlock with it. Taken in the writers' order,
      // one waits for the other. (SQLite has one writer at a time.)
      if sql.dialect.name == "postgresql" {
        try await sql.raw(
          """
          SELECT workspace_id FROM product_counters
          WHERE workspace_id = \(bind: workspaceID) FOR UPDATE
          """
        ).run()
      }
      // The workspace's row first, as the claim: of two deletions at once, one finds it (by the
      // name that was typed too: a renamed workspace is not deleted under its old name).
      let claimed = try await sql.delete(from: Workspace.table)
        .where("id", .equal, SQLBind(workspaceID)).where("name", .equal, SQLBind(name))
        .returning("id").all()
      guard !claimed.isEmpty else { return false }
      for table in tables {
        try await sql.delete(from: table).where("workspace_id", .equal, SQLBind(workspaceID))
          .run()
      }
      return true
    }
  }
}

extension WorkspaceDeletion {
  /// The answer to a write whose workspace was deleted while it was on its way: nothing was
  /// saved (404 `workspace_gone`, as `AppErrorMiddleware` answers a refused row).
  static var gone: APIError {
    APIError(.notFound, code: "workspace_gone", message: L("workspace.gone"))
  }

  /// Whether `error` is the database refusing a row whose parent row is gone (a foreign key):
  /// SQLite says so in its message, PostgreSQL with SQLSTATE 23503.
  static func isMissingParent(_ error: any Error) -> Bool {
    if let error = error as? PSQLError {
      return error.serverInfo?[.sqlState] == "23503"
    }
    return (error as? SQLiteFailure)?.isMissingParent ?? false
  }
}
