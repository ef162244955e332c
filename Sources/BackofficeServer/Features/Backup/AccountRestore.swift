import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit

/// Reads an `AccountBackup` into an account.
///
/// The whole file is checked first with the same rules as the forms and the API (a file edited
/// by hand cannot store what the app would refuse), then written in one transaction: either
/// everything is added or nothing is.
///
/// Into an empty account (the usual restore) the account also takes the file's language and
/// currency. Into an account that already has records, the import is refused unless `merge` is
/// set; a merge keeps the account's settings, refuses a file whose amounts are in another
/// currency, and skips records the account already has (same id), so importing the same file
/// twice adds nothing the second time.
///
/// Records keep their ids unless another account uses the same id (a file imported into a
/// second account on the same server); those get new ids, derived from the old id and the
/// account so a repeated import recognises them, and references inside the file (photos,
/// favourites, jar history) follow. Product numbers are kept unless the account already
/// uses one; such products get the next free numbers.
enum AccountRestore {
  struct Outcome: Equatable {
    var added = BackupCounts()
    /// Records the account already had (merge only).
    var skipped = BackupCounts()
    /// Records that got a new id because another account uses theirs.
    var renamed = 0
    /// Products that got a new number because the account already used theirs.
    var renumbered = 0

    var summary: String {
      var text = "Imported \(added.summary)."
      if skipped.total > 0 { text += " Already present, skipped: \(skipped.summary)." }
      if renumbered > 0 {
        text +=
          " \(renumbered) product\(renumbered == 1 ? "" : "s") got a new number"
          + " because the account already used theirs."
      }
      return text
    }
  }

  /// At most this many problems are listed; the rest are counted.
  static let problemsShown = 20

  static func run(
    _ backup: AccountBackup, into accountID: UUID, merge: Bool, maxPhotoBytes: Int,
    on db: any Database
  ) async throws -> Outcome {
    guard let user = try await Accounts.find(id: accountID, on: db) else {
      throw BackupError("The account does not exist.")
    }
    let checked = try Checked(backup, maxPhotoBytes: maxPhotoBytes)
    // Everything below reads and writes in one transaction, so the checks still hold when
    // the records are written, even with the server running.
    return try await db.transaction { db in
      try await write(backup, checked: checked, user: user, merge: merge, on: db)
    }
  }

  static func write(
    _ backup: AccountBackup, checked: Checked, user: User, merge: Bool, on db: any Database
  ) async throws -> Outcome {
    // Into the workspace the account created; one left without (its own deleted) gets a new,
    // empty one, as it would on its next sign-in.
    var own = try await WorkspaceStore(db: db).own(of: try user.requireID())
    if own == nil { own = try await WorkspaceStore.createOwn(for: user, on: db) }
    guard let workspace = own else { throw BackupError("The account has no workspace.") }
    let workspaceID = workspace.id
    let present = try await existingCounts(workspaceID: workspaceID, on: db)
    if !merge, present.total > 0 {
      throw BackupError(
        "This account already has data (\(present.summary)). Import into an empty account, "
          + "or ask for a merge to add the file's records next to what is there.")
    }
    if merge, present.total > 0, workspace.currency != checked.currency,
      !backup.products.items.isEmpty || !backup.expenses.isEmpty
    {
      throw BackupError(
        "The file's amounts are in \(checked.currency) and this account uses "
          + "\(workspace.currency); amounts are never converted. Change the account's currency in "
          + "Settings first, or import into an empty account.")
    }

    let ids = try await IDPlan.make(for: backup, workspaceID: workspaceID, on: db)
    try await ids.reclaim(workspaceID: workspaceID, on: db)
    var outcome = Outcome()
    outcome.renamed = ids.renamedCount
    if present.total == 0 {
      var user = user
      user.locale = checked.locale.identifier
      user.currency = checked.currency
      if let language = checked.language { user.uiLanguage = language.rawValue }
      try await Accounts.save(user, on: db)
      try await WorkspaceStore(db: db).setCurrency(of: workspaceID, to: checked.currency)
    }
    try await insertProducts(
      backup.products, checked: checked.products, ids: ids, workspaceID: workspaceID,
      person: try user.requireID(), on: db, outcome: &outcome)
    // Fundraisers before expenses: an expense names the fundraiser it was spent for.
    try await insertFundraisers(
      checked.fundraisers, ids: ids, workspaceID: workspaceID, on: db, outcome: &outcome)
    try await insertExpenses(
      checked.expenses, ids: ids, workspaceID: workspaceID, on: db, outcome: &outcome)
    try await insertAdPayments(
      checked.adPayments, ids: ids, workspaceID: workspaceID, on: db, outcome: &outcome)
    try await insertPlans(
      checked.plans, ids: ids, workspaceID: workspaceID, on: db, outcome: &outcome)
    return outcome
  }

  /// Visible records of the account in each area.
  static func existingCounts(workspaceID: UUID, on db: any Database) async throws -> BackupCounts {
    BackupCounts(
      products: try await ProductStore(db: db, workspaceID: workspaceID, viewerID: nil)
        .storedCount(),
      expenses: try await ExpenseStore(db: db, workspaceID: workspaceID).count(),
      adPayments: try await AdPaymentStore(db: db, workspaceID: workspaceID).count(),
      marketingPlans: try await MarketingPlanQueries.count(in: workspaceID, on: db),
      fundraisers: try await FundraiserStore(db: db, workspaceID: workspaceID).count())
  }
}
