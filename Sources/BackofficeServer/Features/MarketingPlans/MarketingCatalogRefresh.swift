import BackofficeCore
import Fluent
import Foundation
import Vapor

/// What a refresh or an import did, in words for the page, the API and the command line.
struct MarketingCatalogUpdate: Sendable {
  enum Outcome: Hashable, Sendable {
    case updated(plansChanged: Int)
    case failed(MarketingFetchFailure)
  }

  var outcome: Outcome
  /// The catalog stored after the attempt (the new one, or the one kept).
  var stored: StoredMarketingCatalog

  var succeeded: Bool {
    if case .updated = outcome { return true }
    return false
  }

  /// How the new catalog arrived, for the first words of the message.
  enum Action: Sendable {
    case refreshed, imported
  }

  /// "Catalog refreshed: 15 targets, 6 channels, 18 packages." and what it did to plans; or
  /// what went wrong and which catalog is kept.
  func message(locale: BackofficeLocale, action: Action = .refreshed) -> String {
    let catalog = stored.catalog
    switch outcome {
    case .updated(let plansChanged):
      let counts: [String: String] = [
        "targets": String(catalog.targets.count), "channels": String(catalog.channels.count),
        "packages": String(stored.packageCount),
      ]
      var text =
        switch action {
        case .refreshed: L("marketing.catalog_update.refreshed", counts)
        case .imported: L("marketing.catalog_update.imported", counts)
        }
      if plansChanged > 0 {
        text += " " + L("marketing.catalog_update.plans_changed", count: plansChanged)
      }
      return text
    case .failed(let failure):
      let since = MarketingFormat.dateTime(stored.fetchedAt, locale: locale)
      switch failure {
      case .offline(let reason):
        return L("marketing.catalog_update.offline", ["reason": reason, "date": since])
      case .error(let message):
        return L("marketing.catalog_update.failed", ["message": message, "date": since])
      }
    }
  }
}

enum MarketingCatalogRefresh {
  /// Fetches the documents from `baseURL` (the configured one by default), stores the catalog
  /// they make, and reconciles plans. On any failure the stored catalog stays and the failure
  /// is recorded for the banner.
  static func run(app: Application, baseURL: String? = nil) async throws
    -> MarketingCatalogUpdate
  {
    let base = normalizedBase(baseURL ?? app.config.catalogBaseURL)
    let now = app.clients.now()
    let fetched = await app.marketingCatalogClient.fetchDocuments(base)
    let result: Result<MarketingCatalog, MarketingFetchFailure>
    switch fetched {
    case .success(let documents):
      do throws(MarketingCatalogError) {
        result = .success(try MarketingCatalog.decode(documents: documents))
      } catch {
        result = .failure(.error(message: error.message))
      }
    case .failure(let failure):
      result = .failure(failure)
    }
    switch result {
    case .success(let catalog):
      let changed = try await MarketingCatalogStore.replace(
        with: catalog, source: .refresh, detail: base, on: app.db, now: now)
      let stored = try await MarketingCatalogStore.current(on: app.db, now: now)
      app.logger.info("marketing catalog refreshed from \(base)")
      return MarketingCatalogUpdate(outcome: .updated(plansChanged: changed), stored: stored)
    case .failure(let failure):
      try await MarketingCatalogStore.recordFailure(failure.status, on: app.db, now: now)
      let stored = try await MarketingCatalogStore.current(on: app.db, now: now)
      app.logger.warning("marketing catalog refresh from \(base) failed: \(failure.status)")
      return MarketingCatalogUpdate(outcome: .failed(failure), stored: stored)
    }
  }

  static func normalizedBase(_ url: String) -> String {
    let trimmed = url.trimmingCharacters(in: .whitespaces)
    return trimmed.hasSuffix("/") ? trimmed : trimmed + "/"
  }
}

/// Dates and money as this area shows them. There is no per-account time zone yet, so times
/// are UTC and say so.
enum MarketingFormat {
  static let utc = TimeZone(identifier: "UTC") ?? .current

  static func dateTime(_ date: Date, locale: BackofficeLocale) -> String {
    locale.formatDateTime(date, timeZone: utc) + " UTC"
  }

  static func price(_ package: MarketingPackage, locale: BackofficeLocale) -> String {
    MoneyFormat.currency(package.price, currency: package.currency, locale: locale)
  }
}
