import BackofficeCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// Refreshes every fundraiser jar in the background.
///
/// Each app instance looks every minute; the job lease decides who works. The lease is taken
/// for a whole interval and kept when the run ends, so across all instances sharing the database
/// the jars are asked at most once per interval, and a crashed holder is replaced when its lease
/// runs out.
enum JarRefreshJob {
  static let leaseName = "jar-refresh"

  struct Outcome: Equatable, Sendable {
    /// False when another instance holds the lease (nothing was done).
    var ran = false
    var refreshed = 0
    var failed = 0
    var skipped = 0
  }

  /// One pass: take the lease, then ask each jar that is due, `spacing` apart so the service
  /// is never hammered. A jar is due when its fundraiser is active (a closed or reported one
  /// keeps its last reading), nobody asked it in the last half interval (a manual "Refresh"
  /// counts) and it is not known to be closed. A failure is stored as a code
  /// (`JarFetchError.storedForm`, see `JarRefresh.refresh`), never as words: this runs outside
  /// any request, in no reader's language.
  static func runOnce(
    db: any Database, client: JarClient, holder: String, interval: TimeInterval,
    spacing: Duration, now: @escaping @Sendable () -> Date, logger: Logger
  ) async throws -> Outcome {
    var outcome = Outcome()
    guard
      try await JobLease.acquire(leaseName, holder: holder, for: interval, now: now(), on: db)
    else { return outcome }
    outcome.ran = true

    let records = try await FundraiserStore.asking(on: db)
    let states = try await JarSnapshots.states(for: records, on: db)
    var first = true
    for record in records {
      let id = record.id
      let state = states[id] ?? .none
      let recent = state.lastAttemptAt.map { now().timeIntervalSince($0) < interval / 2 } ?? false
      let closed = state.lastError == nil && state.lastGood?.status == .closed
      if recent || closed {
        outcome.skipped += 1
        continue
      }
      if !first { try await Task.sleep(for: spacing) }
      first = false
      // Long runs keep the lease; a lost lease means another instance has taken over.
      guard
        try await JobLease.renew(leaseName, holder: holder, for: interval, now: now(), on: db)
      else { break }
      // A pass sleeps between jars: one closed meanwhile is not asked after its closing reading.
      guard try await FundraiserStore.isActive(id, on: db) else {
        outcome.skipped += 1
        continue
      }
      let snapshot = try await JarRefresh.refresh(record, client: client, on: db, now: now)
      if snapshot?.ok == true { outcome.refreshed += 1 } else { outcome.failed += 1 }
    }
    if outcome.refreshed + outcome.failed > 0 {
      logger.info(
        "jar refresh: \(outcome.refreshed) refreshed, \(outcome.failed) failed, \(outcome.skipped) skipped"
      )
    }
    return outcome
  }
}

/// Starts the background refresh when the app boots and stops it on shutdown.
struct JarRefreshLifecycle: LifecycleHandler {
  /// How often each instance checks whether the lease is free.
  var pollEvery: Duration = .seconds(60)
  /// Wait after start, so a restart loop does not mean a refresh loop.
  var firstDelay: Duration = .seconds(30)

  let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

  func didBoot(_ application: Application) throws {
    let minutes = application.config.jarRefreshMinutes
    guard minutes > 0 else { return }
    let interval = TimeInterval(minutes * 60)
    let holder = UUID.random().uuidString
    let poll = pollEvery
    let delay = firstDelay
    let app = application
    let loop = Task.detached {
      do {
        try await Task.sleep(for: delay)
        while !Task.isCancelled {
          do {
            _ = try await JarRefreshJob.runOnce(
              db: app.db, client: app.jarClient, holder: holder, interval: interval,
              spacing: .seconds(2), now: app.clients.now, logger: app.logger)
          } catch is CancellationError {
            return
          } catch {
            app.logger.warning("jar refresh failed: \(String(reflecting: error))")
          }
          try await Task.sleep(for: poll)
        }
      } catch {
        // Cancelled while sleeping: the app is shutting down.
      }
    }
    task.withLockedValue { $0 = loop }
  }

  func shutdownAsync(_ application: Application) async {
    let loop = task.withLockedValue { current in
      defer { current = nil }
      return current
    }
    loop?.cancel()
    await loop?.value
  }

  func shutdown(_ application: Application) {
    task.withLockedValue { current in
      current?.cancel()
      current = nil
    }
  }
}
