import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Every expense query of one account. Each one is limited to the owner's rows and leaves
/// deleted ones out, so no handler can forget either.
struct ExpenseStore: Sendable {
  /// How long a deleted expense can be restored with "Undo".
  static let undoWindow: TimeInterval = 10 * 60
  /// Accounts have no time-zone setting yet: dates are typed, shown and grouped in UTC.
  static let timeZone = ExpenseDate.utc
  /// Rows written per INSERT while importing, well under SQLite's bound-parameter limit.
  static let insertBatch = 500

  let db: any Database
  let workspaceID: UUID

  /// An expense as listed: its id, the value and when it was recorded.
  struct Row: Sendable, Equatable {
    var id: UUID
    var expense: Expense
    var createdAt: Date
    var updatedAt: Date
    var version: Int
    /// The fundraiser the money was spent for, if any.
    var fundraiserID: UUID? = nil
  }

  // MARK: reading

  /// One page of `filter`'s expenses in list order: newest date first, undated ones last,
  /// then the most recently created. `limit` nil reads them all (for the export).
  func rows(_ filter: ExpenseFilter, limit: Int? = nil, offset: Int = 0) async throws -> [Row] {
    let query = try sql.select()
      .columns(
        "id", "title", "amount_cents", "category", "spent_at", "created_at", "updated_at",
        "version", "fundraiser_id"
      )
      .from(ExpenseRecord.table)
    narrow(query, to: filter)
    // `spent_at IS NULL` sorts the same way on both databases, unlike NULLS FIRST/LAST
    // defaults (PostgreSQL puts NULL first in DESC order, SQLite last).
    query
      .orderBy(SQLQueryString("CASE WHEN \(ident: "spent_at") IS NULL THEN 1 ELSE 0 END"))
      .orderBy("spent_at", .descending)
      .orderBy("created_at", .descending)
      .orderBy("id", .descending)
    if let limit { query.limit(limit).offset(offset) }
    return try await query.all().map { row in
      let category = try row.decode(column: "category", as: String.self)
      return Row(
        id: try row.decode(column: "id", as: UUID.self),
        expense: Expense(
          title: try row.decode(column: "title", as: String.self),
          amount: MinorUnits(try row.decode(column: "amount_cents", as: Int64.self)).decimal,
          category: ExpenseCategory(rawValue: category) ?? .default,
          date: try row.decode(column: "spent_at", as: Date?.self)),
        createdAt: try row.decode(column: "created_at", as: Date.self),
        updatedAt: try row.decode(column: "updated_at", as: Date.self),
        version: try row.decode(column: "version", as: Int.self),
        fundraiserID: try row.decode(column: "fundraiser_id", as: UUID?.self))
    }
  }

  /// The exact totals of `filter`'s expenses, summed by the database in one `GROUP BY` query:
  /// integer cents, read back as text so no driver turns the sum into a floating-point number.
  ///
  /// SQLite sums 64-bit integers and stops with "integer overflow" past 9.2 × 10¹⁸ cents, which
  /// 93 of the largest amounts the app accepts already reach. So each amount is split into its
  /// whole billions of cents and the rest, the two parts are summed separately (neither sum
  /// can overflow before there are 92 billion rows) and Swift combines them exactly.
  func totals(_ filter: ExpenseFilter) async throws -> ExpenseTotals {
    let query = try keptTotalsQuery(filter) ?? totalsQuery(filter)
    let lines = try await query.all().map { row -> ExpenseTotals.Line in
      let label = try row.decode(column: "category", as: String.self)
      let high = try row.decode(column: "line_high", as: String.self)
      let low = try row.decode(column: "line_low", as: String.self)
      guard let amount = Self.amount(highText: high, lowText: low) else {
        throw Abort(.internalServerError, reason: "Unreadable expense sum \(high)/\(low)")
      }
      return ExpenseTotals.Line(
        category: ExpenseCategory(rawValue: label) ?? .default, amount: amount,
        count: try row.decode(column: "line_count", as: Int.self))
    }
    return ExpenseTotals(lines: lines)
  }

  /// The `GROUP BY` statement `totals` reads.
  func totalsQuery(_ filter: ExpenseFilter) throws -> SQLSelectBuilder {
    let split = Self.splitCents
    let query = try sql.select()
      .column("category")
      .column(SQLFunction("COUNT", args: SQLLiteral.all), as: "line_count")
      .column(
        SQLQueryString(
          "CAST(SUM(\(ident: "amount_cents") / \(literal: split)) AS TEXT)"),
        as: "line_high"
      )
      .column(
        SQLQueryString(
          "CAST(SUM(\(ident: "amount_cents") % \(literal: split)) AS TEXT)"),
        as: "line_low"
      )
      .from(ExpenseRecord.table)
    narrow(query, to: filter)
    return query.groupBy("category")
  }

