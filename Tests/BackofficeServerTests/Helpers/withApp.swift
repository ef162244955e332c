import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor
import VaporTesting

@testable import BackofficeServer

/// The repository root, for the `Public/` folder and the OpenAPI document.
let repositoryRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<4 { url.deleteLastPathComponent() }
  return url.path
}()

/// A clock tests can move.
final class TestClock: Sendable {
  private let current: NIOLockedValueBox<Date>
  init(_ start: Date = Date(timeIntervalSince1970: 1_790_000_000)) { current = .init(start) }
  var now: Date { current.withLockedValue { $0 } }
  func advance(by seconds: TimeInterval) { current.withLockedValue { $0 += seconds } }
}

struct TestApp: Sendable {
  let app: Application
  let clock: TestClock

  func client() -> TestClient { TestClient(app: app) }
  var db: any Database { app.db }
}

/// Runs `test` against the real `configure` on a fresh in-memory SQLite database, or on a
/// fresh schema of the PostgreSQL database named by `TEST_DATABASE_URL` when that is set.
func withApp<T>(
  config: (inout AppConfig) -> Void = { _ in },
  _ test: (TestApp) async throws -> T
) async throws -> T {
  // Each app holds its own connection pool; on PostgreSQL, hundreds of tests at once would
  // exceed the server's connection limit, so only a few apps run at a time there.
  let postgres = !(ProcessInfo.processInfo.environment["TEST_DATABASE_URL"] ?? "").isEmpty
  guard postgres else { return try await runApp(config: config, test) }
  await postgresSlots.acquire()
  do {
    let result = try await runApp(config: config, test)
    await postgresSlots.release()
    return result
  } catch {
    await postgresSlots.release()
    throw error
  }
}

/// Where a test's data lives: the run's usual store (in-memory SQLite, or PostgreSQL when
/// `TEST_DATABASE_URL` is set), or a SQLite file in a temporary folder as the server keeps it
/// (WAL mode, direct reads).
enum TestStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case usual
  case sqliteFile

  var testDescription: String { rawValue }
}

