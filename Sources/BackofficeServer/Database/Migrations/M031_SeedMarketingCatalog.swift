import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// A fresh install starts with the catalog that ships with the project, so the first plan can
/// be made without any network access.
struct M031_SeedMarketingCatalog: AsyncMigration {
  func prepare(on database: any Database) async throws {
    // Column by column: the catalog's later columns (M089) do not exist yet at this point of a
    // fresh database's migrations.
    let sql = try database.sql()
    let stored =
      try await sql.raw(
        "SELECT COUNT(*) AS n FROM marketing_catalog WHERE slot = \(bind: "current")"
      ).first()?.decode(column: "n", as: Int.self) ?? 0
    guard stored == 0 else { return }
    try await sql.insert(into: "marketing_catalog")
      .columns("id", "slot", "catalog_json", "source", "fetched_at", "refresh_state")
      .values(
        SQLBind(UUID.random()), SQLBind("current"),
        SQLBind(MarketingJSON.encode(MarketingCatalog.bundledDefault)),
        SQLBind(MarketingCatalogSource.bundled.rawValue), SQLBind(Date()), SQLBind("ok")
      )
      .run()
  }

  func revert(on database: any Database) async throws {
    try await database.sql().raw("DELETE FROM marketing_catalog").run()
  }

}
