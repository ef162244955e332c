import BackofficeCore
import Fluent
import Foundation
import Vapor

/// The progress page of a CSV import, the small JSON its script polls, and "Run it again" for
/// an import that stopped. The imports themselves start on each area's import form.
struct ImportsController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.importJob, use: show)
    routes.on(Routes.importJobStatus, use: status)
    routes.on(Routes.importJobRetry, use: retry)
  }

  @Sendable func show(req: Request) async throws -> Response {
    let state = try await owned(req)
    return req.page(ImportJobShow(state: state))
  }

  /// What the page's script shows while the import runs.
  struct Status: Content {
    var status: String
    var total: Int
    var done: Int
    var imported: Int
    var skipped: Int
    var percent: Int
    /// The sentence the page shows for this state.
    var text: String
  }

  @Sendable func status(req: Request) async throws -> Response {
    let state = try await owned(req)
    let report = state.report
    let body = Status(
      status: state.status.rawValue, total: report.total, done: report.done,
      imported: report.imported, skipped: report.present, percent: report.percent,
      text: ImportJobShow.sentence(state))
    let response = try APIResponse.json(body)
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    return response
  }

  @Sendable func retry(req: Request) async throws -> Response {
    let state = try await owned(req)
    let jobs = try req.application.importJobs
    let store = try ImportJobStore(db: req.db, workspaceID: req.workspaceID)
    switch try await store.claim(state.id, now: req.now, staleAfter: jobs.tuning.staleAfter) {
    case .started(let id, let runner):
      jobs.launch(id, runner: runner, app: req.application)
    case .busy(let running):
      req.flash(.error, ImportMessages.alreadyRunning)
      return req.redirect(to: Routes.importJob.href(id: running))
    case nil:
      break
    }
    return req.redirect(to: Routes.importJob.href(id: state.id))
  }

  /// The signed-in account's job named in the path; another account's, an unknown or a
  /// malformed id are all "not found".
  func owned(_ req: Request) async throws -> ImportJobState {
    let staleAfter = try req.application.importJobs.tuning.staleAfter
    guard let id = req.parameters.get("jobID", as: UUID.self),
      let state = try await ImportJobStore(db: req.db, workspaceID: req.workspaceID)
        .state(id, now: req.now, staleAfter: staleAfter)
    else { throw Abort(.notFound) }
    return state
  }

  /// Records an import whose file has been read and checked, starts it in the background and
  /// sends the browser to its progress page. `rows` is the area's JSON of the valid rows
  /// (`ExpenseImportRows.json`, `AdPaymentImportRows.json`).
  static func begin(
    _ req: Request, area: ImportArea, rows: String, total: Int, keepDuplicates: Bool,
    problems: [String]
  ) async throws -> Response {
    let jobs = try req.application.importJobs
    let store = try ImportJobStore(db: req.db, workspaceID: req.workspaceID)
    let start = try await store.start(
      area: area, rows: rows, total: total, keepDuplicates: keepDuplicates, problems: problems,
      invalid: problems.count, now: req.now, staleAfter: jobs.tuning.staleAfter)
    switch start {
    case .started(let id, let runner):
      jobs.launch(id, runner: runner, app: req.application)
      // The file's rows, as they are taken in (rows already present are skipped).
      req.noteActivity(.imported, area.activityArea, id: id, name: area.activityName(total))
      return req.redirect(to: Routes.importJob.href(id: id))
    case .busy(let running):
      req.flash(.error, ImportMessages.alreadyRunning)
      return req.redirect(to: Routes.importJob.href(id: running))
    }
  }
}

extension ImportArea {
  var activityArea: ActivityLog.Area {
    switch self {
    case .expenses: .expense
    case .adPayments: .adPayment
    case .products: .product
    }
  }

  /// "12 rows of a CSV file (products)".
  func activityName(_ rows: Int) -> String {
    switch self {
    case .expenses: L("activity.import.expenses", count: rows)
    case .adPayments: L("activity.import.ad_payments", count: rows)
    case .products: L("activity.import.products", count: rows)
    }
  }
}
