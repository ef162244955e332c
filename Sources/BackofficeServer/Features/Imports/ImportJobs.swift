import BackofficeCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Runs CSV imports in the background, one short write transaction per batch of rows, so that
/// other accounts' writes wait for one batch at most instead of the whole file.
///
/// Each batch looks up which of its rows the account already has, writes the others and
/// records the progress, all in one transaction; between batches the run pauses briefly so
/// waiting writers get the database. Batches are sized to take about `Tuning.batchTime`.
final class ImportJobs: LifecycleHandler, Sendable {
  struct Tuning: Sendable {
    /// Rows in the first batch; with `batchTime` set, later batches are sized from how long the
    /// previous one took.
    var firstBatch = 200
    /// The fewest and most rows of one batch. The most is small enough that a batch sized
    /// from a fast one and meeting a slow moment (a checkpoint, a busy disk) still holds the
    /// lock briefly: about 0.1 s at the slowest rate seen on the VM of docs/PERFORMANCE.md.
    var batchRows: ClosedRange<Int> = 50...1000
    /// How long one batch should hold the write lock; nil keeps every batch at `firstBatch`.
    /// A commit alone takes a good part of it on a slow disk (about 25 ms on the 2-core VM of
    /// docs/PERFORMANCE.md), so smaller batches would mostly wait for the disk.
    var batchTime: Duration? = .milliseconds(30)
    /// The pause after each batch, in which other writers get their turn: at least `pause`, and
    /// at least as long as the batch held the lock, so the import never has the database more
    /// than half the time.
    var pause: Duration = .milliseconds(5)
    /// A running job whose progress has not moved for this long has lost its server; its page
    /// shows it as stopped and offers to run it again.
    var staleAfter: TimeInterval = 60
    /// Called after each batch is committed (tests use it to act between two batches).
    var afterBatch: (@Sendable (UUID, ImportReport) async -> Void)? = nil
    /// Called once a batch's rows are made ready, before it takes the lock (tests use it to
    /// change the account at the worst moment).
    var beforeLock: (@Sendable (UUID) async -> Void)? = nil
  }

  private struct State {
    var tuning = Tuning()
    var runs: [String: Task<Void, Never>] = [:]
    var stopping = false
  }

  private let state = NIOLockedValueBox(State())
  /// One thread for the CPU work of imports (reading a file, encoding and decoding its rows):
  /// off the threads that answer requests, and off the small pool SQLite's calls run on (as
  /// many threads as cores), so a large file being read never holds up anybody's query.
  private let work = NIOThreadPool(numberOfThreads: 1)

  init() {
    work.start()
  }

  /// Runs `body` on the imports' own thread, in the caller's interface language: that thread
  /// has no task-local values of its own, and the messages written while a file is read
  /// ("Row 3: …") must be in the language of the request that sent it.
  func compute<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let language = UILanguage.current
    return try await work.runIfActive {
      try UILanguage.$current.withValue(language) { try body() }
    }
  }

  var tuning: Tuning {
    get { state.withLockedValue { $0.tuning } }
    set { state.withLockedValue { $0.tuning = newValue } }
  }

  var isStopping: Bool { state.withLockedValue { $0.stopping } }

  /// Starts a run of job `id` owned by `runner` (see `ImportJobStore.start` and `claim`).
  func launch(_ id: UUID, runner: String, app: Application) {
    state.withLockedValue { state in
      guard !state.stopping else { return }
      // Added under the lock, before the run can finish and remove itself.
      state.runs[runner] = Task.detached {
        await ImportRun(app: app, jobs: self, jobID: id, runner: runner).run()
        self.state.withLockedValue { _ = $0.runs.removeValue(forKey: runner) }
      }
    }
  }

  /// Returns once no run is left (tests wait here before looking at the result).
  func waitUntilIdle() async {
    while let next = state.withLockedValue({ $0.runs.values.first }) {
      await next.value
    }
  }

  /// Runs stop after their current batch and mark their job as stopped, so it can be run again
  /// after the restart.
  func stop() {
    state.withLockedValue { $0.stopping = true }
  }

  func shutdown(_ application: Application) {
    stop()
    try? work.syncShutdownGracefully()
  }

  func shutdownAsync(_ application: Application) async {
    stop()
    await waitUntilIdle()
    try? await work.shutdownGracefully()
  }
}

extension Application {
  private struct ImportJobsKey: StorageKey {
    typealias Value = ImportJobs
  }

  /// The background import runner, registered by `configure`.
  var importJobs: ImportJobs {
    get throws {
      guard let jobs = storage[ImportJobsKey.self] else {
        throw Abort(.internalServerError, reason: "The import runner is not registered.")
      }
      return jobs
    }
  }

  /// Keeps the runner in the app's storage and lets the app's start and stop reach it.
  func registerImportJobs() {
    let jobs = ImportJobs()
    storage[ImportJobsKey.self] = jobs
    lifecycle.use(jobs)
  }
}

extension ImportJobs {
  /// How much larger than the last one a batch may grow: slowly, as one fast batch says
  /// little about the next moment of a shared disk.
  static let growth = 1.5

  /// The next batch's size: scaled so it takes about `target`, at most `growth` times the last
  /// one, within `limits`.
  static func nextSize(_ size: Int, took: Duration, target: Duration, limits: ClosedRange<Int>)
    -> Int
  {
    guard took > .zero else { return min(Int(Double(size) * growth), limits.upperBound) }
    let scaled = Double(size) * min(growth, target / took)
    return min(max(Int(scaled), limits.lowerBound), limits.upperBound)
  }
}

/// The app is shutting down; the job is left for a run again.
private struct ImportStopped: Error {}

