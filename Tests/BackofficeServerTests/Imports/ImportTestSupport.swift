import BackofficeCore
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import BackofficeServer

extension TestClient {
  /// Uploads an expenses CSV from the import page, waits for the background import to finish
  /// and returns its page.
  func importExpenses(_ csv: String, fields: [(String, String)] = [], in t: TestApp)
    async throws -> TestResponse
  {
    try await get("/expenses/import")
    return try await followImport(uploadExpenses(csv, fields: fields), in: t)
  }

  /// Uploads an ad payments CSV from the import page, waits for the background import to
  /// finish and returns its page.
  func importAdPayments(_ csv: String, fields: [(String, String)] = [], in t: TestApp)
    async throws -> TestResponse
  {
    try await get("/ad-payments/import")
    return try await followImport(
      upload("/ad-payments/import", file: Data(csv.utf8), fields: fields), in: t)
  }

  /// The import page an accepted upload leads to, once its import has finished.
  func followImport(_ response: TestResponse, in t: TestApp) async throws -> TestResponse {
    #expect(response.status == .seeOther, "upload: \(response.status) \(response.body)")
    let location = try #require(response.location)
    #expect(location.hasPrefix("/imports/"), "\(location)")
    try await t.app.importJobs.waitUntilIdle()
    return try await get(location)
  }
}

extension TestResponse {
  /// The result sentence of a finished import's page.
  var importSummary: String? {
    firstMatch(#"<div class="flash flash-success import-report" role="status"><p>([^<]*)</p>"#)
  }

  /// The message of a stopped import's page.
  var importStopped: String? {
    firstMatch(#"<div class="form-error import-report" role="alert"><p>([^<]*)</p>"#)
  }
}

/// A door that opens once and stays open.
actor Latch {
  private var open = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    if open { return }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    open = true
    for continuation in waiting { continuation.resume() }
    waiting = []
  }
}

/// Holds a background import after the batch that ends at row `after`, until the test lets it
/// go on: the test can look at the page and the database between two batches.
final class BatchGate: Sendable {
  let after: Int
  let reached = Latch()
  let proceed = Latch()
  private let seen = NIOLockedValueBox<ImportReport?>(nil)

  init(after: Int) { self.after = after }

  var report: ImportReport? { seen.withLockedValue { $0 } }

  /// Installs the gate on `t`'s runner with batches of `rows` rows and no pauses.
  func install(on t: TestApp, batchRows rows: Int) throws {
    let jobs = try t.app.importJobs
    var tuning = jobs.tuning
    tuning.firstBatch = rows
    tuning.batchTime = nil
    tuning.pause = .zero
    tuning.afterBatch = { _, report in
      guard report.done == self.after else { return }
      self.seen.withLockedValue { $0 = report }
      await self.reached.release()
      await self.proceed.wait()
    }
    jobs.tuning = tuning
  }

  /// Waits for the import to stop at the gate, runs `body`, then lets the import go on, also
  /// when `body` fails (a held import would keep the app from shutting down).
  func whileHeld(_ body: () async throws -> Void) async throws {
    await reached.wait()
    let outcome: Result<Void, any Error>
    do {
      try await body()
      outcome = .success(())
    } catch {
      outcome = .failure(error)
    }
    await proceed.release()
    try outcome.get()
  }
}

/// Sets fixed batches of `rows` rows without pauses.
func useBatches(of rows: Int, on t: TestApp) throws {
  let jobs = try t.app.importJobs
  var tuning = jobs.tuning
  tuning.firstBatch = rows
  tuning.batchTime = nil
  tuning.pause = .zero
  jobs.tuning = tuning
}
