import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The areas whose CSV files are imported in the background.
enum ImportArea: String, Sendable, CaseIterable {
  case expenses
  case adPayments = "ad-payments"
  case products

  var noun: ImportReport.Noun {
    switch self {
    case .expenses: .expense
    case .adPayments: .adPayment
    case .products: .product
    }
  }

  /// The heading of a job's page while it runs.
  var runningTitle: String {
    switch self {
    case .expenses: L("imports.title.running_expenses")
    case .adPayments: L("imports.title.running_ad_payments")
    case .products: L("imports.title.running_products")
    }
  }

  /// The heading of a job's page once it has finished.
  var finishedTitle: String {
    switch self {
    case .expenses: L("imports.title.finished_expenses")
    case .adPayments: L("imports.title.finished_ad_payments")
    case .products: L("imports.title.finished_products")
    }
  }

  /// The heading of a job's page once it has stopped.
  var stoppedTitle: String {
    switch self {
    case .expenses: L("imports.title.stopped_expenses")
    case .adPayments: L("imports.title.stopped_ad_payments")
    case .products: L("imports.title.stopped_products")
    }
  }

  var section: NavSection {
    switch self {
    case .expenses: .expenses
    case .adPayments: .adPayments
    case .products: .products
    }
  }

  var list: AppRoute {
    switch self {
    case .expenses: Routes.expenses
    case .adPayments: Routes.adPayments
    case .products: Routes.products
    }
  }

  var importForm: AppRoute {
    switch self {
    case .expenses: Routes.expensesImport
    case .adPayments: Routes.adPaymentImport
    case .products: Routes.productsImport
    }
  }

  /// The rows a job of this area writes, read back from its stored JSON.
  func rows(from json: String) throws -> any ImportRows {
    switch self {
    case .expenses: try ExpenseImportRows(json: json)
    case .adPayments: try AdPaymentImportRows(json: json)
    case .products: try ProductImportRows(json: json)
    }
  }
}

/// What the background run needs from an area: the rows in file order with their match keys,
/// how many records the account holds per key, and how to write some of the rows.
protocol ImportRows: Sendable {
  /// `MatchKey.make(row.matchFields)` for every row, in file order.
  var keys: [String] { get }
  /// How many of the account's records (deleted expenses waiting for undo not included) have
  /// each of `keys`.
  func present(_ keys: Set<String>, workspaceID: UUID, on db: any Database) async throws
    -> [String: Int]
  /// The rows at `positions` (indexes into `keys`) ready to insert; built before a batch takes
  /// the write lock. A row's creation time is `start` plus its position in milliseconds, so
  /// the lists show them as if typed one by one in file order, whichever batch wrote them.
  func prepare(_ positions: [Int], workspaceID: UUID, start: Date) throws -> PreparedInsert
  /// The rows to insert, given the prepared ones, inside the batch's write transaction (`db`
  /// is the transaction's) just before they are written: for what can only be decided while
  /// the batch holds the write lock. Products take their account's next numbers here.
  func beforeInsert(_ insert: PreparedInsert, workspaceID: UUID, on db: any Database) async throws
    -> PreparedInsert
}

extension ImportRows {
  /// Nothing to decide under the lock: the rows as prepared.
  func beforeInsert(_ insert: PreparedInsert, workspaceID: UUID, on db: any Database) async throws
    -> PreparedInsert
  { insert }
}

enum ImportJobStatus: String, Sendable {
  case running
  case done
  case failed
}

/// A job as its pages show it.
struct ImportJobState: Sendable, Equatable {
  var id: UUID
  var area: ImportArea
  /// `.failed` also for a job still marked running whose server stopped sending progress.
  var status: ImportJobStatus
  var report: ImportReport
  /// The first rows with errors that were left out ("Row 3: …").
  var problems: [String]
  var message: String?
}

/// Raised inside a batch whose job has been taken over by another run (or removed): the
/// batch is rolled back and this run stops.
struct ImportJobLost: Error {}

/// Every query on import jobs. The page-side ones are scoped to one account, so another
/// account's job is simply never found.
struct ImportJobStore: Sendable {
  /// Problems kept with a job for its result page.
  static let keptProblems = 100
  /// Finished jobs older than this are removed when the account starts a new import.
  static let keepFinished: TimeInterval = 30 * 24 * 60 * 60

  let db: any Database
  let workspaceID: UUID

  enum Start: Equatable {
    /// The job is recorded; start a run with this runner token.
    case started(UUID, runner: String)
    /// Another import of the same area is running for this account.
    case busy(UUID)
  }