/// One run of one job.
private struct ImportRun {
  let app: Application
  let jobs: ImportJobs
  let jobID: UUID
  let runner: String

  func run() async {
    let db = app.db
    do {
      guard let (job, json) = try await ImportJobStore.load(jobID, runner: runner, on: db),
        let area = ImportArea(rawValue: job.area)
      else { return }
      AppMetrics.shared.importsStarted.increment()
      // Reading 150 000 rows takes a moment of CPU; keep it off the request threads.
      let (rows, occurrences) = try await jobs.compute {
        let rows = try area.rows(from: json)
        return (rows, ImportDuplicates.occurrences(rows.keys))
      }
      try await write(rows, occurrences: occurrences, job: job, area: area)
    } catch is ImportJobLost {
      app.logger.info("import \(jobID): taken over by another run")
    } catch is ImportStopped {
      await fail(.serverStopped)
    } catch {
      app.logger.report(error: error)
      await fail(.writeFailed)
    }
  }

  func write(
    _ rows: any ImportRows, occurrences: [Int], job: ImportJobRecord, area: ImportArea
  ) async throws {
    let tuning = jobs.tuning
    let workspaceID = job.workspaceID
    let keepDuplicates = job.keepDuplicates
    let start = job.createdAt
    let keys = rows.keys
    var report = ImportReport(
      total: job.total, done: job.done, imported: job.imported, present: job.skipped,
      invalid: job.invalid, keepDuplicates: keepDuplicates, noun: area.noun)
    var position = min(job.done, keys.count)
    var size = tuning.firstBatch
    while position < keys.count {
      if jobs.isStopping { throw ImportStopped() }
      let batch = position..<min(keys.count, position + size)
      let now = app.clients.now()
      let (id, runner) = (jobID, self.runner)
      // What needs no lock is done before taking it: which rows the account lacks, and those
      // rows made ready to insert (on the imports' thread). Inside the lock the counts are read
      // again; only if they changed meanwhile (someone added one of these rows by hand) are the
      // rows made again there.
      let batchKeys = Set(keys[batch])
      let choose: @Sendable ([String: Int]) -> [Int] = { present in
        let add = ImportDuplicates.rowsToAdd(
          batch.map { (key: keys[$0], occurrence: occurrences[$0]) }, present: present)
        return zip(batch, add).filter(\.1).map(\.0)
      }
      let expected =
        keepDuplicates
        ? Array(batch)
        : choose(try await rows.present(batchKeys, workspaceID: workspaceID, on: app.db))
      let prepared = try await jobs.compute {
        try rows.prepare(expected, workspaceID: workspaceID, start: start)
      }
      if let beforeLock = tuning.beforeLock { await beforeLock(jobID) }
      let (added, held) = try await WriteTransaction.run(on: app.db) { db in
        var positions = expected
        var insert = prepared
        if !keepDuplicates {
          positions = choose(try await rows.present(batchKeys, workspaceID: workspaceID, on: db))
          if positions != expected {
            insert = try rows.prepare(positions, workspaceID: workspaceID, start: start)
          }
        }
        try await rows.beforeInsert(insert, workspaceID: workspaceID, on: db).run(on: db)
        try await ImportJobStore.advance(
          id, runner: runner, done: batch.upperBound, imported: positions.count,
          skipped: batch.count - positions.count, now: now, on: db)
        return positions.count
      }
      app.logger.debug("import \(jobID): rows \(batch) in \(held)")
      position = batch.upperBound
      report.done = position
      report.imported += added
      report.present += batch.count - added
      if let afterBatch = tuning.afterBatch { await afterBatch(jobID, report) }
      if let target = tuning.batchTime {
        size = ImportJobs.nextSize(size, took: held, target: target, limits: tuning.batchRows)
      }
      let pause = tuning.pause > .zero ? max(tuning.pause, held) : .zero
      if pause > .zero { try? await Task.sleep(for: pause) }
    }
    try await ImportJobStore.finish(jobID, runner: runner, now: app.clients.now(), on: app.db)
    AppMetrics.shared.importsFinished.increment()
  }

  func fail(_ reason: ImportMessages.StopReason) async {
    AppMetrics.shared.importsFailed.increment()
    do {
      try await ImportJobStore.fail(
        jobID, runner: runner, message: reason.rawValue, now: app.clients.now(), on: app.db)
    } catch {
      app.logger.report(error: error)
    }
  }
}

/// A transaction that takes the write lock at its start, and how long it held it. On SQLite a
/// transaction that reads first and writes later cannot wait for another writer (SQLite refuses
/// the upgrade at once rather than risk a deadlock), so a batch starts with `BEGIN IMMEDIATE` and
/// waits its turn like any single statement does; the time it held the lock starts once it has
/// it. PostgreSQL locks rows, not the database: a plain transaction, timed whole.
enum WriteTransaction {
  static func run<T: Sendable>(
    on db: any Database, _ body: @escaping @Sendable (any Database) async throws -> T
  ) async throws -> (T, held: Duration) {
    let clock = ContinuousClock()
    guard try db.sql().dialect.name == "sqlite" else {
      let began = clock.now
      let result = try await db.transaction(body)
      return (result, clock.now - began)
    }
    return try await db.withConnection { connection in
      let sql = try connection.sql()
      try await sql.raw("BEGIN IMMEDIATE").run()
      let locked = clock.now
      do {
        let result = try await body(connection)
        try await sql.raw("COMMIT").run()
        return (result, clock.now - locked)
      } catch {
        try? await sql.raw("ROLLBACK").run()
        throw error
      }
    }
  }
}
