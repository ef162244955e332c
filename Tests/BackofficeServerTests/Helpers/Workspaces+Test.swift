import Fluent
import Foundation
import Testing

@testable import BackofficeServer

extension TestApp {
  /// The id of the account signed up with `email`.
  func userID(of email: String) async throws -> UUID {
    try #require(try await Accounts.find(email: email, on: db)?.requireID())
  }

  /// The workspace the account signed up with `email` created at sign-up: where its records
  /// live while it works in its own workspace. Its id is not the account's id.
  func workspaceID(of email: String) async throws -> UUID {
    try await workspaceID(ofUser: try await userID(of: email))
  }

  /// The workspace the account `userID` created (see `workspaceID(of:)`).
  func workspaceID(ofUser userID: UUID) async throws -> UUID {
    try #require(try await WorkspaceStore(db: db).own(of: userID)?.id)
  }

  /// Reverts `migration` and applies it again, on a database whose records were written by
  /// today's server. The migrations after it that need workspaces (M092 to M095, M097 to M099) are reverted first and
  /// applied again after it; before that every workspace moves to its creator's id, the shape
  /// M093 found, which its revert needs. One connection: SQLite connections notice another's
  /// schema change only at their next statement, which an ADD COLUMN right after a DROP COLUMN
  /// elsewhere does not wait for, and another connection of the in-memory database's pool may
  /// still hold a table's old shape for a moment.
  func applyAgain(_ migration: some AsyncMigration) async throws {
    try await WorkspaceMigrationTests.giveWorkspacesTheirCreatorsIDs(db)
    try await db.withConnection { db in
      try await M099_KeepExpenseMonthTotals().revert(on: db)
      try await M098_IndexRecentFavorites().revert(on: db)
      try await M097_CountProductTypes().revert(on: db)
      try await M095_AddFundraiserReports().revert(on: db)
      try await M094_CreateMailTables().revert(on: db)
      try await M093_WorkspaceIDsOfTheirOwn().revert(on: db)
      try await M092_CreateWorkspaces().revert(on: db)
      try await migration.revert(on: db)
      try await migration.prepare(on: db)
      try await M092_CreateWorkspaces().prepare(on: db)
      try await M093_WorkspaceIDsOfTheirOwn().prepare(on: db)
      try await M094_CreateMailTables().prepare(on: db)
      try await M095_AddFundraiserReports().prepare(on: db)
      try await M097_CountProductTypes().prepare(on: db)
      try await M098_IndexRecentFavorites().prepare(on: db)
      try await M099_KeepExpenseMonthTotals().prepare(on: db)
    }
  }
}
