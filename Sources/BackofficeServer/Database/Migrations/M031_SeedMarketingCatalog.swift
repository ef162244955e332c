import Fluent
import Foundation

/// A fresh install starts with the catalog that ships with the project, so the first plan can
/// be made without any network access.
struct M031_SeedMarketingCatalog: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await MarketingCatalogStore.seedIfEmpty(on: database, now: Date())
  }

  func revert(on database: any Database) async throws {
    try await MarketingCatalogRecord.query(on: database).delete()
  }
}
