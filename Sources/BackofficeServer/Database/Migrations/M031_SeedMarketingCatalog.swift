import BackofficeCore
import Fluent
import Foundation

/// A fresh install starts with the catalog that ships with the project, so the first plan can
/// be made without any network access.
struct M031_SeedMarketingCatalog: AsyncMigration {
  func prepare(on database: any Database) async throws {
    // Field by field rather than through the model, whose later columns (M089) do not exist
    // yet at this point of a fresh database's migrations.
    let stored = try await MarketingCatalogRecord.query(on: database)
      .filter(\.$slot == MarketingCatalogRecord.currentSlot).count()
    guard stored == 0 else { return }
    try await MarketingCatalogRecord.query(on: database)
      .set([
        "id": .bind(UUID.random()),
        "slot": .bind(MarketingCatalogRecord.currentSlot),
        "catalog_json": .bind(MarketingJSON.encode(MarketingCatalog.bundledDefault)),
        "source": .bind(MarketingCatalogSource.bundled.rawValue),
        "fetched_at": .bind(Date()),
        "refresh_state": .bind("ok"),
      ])
      .create()
  }

  func revert(on database: any Database) async throws {
    try await MarketingCatalogRecord.query(on: database).delete()
  }
}