  /// The same totals from the sums SQLite's triggers keep by month and category (M099), for
  /// a filter those sums can answer: the whole workspace, a month and/or a category. Nil for
  /// any other filter, and on PostgreSQL, which sums when asked.
  func keptTotalsQuery(_ filter: ExpenseFilter) throws -> SQLSelectBuilder? {
    let sql = try sql
    guard sql.dialect.name == "sqlite", filter.searchKey.isEmpty, filter.fundraiser == nil,
      filter.from == nil, filter.to == nil
    else { return nil }
    let query = sql.select()
      .column("category")
      .column(SQLFunction("SUM", args: SQLIdentifier("line_count")), as: "line_count")
      .column(SQLQueryString("CAST(SUM(\(ident: "high")) AS TEXT)"), as: "line_high")
      .column(SQLQueryString("CAST(SUM(\(ident: "low")) AS TEXT)"), as: "line_low")
      .from(M099_KeepExpenseMonthTotals.table)
      .where("workspace_id", .equal, workspaceID)
    if let month = filter.month {
      // `YYYY-MM`, as the triggers write it (`strftime('%Y-%m', …)`).
      query.where("month", .equal, month.description)
    }
    if let category = filter.category { query.where("category", .equal, category.rawValue) }
    return query.groupBy("category")
      .having(
        SQLFunction("SUM", args: SQLIdentifier("line_count")), .greaterThan, SQLLiteral.numeric("0")
      )
  }

  /// The account's expense `id`, unless it is deleted.
  func record(_ id: UUID) async throws -> ExpenseRecord? {
    try await record(id, deleted: false)
  }

  /// The account's deleted expense `id`, however long ago it was deleted.
  func deletedRecord(_ id: UUID) async throws -> ExpenseRecord? {
    try await record(id, deleted: true)
  }

  private func record(_ id: UUID, deleted: Bool) async throws -> ExpenseRecord? {
    try await records(
      """
      WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID)
        AND deleted_at IS \(unsafeRaw: deleted ? "NOT NULL" : "NULL")
      """
    ).first
  }

