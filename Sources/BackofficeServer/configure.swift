import Fluent
import FluentPostgresDriver
import Foundation
import Vapor

/// The one composition root: database, middleware, migrations, commands and routes.
/// The server, the CLI commands and the tests all go through here.
public func configure(_ app: Application, config: AppConfig, clients: AppClients = .live)
  async throws
{
  app.config = config
  app.clients = clients
  // Metrics first: a handle made before the backend is installed would count nowhere.
  _ = AppMetrics.shared

  try configureDatabase(app, config: config)
  app.registerMigrations()

  app.passwords.use(.bcrypt(cost: config.passwordCost))
  app.readCache = ReadCache(maxBytes: config.readCacheBytes)
  let limits = BodyLimits(maxUploadBytes: config.maxUploadBytes)
  app.routes.defaultMaxBodySize = ByteCount(value: limits.bytes(.standard))
  app.routeTable = RouteTable(Routes.all)
  configureServer(app, config: config, limits: limits)

  do {
    app.staticFiles = try StaticFiles(folder: app.directory.publicDirectory)
  } catch {
    throw StartupError(
      "Could not read the web assets in \(app.directory.publicDirectory): \(error).")
  }

  // Order matters. Everything below the error middleware has its errors rendered, and nothing
  // a page needs to render an error (the session, the CSRF token) is required to exist: a
  // request refused before the session was read simply shows a signed-out page. Static files
  // are answered before any session work.
  app.middleware = Middlewares()
  for middleware: any AsyncMiddleware in [
    RequestLogMiddleware(),
    SecurityHeadersMiddleware(strictTransportSecurity: config.secureCookies),
    // Outside the error middleware, so error pages that show a message also clear it, and
    // cookies decided while rendering an error page are still sent.
    FlashMiddleware(secure: config.secureCookies),
    SessionCookieMiddleware(secure: config.secureCookies),
    AppErrorMiddleware(),
    StaticFilesMiddleware(files: app.staticFiles),
    BodyLimitMiddleware(table: app.routeTable, limits: limits),
    SessionMiddleware(),
    LanguageMiddleware(),
    CSRFMiddleware(),
  ] {
    app.middleware.use(middleware)
  }
  // The middleware above, the route's guards and its handler run in one task per request.
  app.responder.use { app in
    AppResponder(
      routes: app.routes, middleware: app.middleware.resolve(),
      metrics: app.http.server.configuration.reportMetrics ? AppMetrics.shared.requests : nil,
      sqlite: app.sqliteConfiguration)
  }

  app.asyncCommands.use(UserCommand(), as: "user")
  app.asyncCommands.use(CatalogCommand(), as: "catalog")
  app.asyncCommands.use(ExportCommand(), as: "export")
  app.asyncCommands.use(ImportCommand(), as: "import")
  app.asyncCommands.use(BackupCommand(), as: "backup")

  // Background work that starts and stops with the app: CSV imports, the jar refresh.
  app.registerImportJobs()
  app.lifecycle.use(JarRefreshLifecycle())
  if let backup = config.backup { app.lifecycle.use(BackupLifecycle(settings: backup)) }
  if let mail = config.mail {
    let host = config.publicURL.flatMap { URLComponents(string: $0)?.host } ?? "localhost"
    app.mailDelivery = MailDelivery(settings: mail, heloName: host)
    app.lifecycle.use(MailDeliveryLifecycle())
  }
  try routes(app)

  if config.autoMigrate {
    do {
      try await app.autoMigrate()
    } catch {
      throw StartupError(StartupMessages.describeDatabaseFailure(error, config: config))
    }
  }
}

private enum StartupMessages {
  static func describeDatabaseFailure(_ error: any Error, config: AppConfig) -> String {
    let target: String
    switch config.database {
    case .sqliteFile(let path): target = "the SQLite database at \(path)"
    case .sqliteMemory: target = "the in-memory SQLite database"
    case .postgres(let url, _): target = "PostgreSQL at \(redacted(url))"
    }
    return "Could not open \(target): \(String(reflecting: error)). "
      + "Check DATABASE_URL (or BACKOFFICE_DATA_DIR) and that the database is running."
  }

  static func redacted(_ url: String) -> String {
    guard var components = URLComponents(string: url) else { return "(unreadable URL)" }
    if components.password != nil { components.password = "***" }
    return components.string ?? "(unreadable URL)"
  }
}

/// The HTTP server with its connection limits (see docs/platform.md, "Limits").
private func configureServer(_ app: Application, config: AppConfig, limits: BodyLimits) {
  let maxBody =
    [BodyKind.standard, .photoForm, .receiptForm, .jsonWithPhoto].map(limits.bytes).max() ?? 0
  // `app.server` asks the factory every time; the one instance lives in the app's storage.
  let server = BackofficeHTTPServer(
    application: app, limits: config.connections, maxBodyBytes: maxBody)
  app.servers.use { _ in server }
  app.http.server.configuration.backlog = 1024
  // Outgoing requests (Monobank) never follow redirects: the jar API does not send any, and
  // one to another host would point the server somewhere it was not configured to go.
  app.http.client.configuration.redirectConfiguration = .disallow
}

private func configureDatabase(_ app: Application, config: AppConfig) throws {
  /// SQLite through GRDB (`SQLiteStorage`): the file's pool, or one connection in memory.
  func sqlite(_ path: String?) throws {
    let storage: SQLiteStorage
    do {
      storage = try SQLiteStorage.open(
        path: path, busyTimeoutMilliseconds: config.sqliteBusyTimeoutMilliseconds)
    } catch {
      throw StartupError(StartupMessages.describeDatabaseFailure(error, config: config))
    }
    app.databases.use(SQLiteStorageConfiguration(storage: storage), as: .sqlite)
  }
  switch config.database {
  case .sqliteMemory:
    try sqlite(nil)
  case .sqliteFile(let path):
    let folder = (path as NSString).deletingLastPathComponent
    do {
      if !folder.isEmpty {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true)
      }
    } catch {
      throw StartupError(
        "Could not create the data folder \(folder): \(error.localizedDescription). "
          + "Set BACKOFFICE_DATA_DIR to a writable folder.")
    }
    try sqlite(path)
  case .postgres(let url, let searchPath):
    var configuration: SQLPostgresConfiguration
    do {
      configuration = try SQLPostgresConfiguration(url: url)
    } catch {
      throw StartupError(
        "DATABASE_URL is not a valid PostgreSQL URL (\(error)). "
          + "Expected postgres://USER:PASSWORD@HOST:5432/DATABASE.")
    }
    configuration.searchPath = searchPath
    configuration.coreConfiguration.options.connectTimeout = .seconds(5)
    app.databases.use(
      .postgres(configuration: configuration, connectionPoolTimeout: .seconds(10)), as: .psql)
  }
}
