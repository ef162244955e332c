import BackofficeCore
import Fluent
import Foundation
import Vapor

/// The shared catalog: read by everyone, refreshed or uploaded by an administrator.
extension MarketingPlansController {
  // MARK: catalog

  @Sendable func catalogPage(req: Request) async throws -> Response {
    let stored = try await MarketingPlanQueries.catalog(req)
    return req.page(
      MarketingCatalogPage(stored: stored, baseURL: req.config.catalogBaseURL),
      status: stored == nil ? .serviceUnavailable : .ok)
  }

  @Sendable func refreshCatalog(req: Request) async throws -> Response {
    let update = try await MarketingCatalogRefresh.run(app: req.application)
    let locale = try MarketingPlanQueries.locale(req)
    // A failure is said once, by the catalog page's banner; a flash would repeat it.
    if update.succeeded { req.flash(.success, update.message(locale: locale)) }
    return req.redirect(to: Routes.marketingCatalog.href())
  }

  struct ImportForm: Content {
    var files: [File]?
  }

  @Sendable func importCatalog(req: Request) async throws -> Response {
    let form = try req.content.decode(ImportForm.self)
    let uploads = (form.files ?? []).map {
      MarketingCatalogImport.Upload(filename: $0.filename, data: Data(buffer: $0.data))
    }
    switch MarketingCatalogImport.read(uploads) {
    case .failure(let failure):
      let problems = failure.problems
      let stored = try await MarketingPlanQueries.catalog(req)
      return req.page(
        MarketingCatalogPage(
          stored: stored, baseURL: req.config.catalogBaseURL, importProblems: problems),
        status: .unprocessableEntity)
    case .success(let catalog):
      let names = uploads.map(\.filename).joined(separator: ", ")
      let changed = try await MarketingCatalogStore.replace(
        with: catalog, source: .upload, detail: String(names.prefix(500)), on: req.db,
        now: req.now)
      let stored = try await MarketingCatalogStore.current(on: req.db, now: req.now)
      let update = MarketingCatalogUpdate(outcome: .updated(plansChanged: changed), stored: stored)
      req.flash(
        .success, update.message(locale: try MarketingPlanQueries.locale(req), action: .imported))
      return req.redirect(to: Routes.marketingCatalog.href())
    }
  }

  @Sendable func exportCatalog(req: Request) async throws -> Response {
    guard let stored = try await MarketingPlanQueries.catalog(req) else {
      throw Abort(.serviceUnavailable, reason: L("marketing.catalog_unreadable"))
    }
    let response = Response(
      status: .ok, body: .init(data: MarketingCatalogImport.export(stored.catalog)))
    response.headers.contentType = .json
    response.headers.replaceOrAdd(
      name: .contentDisposition, value: "attachment; filename=\"marketing-catalog.json\"")
    return response
  }
}
