import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Deleting a workspace: every record in it, for every member, in one transaction. Members
/// lose it at once (their browsers move to another workspace of theirs on their next request,
/// their tokens for it are deleted); an account left with none gets a new, empty one of its
/// own (`WorkspaceStore.fallback`).
///
/// Kept on purpose: the workspace's change numbers (`change_versions`,
/// `product_change_counters`) and the tombstones its deleted products leave. A creator's own
/// workspace comes back with the same id when they next work in it, so a device's copy of the
/// old catalog learns from the feed that every product is gone, and nothing in the read cache
/// can be taken for the new, empty workspace's.
enum WorkspaceDeletion {
  /// The tables whose rows go, children before their parents (their foreign keys cascade as
  /// well, but the order keeps every trigger's view consistent).
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
      guard let sql = db as? any SQLDatabase else { return false }
      // The workspace's row first, as the claim: of two deletions at once, one finds it. By
      // the name that was typed too, so a late duplicate does not take the empty workspace
      // made afresh for its creator meanwhile (it is named after their email).
      let claimed = try await sql.delete(from: Workspace.schema)
        .where("id", .equal, SQLBind(workspaceID)).where("name", .equal, SQLBind(name))
        .returning("id").all()
      guard !claimed.isEmpty else { return false }
      for table in tables {
        try await sql.delete(from: table).where("workspace_id", .equal, SQLBind(workspaceID))
          .run()
      }
      try await sql.update(ProductCounter.schema)
        .set("product_count", to: SQLBind(0))
        .where("workspace_id", .equal, SQLBind(workspaceID)).run()
      return true
    }
  }
}
