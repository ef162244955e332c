import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The receipt photos of one workspace's expenses: stored as uploaded (JPEG or PNG, within the
/// photo size limit), listed without their bytes, and found only through an expense of the same
/// workspace. A receipt is hidden from the fundraiser's public report until it is marked public.
struct ExpenseReceipts: Sendable {
  /// Most receipts one expense keeps.
  static let maxPerExpense = 10

  let db: any Database
  let workspaceID: UUID

  /// A receipt as pages and the API name it: everything but the bytes.
  struct Ref: Sendable, Equatable {
    var id: UUID
    var expenseID: UUID
    var isPublic: Bool
    var mime: String
    var width: Int
    var height: Int
    var etag: String
    var position: Int

    /// The owner's address of the picture, with its version so browsers may keep it.
    var href: String {
      Routes.expenseReceipt.href(["expenseID": expenseID.uuidString, "receiptID": id.uuidString])
        + "?v=" + PhotoResponse.version(etag)
    }
  }

  /// Runs `change` on the expense's receipts in the transaction that gives `record` its new
  /// version (from `expected`, any version when nil) and `now` as its change time: the expense
  /// as saved, or nil when it was changed or deleted since, and then nothing is written.
  func change(
    of record: ExpenseRecord, expected: Int?, now: Date,
    _ change: @escaping @Sendable (ExpenseReceipts) async throws -> Void
  ) async throws -> ExpenseRecord? {
    let workspaceID = workspaceID
    let store = ExpenseStore(db: db, workspaceID: workspaceID)
    return try await store.write(record, expected: expected) { db, version in
      try await change(ExpenseReceipts(db: db, workspaceID: workspaceID))
      try await db.sql().raw(
        """
        UPDATE expenses SET updated_at = \(bind: now)
        WHERE id = \(bind: record.id) AND workspace_id = \(bind: workspaceID)
        """
      ).run()
      var saved = record
      saved.version = version
      saved.updatedAt = now
      return saved
    }
  }

  /// The receipts of each of `expenseIDs` (of this workspace), in their order; expenses with
  /// none are absent.
  func refs(for expenseIDs: [UUID]) async throws -> [UUID: [Ref]] {
    guard !expenseIDs.isEmpty else { return [:] }
    var refs: [UUID: [Ref]] = [:]
    for start in stride(from: 0, to: expenseIDs.count, by: 500) {
      let chunk = expenseIDs[start..<min(start + 500, expenseIDs.count)]
      let rows = try await DirectQuery.rows(
        """
        SELECT id, expense_id, is_public, mime, width, height, etag, position
        FROM expense_receipts
        WHERE workspace_id = \(bind: workspaceID)
          AND expense_id IN (\(SQLList(chunk.map { SQLBind($0) })))
        ORDER BY position, id
        """ as SQLQueryString, on: db)
      for row in rows {
        let ref = Ref(
          id: try row.decode(column: "id", as: UUID.self),
          expenseID: try row.decode(column: "expense_id", as: UUID.self),
          isPublic: try row.decode(column: "is_public", as: Bool.self),
          mime: try row.decode(column: "mime", as: String.self),
          width: try row.decode(column: "width", as: Int.self),
          height: try row.decode(column: "height", as: Int.self),
          etag: try row.decode(column: "etag", as: String.self),
          position: try row.decode(column: "position", as: Int.self))
        refs[ref.expenseID, default: []].append(ref)
      }
    }
    return refs
  }

  /// The receipts of one expense, in order.
  func refs(of expenseID: UUID) async throws -> [Ref] {
    try await refs(for: [expenseID])[expenseID] ?? []
  }