  /// Every live expense of the workspace, oldest first (the backup).
  func allByAge() async throws -> [ExpenseRecord] {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: ExpenseRecord.columns) FROM expenses
      WHERE workspace_id = \(bind: workspaceID) AND deleted_at IS NULL
      ORDER BY created_at, id
      """
    ).all().map(ExpenseRecord.init)
  }

  /// How many live expenses the workspace has.
  func count() async throws -> Int {
    try await DirectQuery.first(
      """
      SELECT COUNT(*) AS n FROM expenses
      WHERE workspace_id = \(bind: workspaceID) AND deleted_at IS NULL
      """ as SQLQueryString, on: db
    )?.decode(column: "n", as: Int.self) ?? 0
  }

  /// The expenses `clause` (what follows `FROM expenses`) selects.
  private func records(_ clause: SQLQueryString) async throws -> [ExpenseRecord] {
    try await DirectQuery.rows(
      "SELECT \(unsafeRaw: ExpenseRecord.columns) FROM expenses \(clause)" as SQLQueryString,
      on: db
    ).map(ExpenseRecord.init)
  }

  // MARK: writing

  /// Adds the expense, linked to `fundraiserID` (checked by the caller with `fundraiserExists`),
  /// and then, in the same transaction, whatever `also` writes (its receipts).
  func create(
    _ expense: Expense, fundraiserID: UUID? = nil, now: Date,
    also: (@Sendable (any Database, UUID) async throws -> Void)? = nil
  ) async throws -> ExpenseRecord {
    let record = try ExpenseRecord(
      workspaceID: workspaceID, expense, fundraiserID: fundraiserID, createdAt: now)
    guard let also else {
      try await insert([record.newRow])
      return record
    }
    try await db.transaction { db in
      try await ExpenseStore(db: db, workspaceID: record.workspaceID).insert([record.newRow])
      try await also(db, record.id)
    }
    return record
  }

  /// Saves the expense's new values (and its fundraiser, unless `fundraiserID` is `.keep`)
  /// if it still has version `expected` (whatever its version when nil) and is not deleted,
  /// with whatever `also` writes in the same transaction: the expense as saved, or nil when
  /// it was changed or deleted since, and then nothing is written.
  func update(
    _ record: ExpenseRecord, expected: Int?, with expense: Expense,
    fundraiserID: FundraiserLink = .keep, now: Date,
    also: (@Sendable (any Database, UUID) async throws -> Void)? = nil
  ) async throws -> ExpenseRecord? {
    var changed = record
    try changed.set(expense)
    if case .set(let fundraiser) = fundraiserID { changed.fundraiserID = fundraiser }
    changed.updatedAt = now
    let saved = changed
    return try await write(record, expected: expected, condition: Self.live) { db, version in
      try await db.sql().raw(
        """
        UPDATE expenses SET title = \(bind: saved.title), title_key = \(bind: saved.titleKey),
          amount_cents = \(bind: saved.amountCents), category = \(bind: saved.category),
          spent_at = \(bind: saved.spentAt), match_key = \(bind: saved.matchKey),
          fundraiser_id = \(bind: saved.fundraiserID), updated_at = \(bind: saved.updatedAt)
        WHERE id = \(bind: saved.id) AND workspace_id = \(bind: saved.workspaceID)
        """
      ).run()
      try await also?(db, saved.id)
      var result = saved
      result.version = version
      return result
    }
  }

  /// Claims `record` at version `expected` (any when nil) if it meets `condition`, and runs
  /// `write` with the new version in the same transaction: what `write` gives, or nil when
  /// the expense was changed or deleted since (nothing is written then).
  func write<T: Sendable>(
    _ record: ExpenseRecord, expected: Int?, condition: (any SQLExpression)? = ExpenseStore.live,
    _ write: @escaping @Sendable (any Database, Int) async throws -> T
  ) async throws -> T? {
    try await db.transaction { db in
      guard
        let version = try await RecordVersion.claim(
          ExpenseRecord.table, id: record.id, workspaceID: record.workspaceID,
          expected: expected, condition: condition, on: db)
      else { return nil }
      return try await write(db, version)
    }
  }

  /// A live expense: not deleted (waiting for its undo). Only live expenses are edited.
  static let live: any SQLExpression = SQLBinaryExpression(
    SQLIdentifier("deleted_at"), .is, SQLLiteral.null)

  /// What a save does with an expense's fundraiser.
  enum FundraiserLink: Sendable, Equatable {
    case keep
    /// Link to this fundraiser, or to none.
    case set(UUID?)
  }

  /// True when `id` is one of this workspace's fundraisers.
  func fundraiserExists(_ id: UUID) async throws -> Bool {
    try await FundraiserStore(db: db, workspaceID: workspaceID).exists(id)
  }

  /// The workspace's fundraisers an expense can be linked to, newest first: id and purpose.
  func fundraiserChoices() async throws -> [(id: UUID, purpose: String)] {
    try await FundraiserStore(db: db, workspaceID: workspaceID).choices()
  }

  /// Adds all `expenses` or none, in one transaction (for tests and small sets; a CSV import
  /// writes in batches, see `ImportJobs`).
  func insertAll(_ expenses: [Expense], now: Date) async throws {
    let owner = workspaceID
    try await db.transaction { transaction in
      try await ExpenseStore(db: transaction, workspaceID: owner).insert(
        expenses.enumerated().map { (position: $0.offset, expense: $0.element, matchKey: nil) },
        start: now)
    }
  }

  /// Adds `rows`. A row's creation time is `start` plus its position in milliseconds: later
  /// lines of a file count as entered later, so among equal dates the list shows them above
  /// the earlier ones, as if typed one by one.
  func insert(_ rows: [(position: Int, expense: Expense, matchKey: String?)], start: Date)
    async throws
  {
    try await insert(
      rows.map { row in
        try Self.newRow(
          row.expense, workspaceID: workspaceID, position: row.position, start: start,
          matchKey: row.matchKey)
      })
  }

  /// The row of a new expense of `workspaceID`, created `position` milliseconds after `start`
  /// (imports).
  static func newRow(
    _ expense: Expense, workspaceID: UUID, position: Int, start: Date, matchKey: String? = nil
  ) throws -> NewRow {
    try ExpenseRecord(
      workspaceID: workspaceID, expense, matchKey: matchKey,
      createdAt: start.addingTimeInterval(Double(position) / 1000)
    ).newRow
  }

  /// Inserts new rows (`ExpenseRecord.newRow`), `insertBatch` per statement.
  func insert(_ rows: [NewRow]) async throws {
    try await PreparedInsert(rows).run(on: db, batch: Self.insertBatch)
  }

  /// How many of the account's expenses have each of `keys` (`ExpenseRecord.matchKey`).
  /// Deleted expenses waiting for their undo do not count: the list does not show them, and an
  /// import of a file that has them brings them back as new expenses.
  func matchCounts(_ keys: Set<String>) async throws -> [String: Int] {
    try await MatchKey.counts(
      keys, in: ExpenseRecord.table, workspaceID: workspaceID, liveOnly: true, on: sql)
  }

  /// Hides the expense; `restore` brings it back within `undoWindow`. Deleted expenses older
  /// than that are removed for good at the same time. False when it was deleted already.
  @discardableResult
  func softDelete(_ record: ExpenseRecord, now: Date) async throws -> Bool {
    try await purge(now: now)
    return try await write(record, expected: nil) { db, _ in
      try await db.sql().raw(
        """
        UPDATE expenses SET deleted_at = \(bind: now)
        WHERE id = \(bind: record.id) AND workspace_id = \(bind: record.workspaceID)
        """
      ).run()
    } != nil
  }

  /// True when `record` was deleted recently enough to come back.
  static func canRestore(_ record: ExpenseRecord, now: Date) -> Bool {
    guard let deletedAt = record.deletedAt else { return false }
    return now.timeIntervalSince(deletedAt) <= undoWindow
  }

  /// Brings a deleted expense back; false when it is not deleted (any more).
  func restore(_ record: ExpenseRecord) async throws -> Bool {
    let deleted = SQLBinaryExpression(SQLIdentifier("deleted_at"), .isNot, SQLLiteral.null)
    return try await write(record, expected: nil, condition: deleted) { db, _ in
      try await db.sql().raw(
        """
        UPDATE expenses SET deleted_at = NULL
        WHERE id = \(bind: record.id) AND workspace_id = \(bind: record.workspaceID)
        """
      ).run()
    } != nil
  }

  /// Removes this account's deleted expenses that can no longer be restored.
  func purge(now: Date) async throws {
    try await db.sql().raw(
      """
      DELETE FROM expenses WHERE workspace_id = \(bind: workspaceID)
        AND deleted_at < \(bind: now.addingTimeInterval(-Self.undoWindow))
      """
    ).run()
  }

  /// Removes for good the workspace's deleted expenses among `ids` (a restore whose file
  /// brings them back takes their ids).
  func removeDeleted(_ ids: [UUID]) async throws {
    guard !ids.isEmpty else { return }
    try await db.sql().raw(
      """
      DELETE FROM expenses WHERE workspace_id = \(bind: workspaceID)
        AND id IN (\(SQLList(ids.map { SQLBind($0) }))) AND deleted_at IS NOT NULL
      """
    ).run()
  }

  /// Deletes for good if it still has version `expected` (any version when nil); false when it
  /// was changed or deleted meanwhile.
  func deletePermanently(_ record: ExpenseRecord, expected: Int?) async throws -> Bool {
    try await write(record, expected: expected) { db, _ in
      try await db.sql().raw(
        """
        DELETE FROM expenses
        WHERE id = \(bind: record.id) AND workspace_id = \(bind: record.workspaceID)
        """
      ).run()
    } != nil
  }

  // MARK: helpers

  private var sql: any SQLDatabase {
    get throws { try db.sql() }
  }

  /// The day an expense counts on in a period: its date, or when it was recorded if it has
  /// none. Written as the index on it (M087) is, so the database searches that index.
  static let countedOn = SQLFunction(
    "COALESCE", args: SQLIdentifier("spent_at"), SQLIdentifier("created_at"))

  /// The owner, not deleted, and `filter`: the WHERE clause every list, total and export
  /// shares.
  private func narrow(_ query: SQLSelectBuilder, to filter: ExpenseFilter) {
    query
      .where("workspace_id", .equal, workspaceID)
      .where("deleted_at", .is, SQLLiteral.null)
    if let category = filter.category {
      query.where("category", .equal, category.rawValue)
    }
    if let fundraiser = filter.fundraiser {
      query.where("fundraiser_id", .equal, fundraiser)
    }
    if let period = filter.period(in: Self.timeZone) {
      // A dated expense counts on its date; an undated one on the day it was recorded, so
      // one added today without a date is in this month's list, totals and chart.
      if let lower = period.lower {
        query.where(Self.countedOn, .greaterThanOrEqual, SQLBind(lower))
      }
      if let upper = period.upper { query.where(Self.countedOn, .lessThan, SQLBind(upper)) }
    }
    let key = filter.searchKey
    if !key.isEmpty {
      // Both sides are normalised keys, so LIKE needs no case folding from either database.
      query.where(ContainsPattern(column: "title_key", needle: key))
    }
  }

}

extension ExpenseStore {
  /// Where `totals` splits an amount in hundredths: `cents / splitCents` and
  /// `cents % splitCents` are summed apart. An amount below 10¹⁵ has at most 10⁸ in its high
  /// part and less than 10⁹ in its low part, so neither sum overflows a 64-bit column.
  static let splitCents = 1_000_000_000

  /// The exact amount of `high × splitCents + low` hundredths, both sums as the database
  /// printed them.
  static func amount(highText: String, lowText: String) -> Decimal? {
    guard let high = MinorUnits.decimal(digits: highText),
      let low = MinorUnits.decimal(digits: lowText)
    else { return nil }
    return high * Decimal(splitCents) + low
  }
}
