import BackofficeCore
import Fluent
import Vapor

/// The ad payments pages: list with search, add, edit, delete, CSV export and import, and the
/// small JSON check the form's script asks while someone types.
struct AdPaymentsController: RouteCollection {
  static var saveFailed: String { L("ad_payments.save_failed") }
  static var updateFailed: String { L("ad_payments.update_failed") }
  /// Session key of the duplicate warning shown on the page after a save.
  static let noticeKey = "ad_payments.duplicate"

  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.adPayments, use: index)
    routes.on(Routes.adPaymentNew, use: new)
    routes.on(Routes.adPaymentCreate, use: create)
    routes.on(Routes.adPaymentEdit, use: edit)
    routes.on(Routes.adPaymentUpdate, use: update)
    routes.on(Routes.adPaymentDelete, use: delete)
    routes.on(Routes.adPaymentCheck, use: check)
    routes.on(Routes.adPaymentExport, use: export)
    routes.on(Routes.adPaymentImport, use: Self.csvImport.page)
    routes.on(Routes.adPaymentImportSubmit, use: Self.csvImport.receive)
  }

  func store(_ req: Request) throws -> AdPaymentStore {
    AdPaymentStore(db: req.db, workspaceID: try req.workspaceID)
  }

  // MARK: list

  @Sendable func index(req: Request) async throws -> Response {
    let store = try store(req)
    let search = req.queryValue("q") ?? ""
    let requested = Paging.pageNumber(req)
    let per = AdPaymentIndex.perPage
    let accountTotal = try await store.count()
    var slice = try await store.list(search: search, page: requested, per: per)
    let window = PageWindow(requested: requested, perPage: per, total: slice.total)
    if window.page != requested {
      slice = try await store.list(search: search, page: window.page, per: per)
    }
    let view = AdPaymentIndex(
      rows: slice.items.map { entry in
        AdPaymentIndex.Row(id: entry.id, name: entry.name, url: entry.url)
      },
      search: search, page: window.page, pageCount: window.pageCount, matching: slice.total,
      accountTotal: accountTotal, duplicateNotice: takeNotice(req))
    return req.page(view)
  }

  // MARK: add and edit

  struct EntryForm: Content {
    var name: String?
    var url: String?
    /// The version the edit form was opened at.
    var version: String?
  }

  @Sendable func new(req: Request) async throws -> Response {
    req.page(AdPaymentForm(mode: .create))
  }

  @Sendable func create(req: Request) async throws -> Response {
    let store = try store(req)
    let form = try req.content.decode(EntryForm.self)
    let draft = AdPaymentDraft(name: form.name ?? "", url: form.url ?? "")
    var view = AdPaymentForm(mode: .create, name: draft.name, url: draft.url)
    let payment: AdPayment
    switch draft.validate() {
    case .failure:
      view.errors = draft.fieldErrors
      view.sameURL = try await refs(store.sameURL(as: draft.url))
      return req.page(view, status: .unprocessableEntity)
    case .success(let valid):
      payment = valid
    }
    let entry: AdPaymentEntry
    do {
      entry = try await store.create(payment)
    } catch {
      // A row refused because its workspace is gone: answered as such, not as a failure.
      if WorkspaceDeletion.isMissingParent(error) { throw error }
      req.logger.report(error: error)
      view.formError = Self.saveFailed
      return req.page(view, status: .internalServerError)
    }
    await remember(duplicateOf: entry, store: store, req: req)
    req.flash(.success, L("ad_payments.flash.saved", ["name": payment.name]))
    req.noteActivity(.created, .adPayment, id: entry.id, name: payment.name)
    return req.redirect(to: Routes.adPayments.href())
  }

  @Sendable func edit(req: Request) async throws -> Response {
    let store = try store(req)
    guard let entry = try await store.find(req.parameters.get("entryID")) else {
      throw Abort(.notFound)
    }
    let id = entry.id
    let others = try await store.sameURL(as: entry.url, excluding: id)
    return req.page(
      AdPaymentForm(
        mode: .edit(id), name: entry.name, url: entry.url, sameURL: refs(others),
        version: entry.version))
  }

  /// Saves the edit form only onto the version it was opened at: an entry changed meanwhile
  /// gets the form back (409) with what was typed and the saved values next to it.
  @Sendable func update(req: Request) async throws -> Response {
    let store = try store(req)
    let form = try req.content.decode(EntryForm.self)
    guard let entry = try await store.find(req.parameters.get("entryID")) else {
      return Self.gone(req, typed: form)
    }
    let id = entry.id
    let draft = AdPaymentDraft(name: form.name ?? "", url: form.url ?? "")
    let expected = VersionField.parse(form.version)
    var view = AdPaymentForm(
      mode: .edit(id), name: draft.name, url: draft.url, version: expected ?? 0)
    let payment: AdPayment
    switch draft.validate() {
    case .failure:
      view.errors = draft.fieldErrors
      view.sameURL = try await refs(store.sameURL(as: draft.url, excluding: id))
      return req.page(view, status: .unprocessableEntity)
    case .success(let valid):
      payment = valid
    }
    var saved: AdPaymentEntry?
    do {
      if let expected, expected == entry.version {
        saved = try await store.update(entry, to: payment, expected: expected)
      }
    } catch {
      // A row refused because its workspace is gone: answered as such, not as a failure.
      if WorkspaceDeletion.isMissingParent(error) { throw error }
      req.logger.report(error: error)
      view.formError = Self.updateFailed
      return req.page(view, status: .internalServerError)
    }
    guard let saved else {
      // Opened at another version, or another save got in first.
      guard let current = try await store.find(id) else {
        return Self.gone(req, typed: form)
      }
      view.version = current.version
      view.conflict = AdPaymentForm.changedMessage
      view.saved = SavedValue.differing(
        typed: ["name": draft.name, "url": draft.url],
        saved: ["name": current.name, "url": current.url])
      view.sameURL = try await refs(store.sameURL(as: draft.url, excluding: id))
      return req.page(view, status: .conflict)
    }
    await remember(duplicateOf: saved, store: store, req: req)
    req.flash(.success, L("ad_payments.flash.updated", ["name": payment.name]))
    req.noteActivity(.changed, .adPayment, id: entry.id, name: payment.name)
    return req.redirect(to: Routes.adPayments.href())
  }

  /// An entry deleted since its form was opened (or never this account's): 404, saying so,
  /// with what was typed.
  static func gone(_ req: Request, typed: EntryForm? = nil) -> Response {
    req.page(
      RecordGonePage(
        heading: L("ad_payments.gone.heading"),
        message: typed == nil
          ? L("ad_payments.gone.deleted") : L("ad_payments.gone.deleted_while_editing"),
        typed: typed.map {
          [
            (L("ad_payments.field.name"), $0.name ?? ""),
            (L("ad_payments.field.url"), $0.url ?? ""),
          ]
        } ?? [],
        back: (Routes.adPayments.href(), "\u{2190} " + L("nav.ad_payments")),
        section: .adPayments),
      status: .notFound)
  }

  /// Deletes from the page without a version check: the question names the entry and is
  /// confirmed. An entry already gone is a clear 404, not an error.
  @Sendable func delete(req: Request) async throws -> Response {
    let store = try store(req)
    guard let entry = try await store.find(req.parameters.get("entryID")),
      try await store.delete(entry, expected: nil)
    else { return Self.gone(req) }
    req.flash(.success, L("ad_payments.flash.deleted", ["name": entry.name]))
    req.noteActivity(.deleted, .adPayment, id: entry.id, name: entry.name)
    // Back to the list the delete was made from (its search and page), when there was one.
    let search = req.queryValue("q")
    let number = Paging.pageNumber(req)
    let page = number > 1 ? String(number) : nil
    return req.redirect(to: Routes.adPayments.href(query: ["q": search, "page": page]))
  }

  // MARK: live check

  struct CheckResult: Content {
    struct Other: Codable {
      @LowercasedID var id: UUID
      var name: String
      var href: String
    }
    /// Every failing field with Core's message (empty when the draft is valid).
    var fields: [String: String]
    var sameUrl: [Other]
  }

  /// What saving `name` and `url` would say, without saving: the form's script shows the
  /// messages as fields are left, so the browser never needs its own copy of the rules.
  @Sendable func check(req: Request) async throws -> Response {
    let store = try store(req)
    let draft = AdPaymentDraft(
      name: req.queryValue("name") ?? "", url: req.queryValue("url") ?? "")
    let excluding = req.queryValue("id").flatMap(UUID.init(uuidString:))
    let others = try await store.sameURL(as: draft.url, excluding: excluding)
    let result = CheckResult(
      fields: Dictionary(
        uniqueKeysWithValues: draft.fieldErrors.map { ($0.key.rawValue, $0.value) }),
      sameUrl: refs(others).map { CheckResult.Other(id: $0.id, name: $0.name, href: $0.href) })
    let response = try APIResponse.json(result)
    response.headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    return response
  }

  // MARK: CSV

  @Sendable func export(req: Request) async throws -> Response {
    let store = try store(req)
    // Every payment is read and written away from the event loops (`BackgroundWork`).
    let file = try await BackgroundWork.shared.run {
      AdPaymentCSVFile.export(try await store.all().map(\.payment))
    }
    return CSVResponse.attachment(file, filename: AdPaymentCSVFile.filename(on: req.now))
  }

  /// The import page and its upload: the shared handler with this area's file and form.
  static let csvImport = CSVImportUpload(
    area: .adPayments, read: AdPaymentCSVFile.checked, json: AdPaymentImportRows.json,
    form: AdPaymentImportForm.init(refusal:choices:))

  // MARK: helpers

  func refs(_ entries: [AdPaymentEntry]) -> [AdPaymentRef] {
    entries.map { entry in AdPaymentRef(id: entry.id, name: entry.name) }
  }

  /// Keeps the duplicate warning for the next page. A failed lookup only loses the warning:
  /// the entry is saved either way.
  func remember(duplicateOf entry: AdPaymentEntry, store: AdPaymentStore, req: Request) async {
    guard let other = try? await store.sameURL(as: entry.url, excluding: entry.id, limit: 1).first
    else { return }
    let notice = AdPaymentDuplicateNotice(
      savedName: entry.name, existingID: other.id, existingName: other.name)
    if let data = try? JSONEncoder().encode(notice) {
      req.setSessionValue(Self.noticeKey, String(decoding: data, as: UTF8.self))
    }
  }

  func takeNotice(_ req: Request) -> AdPaymentDuplicateNotice? {
    guard let raw = req.sessionValue(Self.noticeKey) else { return nil }
    req.setSessionValue(Self.noticeKey, nil)
    return try? JSONDecoder().decode(AdPaymentDuplicateNotice.self, from: Data(raw.utf8))
  }
}
