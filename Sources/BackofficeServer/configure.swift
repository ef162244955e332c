import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Foundation
import Vapor

/// The one composition root: database, middleware, migrations, commands and routes.
/// The server, the CLI commands and the tests all go through here.
public func configure(_ app: Application, config: AppConfig, clients: AppClients = .live)
  async throws
{
  app.config = config
  app.clients = clients

  try configureDatabase(app, config: config)
  app.registerMigrations()

  app.passwords.use(.bcrypt(cost: config.passwordCost))
  app.sessions.use { app in UnchangedSessionDriver(base: app.fluent.sessions.driver()) }
  app.sessions.configuration.cookieName = "backoffice_session"
  let secure = config.secureCookies
  app.sessions.configuration.cookieFactory = { id in
    HTTPCookies.Value(
      string: id.string, maxAge: 60 * 60 * 24 * 30, path: "/", isSecure: secure, isHTTPOnly: true,
      sameSite: .lax)
  }
  // Photos are the largest bodies; the multipart envelope needs a little extra room.
  app.routes.defaultMaxBodySize = ByteCount(value: config.maxUploadBytes + 256 * 1024)

  // Order matters: errors are rendered for everything below, static files skip sessions.
  app.middleware = Middlewares()
  app.middleware.use(RouteLoggingMiddleware(logLevel: .info))
  app.middleware.use(SecurityHeadersMiddleware())
  // Outside the error middleware, so error pages that show a message also clear it.
  app.middleware.use(FlashMiddleware(secure: config.secureCookies))
  app.middleware.use(AppErrorMiddleware())
  app.middleware.use(
    FileMiddleware(
      publicDirectory: app.directory.publicDirectory, defaultFile: nil,
      advancedETagComparison: true))
  app.middleware.use(app.sessions.middleware)
  app.middleware.use(SessionUserMiddleware())
  app.middleware.use(CSRFMiddleware())

  app.asyncCommands.use(UserCommand(), as: "user")
  app.asyncCommands.use(CatalogCommand(), as: "catalog")
  app.asyncCommands.use(ExportCommand(), as: "export")
  app.asyncCommands.use(ImportCommand(), as: "import")

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

private func configureDatabase(_ app: Application, config: AppConfig) throws {
  switch config.database {
  case .sqliteMemory:
    app.databases.use(.sqlite(.memory), as: .sqlite)
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
    app.databases.use(.sqlite(.file(path)), as: .sqlite)
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
