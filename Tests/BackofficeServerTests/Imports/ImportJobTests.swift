import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

@Suite("CSV imports in the background")
struct ImportJobTests {
  static let sixRows = """
    date,title,category,amount
    2025-11-01,Row 1,Food,1
    2025-11-02,Row 2,Food,2
    2025-11-03,Row 3,Food,3
    2025-11-04,Row 4,Food,4
    2025-11-05,Row 5,Food,5
    2025-11-06,Row 6,Food,6
    """

  static func expenseCount(_ email: String, _ t: TestApp) async throws -> Int {
    let workspaceID = try await t.workspaceID(of: email)
    return try await ExpenseTable.query(on: t.db).filter(\.$workspaceID == workspaceID).count()
  }

  /// A batch is sized from how long the last one held the lock, grows by half at most and
  /// never past the most rows a batch may have, so a fast batch cannot make the next one long.
  @Test func batchesGrowSlowlyAndStayShort() {
    let limits = ImportJobs.Tuning().batchRows
    #expect(limits.upperBound <= 1000)
    let target = Duration.milliseconds(30)
    // Far faster than the target: half again, not twice.
    #expect(ImportJobs.nextSize(200, took: .milliseconds(1), target: target, limits: limits) == 300)
    #expect(ImportJobs.nextSize(200, took: .zero, target: target, limits: limits) == 300)
    // Slower than the target: smaller, in proportion.
    #expect(
      ImportJobs.nextSize(600, took: .milliseconds(60), target: target, limits: limits) == 300)
    // The limits hold both ways.
    var size = 200
    for _ in 0..<20 {
      size = ImportJobs.nextSize(size, took: .microseconds(10), target: target, limits: limits)
    }
    #expect(size == limits.upperBound)
    #expect(
      ImportJobs.nextSize(60, took: .seconds(2), target: target, limits: limits)
        == limits.lowerBound)
  }

  /// Each batch is its own transaction: between two of them the rows so far are in the
  /// account, another account's write goes through, and the progress page (no JavaScript
  /// needed) shows how far the import has got.
  @Test(.timeLimit(.minutes(10)))
  func betweenTwoBatchesOthersWriteAndTheProgressShows() async throws {
    try await withApp { t in
      let gate = BatchGate(after: 2)
      try gate.install(on: t, batchRows: 2)
      let client = t.client()
      let email = try await client.signUp()
      let other = t.client()
      let otherEmail = try await other.signUp()
      try await client.get("/expenses/import")
      let upload = try await client.uploadExpenses(Self.sixRows)
      #expect(upload.status == .seeOther)
      let location = try #require(upload.location)
      #expect(location.hasPrefix("/imports/"))

      try await gate.whileHeld {
        #expect(gate.report?.done == 2)
        #expect(try await Self.expenseCount(email, t) == 2)
        try await other.addExpense(title: "Meanwhile", amount: "7", db: t.db)
        #expect(try await Self.expenseCount(otherEmail, t) == 1)
        #expect(try await other.get("/expenses").status == .ok)

        let page = try await client.get(location)
        #expect(page.status == .ok)
        #expect(page.body.contains("<h1>Importing expenses</h1>"))
        #expect(
          page.body.contains(#"<noscript><meta http-equiv="refresh" content="2"/></noscript>"#))
        #expect(page.body.contains(#"<progress id="import-bar" max="6" value="2""#))
        #expect(page.body.contains("2 of 6 rows checked: 2 imported, 0 already present."))
        #expect(page.body.contains(#"<script type="module" src="/js/imports.js"></script>"#))
        // Every script comes from a file; the Content-Security-Policy forbids inline ones. (The
        // interface texts for scripts are a JSON data block, which is never run.)
        let scripts =
          page.body.components(separatedBy: "<script").count - 1
          - (page.body.components(separatedBy: #"<script type="application/json""#).count - 1)
        let fromFiles =
          page.body.components(separatedBy: #"<script type="module" src="/js/"#)
          .count - 1
        #expect(scripts == fromFiles)

        let status = try await client.get(location + "/status").json()
        #expect(status["status"] as? String == "running")
        #expect(status["done"] as? Int == 2)
        #expect(status["total"] as? Int == 6)
        #expect(status["percent"] as? Int == 33)
        #expect(status["text"] as? String == "2 of 6 rows checked: 2 imported, 0 already present.")
      }

      try await t.app.importJobs.waitUntilIdle()
      let done = try await client.get(location)
      #expect(done.body.contains("<h1>Import of expenses finished</h1>"))
      #expect(!done.body.contains("http-equiv=\"refresh\""))
      #expect(!done.body.contains("imports.js"))
      #expect(done.importSummary == "6 expenses imported, 0 already present.")
      #expect(try await Self.expenseCount(email, t) == 6)
      let status = try await client.get(location + "/status").json()
      #expect(status["status"] as? String == "done")
      #expect(status["text"] as? String == "6 expenses imported, 0 already present.")
      // Newest first, as the list always shows them.
      let titles = try await client.get("/expenses").expenseTitles
      #expect(titles == (1...6).reversed().map { "Row \($0)" })
    }
  }

  @Test func onlyTheOwnerSeesAJob() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      try await owner.get("/expenses/import")
      let upload = try await owner.uploadExpenses(
        "date,title,category,amount\n,owned row,Food,1\n")
      let location = try #require(upload.location)
      try await t.app.importJobs.waitUntilIdle()
      #expect(try await owner.get(location).status == .ok)

      let intruder = t.client()
      try await intruder.signUp()
      for response in [
        try await intruder.get(location), try await intruder.get(location + "/status"),
        try await intruder.post(location + "/retry"),
      ] {
        #expect(response.status == .notFound)
        #expect(!response.body.contains("owned row"))
      }
      #expect(try await intruder.get("/imports/not-an-id").status == .notFound)
      #expect(try await intruder.get("/imports/\(UUID().uuidString)").status == .notFound)
    }
  }

  /// A job whose server died (it stopped moving) shows as stopped after a while and can be run
  /// again. Even rows the dead run wrote without recording them are not added twice.
  @Test func aJobWhoseServerDiedCanBeRunAgainSafely() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let workspaceID = try await t.workspaceID(of: email)
      let expenses = try ExpenseCSVFile.read(Data(Self.sixRows.utf8)).get().expenses
      let store = ImportJobStore(db: t.db, workspaceID: workspaceID)
      let started = try await store.start(
        area: .expenses, rows: try ExpenseImportRows.json(expenses), total: 6,
        keepDuplicates: false, problems: [], invalid: 0, now: t.clock.now, staleAfter: 60)
      guard case .started(let id, _) = started else {
        Issue.record("not started: \(started)")
        return
      }
      // The run that died had written two rows; its server never started it again.
      try await ExpenseStore(db: t.db, workspaceID: workspaceID).insert(
        [
          (position: 0, expense: expenses[0], matchKey: nil),
          (position: 1, expense: expenses[1], matchKey: nil),
        ],
        start: t.clock.now)
      let location = Routes.importJob.href(id: id)

      let fresh = try await client.get(location)
      #expect(fresh.body.contains("<h1>Importing expenses</h1>"))
      #expect(!fresh.body.contains("Run it again"))

      t.clock.advance(by: 61)
      let stopped = try await client.get(location)
      #expect(stopped.body.contains("<h1>Import of expenses stopped</h1>"))
      let message = try #require(stopped.importStopped)
      #expect(message.hasPrefix(ImportMessages.serverStopped))
      #expect(message.contains("The import stopped after 0 of 6 rows (0 imported)."))
      #expect(message.contains("nothing is added twice"))
      #expect(!stopped.body.contains("http-equiv=\"refresh\""))
      #expect(stopped.body.contains(#"action="\#(location)/retry""#))
      #expect(try await client.get(location + "/status").json()["status"] as? String == "failed")

      let retry = try await client.post(location + "/retry")
      #expect(retry.status == .seeOther)
      #expect(retry.location == location)
      try await t.app.importJobs.waitUntilIdle()
      let done = try await client.get(location)
      #expect(done.importSummary == "4 expenses imported, 2 already present.")
      #expect(try await Self.expenseCount(email, t) == 6)

      // A finished job is not run again.
      #expect(try await client.post(location + "/retry").location == location)
      try await t.app.importJobs.waitUntilIdle()
      #expect(try await Self.expenseCount(email, t) == 6)
    }
  }

  /// A second upload while an import of the same kind runs (a double click) starts nothing: the
  /// browser goes to the running one.
  @Test(.timeLimit(.minutes(10)))
  func aSecondImportWhileOneRunsGoesToTheRunningOne() async throws {
    try await withApp { t in
      let gate = BatchGate(after: 2)
      try gate.install(on: t, batchRows: 2)
      let client = t.client()
      let email = try await client.signUp()
      try await client.get("/expenses/import")
      let first = try #require(try await client.uploadExpenses(Self.sixRows).location)
      try await gate.whileHeld {
        try await client.get("/expenses/import")
        let second = try await client.uploadExpenses(Self.sixRows)
        #expect(second.status == .seeOther)
        #expect(second.location == first)
        let page = try await client.get(first)
        #expect(page.body.contains(ImportMessages.alreadyRunning))
      }
      try await t.app.importJobs.waitUntilIdle()
      #expect(try await Self.expenseCount(email, t) == 6)
      #expect(try await ImportJobTable.query(on: t.db).count() == 1)
    }
  }

  /// A database error stops the job with nothing half-written, and it can be run again.
  @Test func aFailedWriteStopsTheJobAndItCanBeRunAgain() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await failAdPaymentWrites(t, on: "INSERT")
      let page = try await client.importAdPayments(
        "name,url\nA,https://a.example.com\nB,https://b.example.com\n", in: t)
      #expect(page.body.contains("<h1>Import of ad payments stopped</h1>"))
      let message = try #require(page.importStopped)
      #expect(message.hasPrefix(ImportMessages.writeFailed))
      #expect(message.contains("after 0 of 2 rows"))
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)

      let sql = try t.db.sql()
      if isPostgresRun {
        try await sql.raw("DROP TRIGGER ad_payments_refuse ON ad_payments").run()
      } else {
        try await sql.raw("DROP TRIGGER ad_payments_refuse").run()
      }
      let location = try #require(page.firstMatch(#"action="(/imports/[^"/]+)/retry""#))
      #expect(try await client.post(location + "/retry").status == .seeOther)
      try await t.app.importJobs.waitUntilIdle()
      let done = try await client.get(location)
      #expect(done.importSummary == "2 payments imported, 0 already present.")
    }
  }

  /// Finished and stopped jobs are kept for 30 days, then removed (with the rows a stopped one
  /// kept) when the account starts another import.
  @Test func oldJobsGoWithTheirRowsWhenTheNextImportStarts() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let workspaceID = try await t.workspaceID(of: email)
      let store = ImportJobStore(db: t.db, workspaceID: workspaceID)
      let started = try await store.start(
        area: .adPayments, rows: "[]", total: 0, keepDuplicates: false, problems: [],
        invalid: 0, now: t.clock.now, staleAfter: 60)
      guard case .started(let id, let runner) = started else {
        Issue.record("not started: \(started)")
        return
      }
      try await ImportJobStore.fail(
        id, runner: runner, message: ImportMessages.writeFailed, now: t.clock.now, on: t.db)
      #expect(try await ImportJobPayloadTable.query(on: t.db).count() == 1)

      // Sessions end after 14 idle days: sign in again after each jump.
      t.clock.advance(by: 29 * 24 * 3600)
      _ = try await client.signIn(email: email)
      _ = try await client.importExpenses("date,title,category,amount\n,Tea,Food,1\n", in: t)
      #expect(try await ImportJobTable.query(on: t.db).count() == 2)

      t.clock.advance(by: 2 * 24 * 3600)
      _ = try await client.signIn(email: email)
      _ = try await client.importExpenses("date,title,category,amount\n,Bun,Food,1\n", in: t)
      #expect(try await ImportJobTable.query(on: t.db).count() == 2)
      #expect(try await ImportJobTable.find(id, on: t.db) == nil)
      #expect(try await ImportJobPayloadTable.query(on: t.db).count() == 0)
    }
  }

  /// A row added by hand after a batch looked at the account but before it took the lock is
  /// seen again under the lock, and not imported a second time.
  @Test func aRowAddedWhileABatchIsPreparedCountsAsPresent() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let workspaceID = try await t.workspaceID(of: email)
      let jobs = try t.app.importJobs
      var tuning = jobs.tuning
      tuning.beforeLock = { _ in
        let tea = Expense(
          title: "Tea", amount: ExpenseFixtures.decimal("2"), category: .food,
          date: ExpenseFixtures.date("2025-11-01"))
        try? await ExpenseStore(db: t.db, workspaceID: workspaceID).insertAll(
          [tea], now: t.clock.now)
      }
      jobs.tuning = tuning
      let page = try await client.importExpenses(
        "date,title,category,amount\n2025-11-01,Tea,Food,2\n2025-11-02,Bun,Food,1\n", in: t)
      #expect(page.importSummary == "1 expense imported, 1 already present.")
      #expect(try await Self.expenseCount(email, t) == 2)
    }
  }

  /// When the app shuts down, a run stops after its batch and its job says so.
  @Test(.timeLimit(.minutes(10)))
  func shuttingDownStopsAfterTheBatchAndSaysSo() async throws {
    try await withApp { t in
      let gate = BatchGate(after: 2)
      try gate.install(on: t, batchRows: 2)
      let client = t.client()
      let email = try await client.signUp()
      try await client.get("/expenses/import")
      let location = try #require(try await client.uploadExpenses(Self.sixRows).location)
      try await gate.whileHeld {
        try t.app.importJobs.stop()
      }
      try await t.app.importJobs.waitUntilIdle()
      #expect(try await Self.expenseCount(email, t) == 2)
      let page = try await client.get(location)
      let message = try #require(page.importStopped)
      #expect(message.hasPrefix(ImportMessages.serverStopped))
      #expect(message.contains("after 2 of 6 rows (2 imported)"))
    }
  }
}
