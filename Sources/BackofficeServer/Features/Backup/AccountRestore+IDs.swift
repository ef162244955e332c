import BackofficeCore
import Crypto
import Fluent
import Foundation
import SQLKit

extension AccountRestore {
  // MARK: - ids

  /// For every record id in the file: keep it, give it a new one, or skip the record because
  /// the account already has it.
  ///
  /// A record whose id another account uses gets an id derived from the original and this
  /// account, the same every time; so importing the same file into the same account again
  /// finds the records it added the first time instead of adding them twice.
  struct IDPlan {
    private var mine = Set<UUID>()
    private var renamed: [UUID: UUID] = [:]
    /// The account's own deleted expenses (waiting for their undo) that the file brings back:
    /// removed for good, and the file's copy takes their id, so an undo cannot double them.
    private var hidden: [UUID] = []

    var renamedCount: Int { renamed.count }

    func alreadyPresent(_ id: UUID) -> Bool { mine.contains(id) }
    /// Records of the file the account has already under the id an earlier import derived for
    /// them: what the file's references to them (an expense's fundraiser) now mean.
    private var aliases: [UUID: UUID] = [:]

    func id(for original: UUID) -> UUID { renamed[original] ?? aliases[original] ?? original }

    static func make(for backup: AccountBackup, workspaceID: UUID, on db: any Database) async throws
      -> IDPlan
    {
      var plan = IDPlan()
      try await plan.sort(
        ProductStore.table, backup.products.items.map(\.id), workspaceID: workspaceID, on: db)
      try await plan.sort(
        ExpenseRecord.table, backup.expenses.map(\.id), workspaceID: workspaceID,
        hiddenWhere: "deleted_at IS NOT NULL", on: db)
      try await plan.sort(
        AdPaymentStore.table, backup.adPayments.map(\.id), workspaceID: workspaceID, on: db)
      try await plan.sort(
        MarketingPlanQueries.table, backup.marketingPlans.map(\.id), workspaceID: workspaceID,
        on: db)
      try await plan.sort(
        FundraiserStore.table, backup.fundraisers.map(\.id), workspaceID: workspaceID, on: db)
      return plan
    }

    /// Sorts the file's ids of `table` (see `sort(_:workspaceID:keepsHidden:lookup:)`). Rows
    /// meeting `hiddenWhere` (an SQL condition: deleted expenses waiting for their undo) cannot
    /// be seen by their owner, and the file's copy replaces them; every other row is visible.
    private mutating func sort(
      _ table: String, _ ids: [UUID], workspaceID: UUID, hiddenWhere: String? = nil,
      on db: any Database
    ) async throws {
      try await sort(ids, workspaceID: workspaceID, keepsHidden: hiddenWhere != nil) {
        try await Self.owners(in: table, of: $0, hiddenWhere: hiddenWhere, on: db)
      }
    }

    /// The workspace of each of `ids` that is a row of `table` in any workspace, and whether
    /// its owner can see it (the row does not meet `hiddenWhere`), 500 ids per statement.
    static func owners(
      in table: String, of ids: [UUID], hiddenWhere: String? = nil, on db: any Database
    ) async throws -> [UUID: (owner: UUID, visible: Bool)] {
      var owners: [UUID: (owner: UUID, visible: Bool)] = [:]
      let hidden = hiddenWhere.map { "CASE WHEN \($0) THEN 1 ELSE 0 END" } ?? "0"
      var start = 0
      while start < ids.count {
        let chunk = ids[start..<min(start + 500, ids.count)]
        let rows = try await DirectQuery.rows(
          """
          SELECT id, workspace_id, \(unsafeRaw: hidden) AS hidden FROM \(ident: table)
          WHERE id IN (\(SQLList(chunk.map { SQLBind($0) })))
          """ as SQLQueryString, on: db)
        for row in rows {
          owners[try row.decode(column: "id", as: UUID.self)] = (
            owner: try row.decode(column: "workspace_id", as: UUID.self),
            visible: try row.decode(column: "hidden", as: Int.self) == 0
          )
        }
        start += chunk.count
      }
      return owners
    }

    /// `lookup` gives the rows among some ids that exist in any account, with their owner and
    /// whether the owner can see them; `keepsHidden` says that the owner's hidden rows (deleted
    /// expenses) are replaced by the file's copy.
    private mutating func sort(
      _ ids: [UUID], workspaceID: UUID, keepsHidden: Bool,
      lookup: ([UUID]) async throws -> [UUID: (owner: UUID, visible: Bool)]
    ) async throws {
      let found = try await lookup(ids)
      var taken: [UUID: UUID] = [:]
      for id in ids {
        guard let row = found[id] else { continue }
        if row.owner == workspaceID, row.visible {
          mine.insert(id)
        } else if row.owner == workspaceID, keepsHidden {
          hidden.append(id)
        } else {
          taken[id] = Self.derived(from: id, for: workspaceID)
        }
      }
      let second = try await lookup(Array(taken.values))
      for (original, derived) in taken {
        if let row = second[derived] {
          if row.owner == workspaceID, row.visible {
            mine.insert(original)
            aliases[original] = derived
          } else {
            renamed[original] = UUID.random()
          }
        } else {
          renamed[original] = derived
        }
      }
    }

    func reclaim(workspaceID: UUID, on db: any Database) async throws {
      guard !hidden.isEmpty else { return }
      try await ExpenseStore(db: db, workspaceID: workspaceID).removeDeleted(hidden)
    }

    /// A name-based (version 5 style) UUID from the original id and the account.
    static func derived(from original: UUID, for workspaceID: UUID) -> UUID {
      var bytes = Array(
        SHA256.hash(data: Data((original.uuidString + workspaceID.uuidString).utf8)))
      bytes[6] = (bytes[6] & 0x0F) | 0x50
      bytes[8] = (bytes[8] & 0x3F) | 0x80
      return UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
  }
}