/// `withApp` on `store`.
func withApp<T>(
  store: TestStore,
  config: (inout AppConfig) -> Void = { _ in },
  _ test: (TestApp) async throws -> T
) async throws -> T {
  switch store {
  case .usual:
    return try await withApp(config: config, test)
  case .sqliteFile:
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("backoffice-file-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("data.sqlite").path
    return try await runApp(
      config: {
        config(&$0)
        $0.database = .sqliteFile(path: path)
      }, test)
  }
}

/// A counting semaphore for async code.
actor AsyncSemaphore {
  private var free: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(_ count: Int) { free = count }

  func acquire() async {
    if free > 0 {
      free -= 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      free += 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}

let postgresSlots = AsyncSemaphore(8)

private func runApp<T>(
  config: (inout AppConfig) -> Void,
  _ test: (TestApp) async throws -> T
) async throws -> T {
  let app = try await Application.make(.testing)
  // Each app its own blocking pool, as a server process has. SQLite waits for a lock by
  // retrying on a thread of that pool; on the process-wide pool (one thread per core) two apps
  // each waiting on their own writer could take every thread and starve both writers.
  app.threadPool = NIOThreadPool(numberOfThreads: 4)
  app.logger.logLevel = .warning
  app.directory = DirectoryConfiguration(workingDirectory: repositoryRoot)
  let clock = TestClock()
  // The database `swift run backoffice` uses: a SQLite file (WAL, the writer's gate, direct
  // reads and writes, long reads on connections of their own), in a folder of the test's own.
  // A test that needs memory says so (`$0.database = .sqliteMemory`) and why.
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("backoffice-test-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  var settings = AppConfig(
    database: .sqliteFile(path: folder.appendingPathComponent("backoffice.sqlite").path),
    autoMigrate: false, passwordCost: 4)
  // Tests never reach the internet; a test that needs an upstream starts a loopback stub.
  settings.catalogBaseURL = "http://127.0.0.1:9/"
  settings.monobankBaseURL = "http://127.0.0.1:9/"
  settings.jarRefreshMinutes = 0
  let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  let postgresURL = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"].flatMap {
    $0.isEmpty ? nil : $0
  }
  if let postgresURL {
    settings.database = .postgres(url: postgresURL, searchPath: [schema])
  }
  config(&settings)
  // A test may choose its own database (a SQLite file, say) even in a PostgreSQL run.
  let onPostgres: Bool
  if case .postgres = settings.database { onPostgres = true } else { onPostgres = false }
  var clients = AppClients.live
  clients.now = { clock.now }

  do {
    try await configure(app, config: settings, clients: clients)
    if onPostgres, let sql = app.db as? any SQLDatabase {
      try await sql.raw("CREATE SCHEMA \(ident: schema)").run()
    }
    try await app.autoMigrate()
    let result = try await test(TestApp(app: app, clock: clock))
    try await dropSchema(app, schema: schema, postgres: onPostgres)
    try await app.asyncShutdown()
    return result
  } catch {
    try? await dropSchema(app, schema: schema, postgres: onPostgres)
    try? await app.asyncShutdown()
    throw error
  }
}

private func dropSchema(_ app: Application, schema: String, postgres: Bool) async throws {
  guard postgres, let sql = app.db as? any SQLDatabase else { return }
  try await sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
}

var isPostgresRun: Bool {
  !(ProcessInfo.processInfo.environment["TEST_DATABASE_URL"] ?? "").isEmpty
}

/// Runs `test` against two app instances that share one database, as two servers behind a
/// load balancer do: a temporary SQLite file, or one fresh schema of the PostgreSQL database
/// named by `TEST_DATABASE_URL`. Both read the same test clock.
func withTwoInstances(_ test: (TestApp, TestApp) async throws -> Void) async throws {
  if isPostgresRun { await postgresSlots.acquire() }
  let clock = TestClock()
  let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("backoffice-two-\(UUID().uuidString)")
  var settings = AppConfig(database: .sqliteMemory, autoMigrate: false, passwordCost: 4)
  settings.catalogBaseURL = "http://127.0.0.1:9/"
  settings.monobankBaseURL = "http://127.0.0.1:9/"
  settings.jarRefreshMinutes = 0
  if let url = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"], !url.isEmpty {
    settings.database = .postgres(url: url, searchPath: [schema])
  } else {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    settings.database = .sqliteFile(path: folder.appendingPathComponent("shared.sqlite").path)
  }
  var clients = AppClients.live
  clients.now = { clock.now }

  var apps: [Application] = []
  do {
    for _ in 0..<2 {
      let app = try await Application.make(.testing)
      apps.append(app)
      app.threadPool = NIOThreadPool(numberOfThreads: 4)
      app.logger.logLevel = .warning
      app.directory = DirectoryConfiguration(workingDirectory: repositoryRoot)
      try await configure(app, config: settings, clients: clients)
    }
    if isPostgresRun, let sql = apps[0].db as? any SQLDatabase {
      try await sql.raw("CREATE SCHEMA \(ident: schema)").run()
    }
    try await apps[0].autoMigrate()
    try await test(TestApp(app: apps[0], clock: clock), TestApp(app: apps[1], clock: clock))
  } catch {
    try? await dropSchema(apps[0], schema: schema, postgres: isPostgresRun)
    for app in apps { try? await app.asyncShutdown() }
    try? FileManager.default.removeItem(at: folder)
    if isPostgresRun { await postgresSlots.release() }
    throw error
  }
  try await dropSchema(apps[0], schema: schema, postgres: isPostgresRun)
  for app in apps { try await app.asyncShutdown() }
  try? FileManager.default.removeItem(at: folder)
  if isPostgresRun { await postgresSlots.release() }
}