  /// Records a new job with its rows, unless one of the same area is running.
  func start(
    area: ImportArea, rows: String, total: Int, keepDuplicates: Bool, problems: [String],
    invalid: Int, now: Date, staleAfter: TimeInterval
  ) async throws -> Start {
    try await failStale(area: area, now: now, staleAfter: staleAfter)
    if let running = try await running(area) { return .busy(running) }
    try await purge(now: now)

    let runner = UUID.random().uuidString
    let job = ImportJobRecord(
      workspaceID: workspaceID, area: area, keepDuplicates: keepDuplicates, total: total,
      invalid: invalid, problems: Self.encode(Array(problems.prefix(Self.keptProblems))),
      runner: runner, now: now)
    let payload = ImportJobPayload(jobID: job.id, rows: rows)
    do {
      try await db.transaction { transaction in
        try await PreparedInsert([job.newRow]).run(on: transaction)
        try await PreparedInsert([payload.newRow]).run(on: transaction)
      }
    } catch {
      // Two uploads at once: the unique index let only one of them in.
      if let running = try await running(area) { return .busy(running) }
      throw error
    }
    return .started(job.id, runner: runner)
  }

  /// The account's job `id` as its page shows it.
  func state(_ id: UUID, now: Date, staleAfter: TimeInterval) async throws -> ImportJobState? {
    guard let job = try await record(id), let area = ImportArea(rawValue: job.area) else {
      return nil
    }
    var status = ImportJobStatus(rawValue: job.status) ?? .failed
    // Kept as a code; shown in the reader's language.
    var message = job.message.map { ImportMessages.localized(stored: $0) }
    if status == .running, Self.isStale(job, now: now, staleAfter: staleAfter) {
      status = .failed
      message = ImportMessages.serverStopped
    }
    return ImportJobState(
      id: id, area: area, status: status,
      report: ImportReport(
        total: job.total, done: job.done, imported: job.imported, present: job.skipped,
        invalid: job.invalid, keepDuplicates: job.keepDuplicates, noun: area.noun),
      problems: Self.decode(job.problems), message: message)
  }

  /// Takes over the account's stopped job `id` for a new run: a failed one, or one still
  /// marked running whose server has gone quiet. Nil when there is nothing to take over; a
  /// `.busy` when another import of the same area is running now.
  func claim(_ id: UUID, now: Date, staleAfter: TimeInterval) async throws -> Start? {
    guard
      let job = try await record(id),
      let area = ImportArea(rawValue: job.area),
      try await Self.hasPayload(id, on: db)
    else { return nil }
    try await failStale(area: area, now: now, staleAfter: staleAfter)
    let runner = UUID.random().uuidString
    let claimed: [any SQLRow]
    do {
      claimed = try await sql.update(ImportJobRecord.table)
        .set("status", to: SQLBind(ImportJobStatus.running.rawValue))
        .set("runner", to: SQLBind(runner))
        .set("heartbeat_at", to: SQLBind(now))
        .set("message", to: SQLLiteral.null)
        .set("finished_at", to: SQLLiteral.null)
        .where("id", .equal, SQLBind(id))
        .where("workspace_id", .equal, SQLBind(workspaceID))
        .where("status", .equal, SQLBind(ImportJobStatus.failed.rawValue))
        .returning("id")
        .all()
    } catch {
      if let running = try await running(area) { return .busy(running) }
      throw error
    }
    return claimed.isEmpty ? nil : .started(id, runner: runner)
  }

  /// Removes the account's finished jobs older than `keepFinished`, with the rows a stopped one
  /// still kept (deleted here rather than left to the foreign key, which SQLite enforces only
  /// when asked).
  func purge(now: Date) async throws {
    let sql = try sql
    let old = try await sql.raw(
      """
      SELECT id FROM import_jobs
      WHERE workspace_id = \(bind: workspaceID)
        AND status <> \(bind: ImportJobStatus.running.rawValue)
        AND created_at < \(bind: now.addingTimeInterval(-Self.keepFinished))
      """
    ).all().map { try $0.decode(column: "id", as: UUID.self) }
    guard !old.isEmpty else { return }
    let ids = SQLList(old.map { SQLBind($0) })
    try await sql.raw("DELETE FROM import_job_payloads WHERE job_id IN (\(ids))").run()
    try await sql.raw("DELETE FROM import_jobs WHERE id IN (\(ids))").run()
  }

  /// The account's running job of `area`, if any.
  func running(_ area: ImportArea) async throws -> UUID? {
    try await sql.raw(
      """
      SELECT id FROM import_jobs
      WHERE workspace_id = \(bind: workspaceID) AND area = \(bind: area.rawValue)
        AND status = \(bind: ImportJobStatus.running.rawValue)
      LIMIT 1
      """
    ).first()?.decode(column: "id", as: UUID.self)
  }