  /// The receipt `id` of the expense `expenseID`, bytes included; nil for another workspace's
  /// receipt, another expense's or an unknown id.
  func receipt(_ id: UUID, of expenseID: UUID) async throws -> ExpenseReceipt? {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: ExpenseReceipt.columns) FROM expense_receipts
      WHERE id = \(bind: id) AND expense_id = \(bind: expenseID)
        AND workspace_id = \(bind: workspaceID)
      """
    ).first().map(ExpenseReceipt.init)
  }

  /// The receipt `id` when the public report of the fundraiser `fundraiserID` may show it:
  /// public, on a live expense of that fundraiser, in this workspace. Nil in every other case,
  /// alike.
  func publicReceipt(_ id: UUID, ofFundraiser fundraiserID: UUID) async throws
    -> ExpenseReceipt?
  {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: Self.qualifiedColumns) FROM expense_receipts r
      JOIN expenses e ON e.id = r.expense_id AND e.workspace_id = r.workspace_id
      WHERE r.id = \(bind: id) AND r.workspace_id = \(bind: workspaceID) AND r.is_public = \(bind: true)
        AND e.fundraiser_id = \(bind: fundraiserID) AND e.deleted_at IS NULL
      """
    ).first().map(ExpenseReceipt.init)
  }

  /// `ExpenseReceipt.columns` of the receipt table named `r`.
  private static let qualifiedColumns = ExpenseReceipt.columns.split(separator: ",")
    .map { "r." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

  /// Every receipt of the workspace, bytes included, by expense and in their order (the
  /// backup, one statement rather than one per expense).
  func all() async throws -> [ExpenseReceipt] {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: ExpenseReceipt.columns) FROM expense_receipts
      WHERE workspace_id = \(bind: workspaceID)
      ORDER BY expense_id, position, id
      """
    ).all().map(ExpenseReceipt.init)
  }

  /// More receipts than an expense keeps: thrown by `add` inside the saving transaction, so
  /// nothing of that save stays.
  struct LimitReached: Error {
    static var message: String {
      L("expenses.form.receipts_too_many", ["count": String(ExpenseReceipts.maxPerExpense)])
    }
  }

  /// Adds `photos` after the expense's receipts, public or not; the caller has checked that
  /// the expense is this workspace's. Run inside the transaction that claimed the expense's
  /// version (which holds its row), the count it checks afterwards is the count: two saves at
  /// once cannot take an expense past `maxPerExpense` (`LimitReached`).
  @discardableResult
  func add(_ photos: [CheckedPhoto], isPublic: Bool, to expenseID: UUID, now: Date)
    async throws -> [UUID]
  {
    guard !photos.isEmpty else { return [] }
    let last = try await sql.raw(
      """
      SELECT MAX(position) AS last FROM expense_receipts
      WHERE expense_id = \(bind: expenseID) AND workspace_id = \(bind: workspaceID)
      """
    ).first()?.decode(column: "last", as: Int?.self)
    let first = (last ?? -1) + 1
    // A receipt can go on a public page: the camera's notes (where it was taken) never do.
    let receipts = photos.map(\.withoutMetadata).enumerated().map { offset, photo in
      ExpenseReceipt(
        workspaceID: workspaceID, expenseID: expenseID, photo: photo, isPublic: isPublic,
        position: first + offset, createdAt: now)
    }
    try await insert(receipts)
    guard try await count(of: expenseID) <= Self.maxPerExpense else { throw LimitReached() }
    return receipts.map(\.id)
  }

  /// Inserts new receipts one row per statement: a receipt can be megabytes, well past what
  /// one statement should carry.
  func insert(_ receipts: [ExpenseReceipt]) async throws {
    try await PreparedInsert(receipts.map(\.newRow)).run(on: db, batch: 1)
  }

  /// Marks exactly the receipts in `publicIDs` of the expense public and the others hidden.
  func setPublic(_ publicIDs: Set<UUID>, of expenseID: UUID) async throws {
    let marked: SQLQueryString =
      publicIDs.isEmpty
      ? "\(bind: false)" : "id IN (\(SQLList(publicIDs.map { SQLBind($0) })))"
    try await sql.raw(
      """
      UPDATE expense_receipts SET is_public = \(marked)
      WHERE expense_id = \(bind: expenseID) AND workspace_id = \(bind: workspaceID)
      """
    ).run()
  }

  /// Marks one receipt of the expense public or hidden (another's id changes nothing).
  func setPublic(_ id: UUID, of expenseID: UUID, isPublic: Bool) async throws {
    try await sql.raw(
      """
      UPDATE expense_receipts SET is_public = \(bind: isPublic)
      WHERE id = \(bind: id) AND expense_id = \(bind: expenseID)
        AND workspace_id = \(bind: workspaceID)
      """
    ).run()
  }

  /// Removes the receipts in `ids` of the expense (others' ids are ignored).
  func remove(_ ids: Set<UUID>, of expenseID: UUID) async throws {
    guard !ids.isEmpty else { return }
    try await sql.raw(
      """
      DELETE FROM expense_receipts
      WHERE expense_id = \(bind: expenseID) AND workspace_id = \(bind: workspaceID)
        AND id IN (\(SQLList(ids.map { SQLBind($0) })))
      """
    ).run()
  }

  /// How many receipts the expense has.
  func count(of expenseID: UUID) async throws -> Int {
    try await sql.raw(
      """
      SELECT COUNT(*) AS n FROM expense_receipts
      WHERE expense_id = \(bind: expenseID) AND workspace_id = \(bind: workspaceID)
      """
    ).first()?.decode(column: "n", as: Int.self) ?? 0
  }

  func receiptExists(_ id: UUID, of expenseID: UUID) async throws -> Bool {
    try await sql.raw(
      """
      SELECT 1 AS found FROM expense_receipts
      WHERE id = \(bind: id) AND expense_id = \(bind: expenseID)
        AND workspace_id = \(bind: workspaceID)
      """
    ).first() != nil
  }

  private var sql: any SQLDatabase {
    get throws { try db.sql() }
  }
}
