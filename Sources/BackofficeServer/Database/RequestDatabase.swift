import FluentKit
import Vapor

extension Request {
  /// The request's database, made once and kept with the request's other state.
  ///
  /// This shadows Fluent's `Request.db` in the app's code (a module's own declaration wins
  /// over an imported one of the same name). Fluent's makes a new database on every use: it
  /// takes the registry's lock to find the driver, reads two entries of the request's storage
  /// and one of the app's, and copies the request's logger to name the database in it, about
  /// ten allocations each time, and an API call used it two or three times. On SQLite the
  /// database is made here from the configuration the responder found at start, with the
  /// request's own logger (it already names the request; the app has one database). On
  /// PostgreSQL, or for a request no responder saw, Fluent makes it, once.
  var db: any FluentKit.Database {
    let state = kept
    if let made = state.read({ $0.database }) { return made }
    let made: any FluentKit.Database
    if let sqlite = state.sqlite {
      made = SQLiteFluentDatabase(
        storage: sqlite.storage,
        context: DatabaseContext(configuration: sqlite, logger: logger, eventLoop: eventLoop))
    } else {
      made = db(nil)
    }
    state.change { $0.database = made }
    return made
  }
}

extension Application {
  /// The app's SQLite configuration, or nil on PostgreSQL (or before a database is set).
  var sqliteConfiguration: SQLiteStorageConfiguration? {
    guard !databases.ids().isEmpty else { return nil }
    return databases.configuration() as? SQLiteStorageConfiguration
  }
}