  /// The account's job `id`.
  private func record(_ id: UUID) async throws -> ImportJobRecord? {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: ImportJobRecord.columns) FROM import_jobs
      WHERE id = \(bind: id) AND workspace_id = \(bind: workspaceID)
      """
    ).first().map(ImportJobRecord.init)
  }

  /// Marks the account's running jobs of `area` whose server stopped as failed, so a new import
  /// (or a run of the old one again) can start.
  private func failStale(area: ImportArea, now: Date, staleAfter: TimeInterval) async throws {
    try await sql.update(ImportJobRecord.table)
      .set("status", to: SQLBind(ImportJobStatus.failed.rawValue))
      .set("message", to: SQLBind(ImportMessages.StopReason.serverStopped.rawValue))
      .set("runner", to: SQLLiteral.null)
      .where("workspace_id", .equal, SQLBind(workspaceID))
      .where("area", .equal, SQLBind(area.rawValue))
      .where("status", .equal, SQLBind(ImportJobStatus.running.rawValue))
      .where("heartbeat_at", .lessThan, SQLBind(now.addingTimeInterval(-staleAfter)))
      .run()
  }

  static func isStale(_ job: ImportJobRecord, now: Date, staleAfter: TimeInterval) -> Bool {
    job.heartbeatAt < now.addingTimeInterval(-staleAfter)
  }

  private var sql: any SQLDatabase {
    get throws { try db.sql() }
  }

  // MARK: the run's side (by job id and runner token)

  /// The job and its rows, if `runner` still owns it.
  static func load(_ id: UUID, runner: String, on db: any Database) async throws
    -> (job: ImportJobRecord, rows: String)?
  {
    let sql = try db.sql()
    guard
      let job = try await sql.raw(
        """
        SELECT \(unsafeRaw: ImportJobRecord.columns) FROM import_jobs
        WHERE id = \(bind: id) AND runner = \(bind: runner)
          AND status = \(bind: ImportJobStatus.running.rawValue)
        """
      ).first().map(ImportJobRecord.init),
      // Quoted: ROWS is a keyword of both databases.
      let rows = try await sql.raw(
        "SELECT \(ident: "rows") FROM import_job_payloads WHERE job_id = \(bind: id)"
      ).first()?.decode(column: "rows", as: String.self)
    else { return nil }
    return (job, rows)
  }

  /// True while job `id` still keeps the rows it writes.
  private static func hasPayload(_ id: UUID, on db: any Database) async throws -> Bool {
    try await db.sql().raw("SELECT job_id FROM import_job_payloads WHERE job_id = \(bind: id)")
      .first() != nil
  }

  /// Records a batch, in the batch's own transaction: `done` rows looked at so far, and how many
  /// of this batch were imported and left out. Throws `ImportJobLost` when `runner` no longer
  /// owns the job, which rolls the batch back.
  static func advance(
    _ id: UUID, runner: String, done: Int, imported: Int, skipped: Int, now: Date,
    on db: any Database
  ) async throws {
    let updated = try await db.sql().update(ImportJobRecord.table)
      .set("done", to: SQLBind(done))
      .set(
        "imported",
        to: SQLBinaryExpression(SQLColumn("imported"), .add, SQLBind(imported))
      )
      .set(
        "skipped",
        to: SQLBinaryExpression(SQLColumn("skipped"), .add, SQLBind(skipped))
      )
      .set("heartbeat_at", to: SQLBind(now))
      .where("id", .equal, SQLBind(id))
      .where("runner", .equal, SQLBind(runner))
      .where("status", .equal, SQLBind(ImportJobStatus.running.rawValue))
      .returning("id")
      .all()
    if updated.isEmpty { throw ImportJobLost() }
  }

  /// Marks the job done and drops its rows.
  static func finish(_ id: UUID, runner: String, now: Date, on db: any Database) async throws {
    try await db.transaction { transaction in
      let updated = try await transaction.sql().update(ImportJobRecord.table)
        .set("status", to: SQLBind(ImportJobStatus.done.rawValue))
        .set("finished_at", to: SQLBind(now))
        .set("heartbeat_at", to: SQLBind(now))
        .set("runner", to: SQLLiteral.null)
        .where("id", .equal, SQLBind(id))
        .where("runner", .equal, SQLBind(runner))
        .returning("id")
        .all()
      if updated.isEmpty { throw ImportJobLost() }
      try await transaction.sql().raw(
        "DELETE FROM import_job_payloads WHERE job_id = \(bind: id)"
      ).run()
    }
  }

  /// Marks the job failed with `message`, keeping its rows for a run again.
  static func fail(_ id: UUID, runner: String, message: String, now: Date, on db: any Database)
    async throws
  {
    try await db.sql().update(ImportJobRecord.table)
      .set("status", to: SQLBind(ImportJobStatus.failed.rawValue))
      .set("message", to: SQLBind(message))
      .set("finished_at", to: SQLBind(now))
      .set("runner", to: SQLLiteral.null)
      .where("id", .equal, SQLBind(id))
      .where("runner", .equal, SQLBind(runner))
      .run()
  }

  // MARK: helpers

  static func encode(_ problems: [String]) -> String {
    (try? JSONEncoder().encode(problems)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
  }

  static func decode(_ problems: String) -> [String] {
    (try? JSONDecoder().decode([String].self, from: Data(problems.utf8))) ?? []
  }
}
