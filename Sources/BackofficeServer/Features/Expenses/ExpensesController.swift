import BackofficeCore
import Fluent
import Foundation
import Vapor

/// The expenses pages: list, add, edit, delete with undo, CSV export and import.
struct ExpensesController: RouteCollection {
  static let pageSize = 50
  /// The session key of the expense the next list page offers to restore.
  static let undoKey = "expenses_undo"

  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.expenses, use: index)
    routes.on(Routes.expenseNew, use: new)
    routes.on(Routes.expenseCreate, use: create)
    routes.on(Routes.expenseEdit, use: edit)
    routes.on(Routes.expenseUpdate, use: update)
    routes.on(Routes.expenseDelete, use: delete)
    routes.on(Routes.expenseRestore, use: restore)
    routes.on(Routes.expenseReceipt, use: receipt)
    routes.on(Routes.expensesExport, use: export)
    routes.on(Routes.expensesImport, use: Self.csvImport.page)
    routes.on(Routes.expensesImportSubmit, use: Self.csvImport.receive)
  }

  // MARK: list

  /// `filter`'s totals, from the read cache when the account's expenses have not changed.
  static func totals(_ req: Request, _ store: ExpenseStore, _ filter: ExpenseFilter)
    async throws -> ExpenseTotals
  {
    try await req.cached(.expenses, key: filter) {
      try await store.totals(filter)
    }
  }

  @Sendable func index(req: Request) async throws -> Response {
    let user = try req.user
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    let query = FilterQuery(req)
    let (filter, errors) = query.parse()
    let totals = try await Self.totals(req, store, filter)
    let window = PageWindow(
      requested: Paging.pageNumber(req), perPage: Self.pageSize, total: totals.count)
    let rows = try await store.rows(
      filter, limit: Self.pageSize, offset: (window.page - 1) * Self.pageSize)
    let chartMonth =
      filter.month ?? ExpenseMonth(containing: req.now, timeZone: ExpenseStore.timeZone)
    let monthOnly = ExpenseFilter(month: chartMonth)
    let chartTotals =
      filter == monthOnly ? totals : try await Self.totals(req, store, monthOnly)

    var undo: ExpenseIndex.Undo?
    if let raw = req.sessionValue(Self.undoKey) {
      req.setSessionValue(Self.undoKey, nil)
      if let id = UUID(uuidString: raw), let record = try await store.deletedRecord(id),
        ExpenseStore.canRestore(record, now: req.now)
      {
        undo = ExpenseIndex.Undo(id: id, title: record.title)
      }
    }

    let model = ExpenseIndex.Model(
      currency: user.currency, rows: rows, filter: filter,
      typed: errors.isEmpty ? [:] : query.values,
      filterErrors: errors, totals: totals,
      chart: ExpenseChart(month: chartMonth, totals: chartTotals, currency: user.currency),
      page: window.page, pageCount: window.pageCount, back: req.url.string, undo: undo,
      fundraisers: try await Self.choices(store),
      receipts: try await ExpenseReceipts(db: req.db, workspaceID: req.workspaceID)
        .refs(for: rows.map(\.id)))
    return req.page(ExpenseIndex(model: model), status: errors.isEmpty ? .ok : .unprocessableEntity)
  }

  // MARK: add and edit

  struct FormInput: Content {
    var title: String?
    var amount: String?
    var category: String?
    var hasDate: String?
    var date: String?
    var back: String?
    /// The version the edit form was opened at.
    var version: String?
    /// The fundraiser's id; empty for none. Absent (an older client): the link is kept.
    var fundraiser: String?
    /// New receipt photos (`receipts[]`); an empty part is a file field left blank.
    var receipts: [File]?
    /// "Show new receipts on the public report".
    var receiptsPublic: String?
    /// Present when the form listed the stored receipts, so their unticked boxes mean "hidden".
    var receiptsListed: String?
    /// Stored receipts ticked public (`public_receipts[]`), and ticked for removal.
    var publicReceipts: [String]?
    var removeReceipts: [String]?

    enum CodingKeys: String, CodingKey {
      case title, amount, category, date, back, version, fundraiser, receipts
      case hasDate = "has_date"
      case receiptsPublic = "receipts_public"
      case receiptsListed = "receipts_listed"
      case publicReceipts = "public_receipts"
      case removeReceipts = "remove_receipts"
    }

    var dateSwitchedOn: Bool { !(hasDate ?? "").isEmpty }
    var newReceiptsPublic: Bool { !(receiptsPublic ?? "").isEmpty }
    var publicIDs: Set<UUID> { Set((publicReceipts ?? []).compactMap(UUID.init(uuidString:))) }
    var removeIDs: Set<UUID> { Set((removeReceipts ?? []).compactMap(UUID.init(uuidString:))) }
    /// The files actually chosen.
    var uploads: [File] { (receipts ?? []).filter { $0.data.readableBytes > 0 } }

    var draft: ExpenseDraft {
      var draft = ExpenseDraft(
        title: title ?? "", amount: amount ?? "", category: category ?? "",
        date: dateSwitchedOn ? (date ?? "") : "")
      draft.dateRequired = dateSwitchedOn
      return draft
    }
  }

  @Sendable func new(req: Request) async throws -> Response {
    let user = try req.user
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    var model = formModel(
      req, user: user, mode: .new, draft: ExpenseDraft(), hasDate: false,
      back: safeBack(req.query["back"]))
    model.fundraisers = try await Self.choices(store)
    // "Add an expense" from a fundraiser's page comes with it picked.
    if let picked = req.queryValue("fundraiser").flatMap(UUID.init(uuidString:)),
      model.fundraisers.contains(where: { $0.id == picked.uuidString.lowercased() })
    {
      model.fundraiser = picked.uuidString.lowercased()
    }
    return req.page(ExpenseForm(model: model))
  }

  @Sendable func create(req: Request) async throws -> Response {
    let user = try req.user
    let input = try req.content.decode(FormInput.self)
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    let extras = try await Self.extras(req, input: input, store: store, stored: [])
    switch validate(input, user: user) {
    case .failure(let errors):
      return try await invalid(
        req, user: user, mode: .new, input: input, errors: errors, extras: extras)
    case .success(let expense):
      guard extras.errors.isEmpty else {
        return try await invalid(
          req, user: user, mode: .new, input: input, errors: ExpenseValidationErrors(),
          extras: extras)
      }
      let photos = extras.photos
      let isPublic = input.newReceiptsPublic
      let workspaceID = try req.workspaceID
      let now = req.now
      let fundraiserID: UUID? = extras.fundraiser.flatMap { $0 }
      let record: ExpenseRecord
      do {
        record = try await store.create(
          expense, fundraiserID: fundraiserID, now: now,
          also: { db, id in
            _ = try await ExpenseReceipts(db: db, workspaceID: workspaceID).add(
              photos, isPublic: isPublic, to: id, now: now)
          })
      } catch is ExpenseReceipts.LimitReached {
        var extras = extras
        extras.errors["receipts"] = ExpenseReceipts.LimitReached.message
        return try await invalid(
          req, user: user, mode: .new, input: input, errors: ExpenseValidationErrors(),
          extras: extras)
      }
      req.flash(.success, L("expenses.flash.added", ["title": expense.title]))
      req.noteActivity(.created, .expense, id: record.id, name: expense.title)
      return req.redirect(to: safeBack(input.back) ?? Routes.expenses.href())
    }
  }

  /// What the form says besides Core's four fields: the fundraiser (`.some(nil)`: none, nil:
  /// not sent), the new receipt photos that passed, and a message per field that did not.
  struct Extras: Sendable {
    var fundraiser: UUID??
    var photos: [CheckedPhoto] = []
    var errors: [String: String] = [:]
    var tooLarge = false
  }

  /// Reads and checks the fundraiser and the receipts of a submitted form; `stored` are the
  /// expense's receipts (edit), so the count after the save stays within the limit.
  static func extras(
    _ req: Request, input: FormInput, store: ExpenseStore, stored: [ExpenseReceipts.Ref]
  ) async throws -> Extras {
    var extras = Extras()
    if let raw = input.fundraiser?.trimmingCharacters(in: .whitespaces) {
      if raw.isEmpty {
        extras.fundraiser = .some(nil)
      } else if let id = UUID(uuidString: raw), try await store.fundraiserExists(id) {
        extras.fundraiser = .some(id)
      } else {
        extras.errors["fundraiser"] = L("expenses.form.fundraiser_unknown")
      }
    }
    let uploads = input.uploads
    // Removals count only when the form listed the stored receipts, as the save applies them.
    let removing = input.receiptsListed != nil ? input.removeIDs : []
    let kept = stored.filter { !removing.contains($0.id) }.count
    if kept + uploads.count > ExpenseReceipts.maxPerExpense {
      extras.errors["receipts"] = L(
        "expenses.form.receipts_too_many", ["count": String(ExpenseReceipts.maxPerExpense)])
      return extras
    }
    for upload in uploads {
      switch PhotoInput.file(upload, maxBytes: req.config.maxUploadBytes) {
      case .success(let photo?): extras.photos.append(photo)
      case .success(nil): break
      case .failure(let error):
        let name = upload.filename.isEmpty ? "" : upload.filename + ": "
        extras.errors["receipts"] = String((name + error.message).prefix(300))
        if case .tooLarge = error { extras.tooLarge = true }
      }
    }
    return extras
  }

  /// The fundraisers an expense can be linked to, as the form lists them.
  static func choices(_ store: ExpenseStore) async throws -> [(id: String, purpose: String)] {
    try await store.fundraiserChoices().map { ($0.id.uuidString.lowercased(), $0.purpose) }
  }

  /// The edit form's draft for a stored expense, as the form first shows it.
  static func draft(of record: ExpenseRecord, user: User) -> ExpenseDraft {
    ExpenseDraft(
      editing: record.expense, locale: BackofficeLocale.resolve(user.locale),
      timeZone: ExpenseStore.timeZone, maxFractionDigits: places(user))
  }

  @Sendable func edit(req: Request) async throws -> Response {
    let user = try req.user
    let record = try await owned(req, user: user)
    let id = record.id
    var model = formModel(
      req, user: user, mode: .edit(id),
      draft: Self.draft(of: record, user: user),
      hasDate: record.spentAt != nil, back: safeBack(req.query["back"]))
    model.version = record.version
    try await Self.fill(&model, req: req, record: record, input: nil)
    return req.page(ExpenseForm(model: model))
  }

  /// The fundraiser choices and the stored receipts, ticked as stored or as `input` had them.
  static func fill(
    _ model: inout ExpenseForm.Model, req: Request, record: ExpenseRecord?, input: FormInput?
  ) async throws {
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    model.fundraisers = try await choices(store)
    model.fundraiser =
      input?.fundraiser ?? record?.fundraiserID.map { $0.uuidString.lowercased() } ?? ""
    guard let id = record?.id else { return }
    model.receipts = try await ExpenseReceipts(db: req.db, workspaceID: req.workspaceID)
      .refs(of: id)
    if let input, input.receiptsListed != nil {
      model.publicReceipts = input.publicIDs
      model.removeReceipts = input.removeIDs
    } else {
      model.publicReceipts = Set(model.receipts.filter(\.isPublic).map(\.id))
    }
  }

  /// Saves the edit form only onto the version it was opened at: an expense changed meanwhile
  /// gets the form back (409) with what was typed and the saved values next to it.
  @Sendable func update(req: Request) async throws -> Response {
    let user = try req.user
    let input = try req.content.decode(FormInput.self)
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    guard let id = req.parameters.get("expenseID", as: UUID.self),
      let record = try await store.record(id)
    else { return Self.gone(req, typed: input) }
    let expected = VersionField.parse(input.version)
    let stored = try await ExpenseReceipts(db: req.db, workspaceID: try req.workspaceID)
      .refs(of: id)
    let extras = try await Self.extras(req, input: input, store: store, stored: stored)
    switch validate(input, user: user) {
    case .failure(let errors):
      return try await invalid(
        req, user: user, mode: .edit(id), input: input, errors: errors, version: expected ?? 0,
        record: record, extras: extras)
    case .success(let expense):
      guard extras.errors.isEmpty else {
        return try await invalid(
          req, user: user, mode: .edit(id), input: input, errors: ExpenseValidationErrors(),
          version: expected ?? 0, record: record, extras: extras)
      }
      let link: ExpenseStore.FundraiserLink = extras.fundraiser.map { .set($0) } ?? .keep
      let photos = extras.photos
      let listed = input.receiptsListed != nil
      let (publicIDs, removeIDs) = (input.publicIDs, input.removeIDs)
      let (isPublic, workspaceID, now) = (input.newReceiptsPublic, try req.workspaceID, req.now)
      let saved: ExpenseRecord?
      do {
        saved = try await store.update(
          record, expected: expected ?? -1, with: expense, fundraiserID: link, now: req.now,
          also: { db, id in
            let receipts = ExpenseReceipts(db: db, workspaceID: workspaceID)
            if listed {
              // Only this expense's own receipts: other ids in the form are ignored.
              let own = Set(stored.map(\.id))
              try await receipts.remove(removeIDs.intersection(own), of: id)
              try await receipts.setPublic(
                publicIDs.intersection(own).subtracting(removeIDs), of: id)
            }
            _ = try await receipts.add(photos, isPublic: isPublic, to: id, now: now)
          })
      } catch is ExpenseReceipts.LimitReached {
        var extras = extras
        extras.errors["receipts"] = ExpenseReceipts.LimitReached.message
        return try await invalid(
          req, user: user, mode: .edit(id), input: input, errors: ExpenseValidationErrors(),
          version: expected ?? 0, record: record, extras: extras)
      }
      if saved != nil {
        req.flash(.success, L("expenses.flash.updated", ["title": expense.title]))
        req.noteActivity(.changed, .expense, id: id, name: expense.title)
        return req.redirect(to: safeBack(input.back) ?? Routes.expenses.href())
      }
      // Opened at another version, or another save got in first.
      guard let current = try await store.record(id) else { return Self.gone(req, typed: input) }
      return try await conflict(req, user: user, current: current, input: input, extras: extras)
    }
  }

  /// The edit form again, as typed, with the expense's saved values where they differ and its
  /// current version, so a second submit saves on purpose.
  func conflict(
    _ req: Request, user: User, current: ExpenseRecord, input: FormInput, extras: Extras
  ) async throws -> Response {
    var draft = input.draft
    draft.date = input.date ?? ""
    var model = formModel(
      req, user: user, mode: .edit(current.id), draft: draft,
      hasDate: input.dateSwitchedOn, back: safeBack(input.back))
    model.version = current.version
    model.conflict = ExpenseForm.changedMessage
    try await Self.fill(&model, req: req, record: current, input: input)
    Self.askAgainForFiles(&model, input: input, extras: extras)
    let saved = Self.draft(of: current, user: user)
    let locale = BackofficeLocale.resolve(user.locale)
    let category = { (text: String) in ExpenseCategory(label: text)?.rawValue ?? text }
    var differing = SavedValue.differing(
      typed: [
        "title": input.title ?? "", "amount": input.amount ?? "",
        "category": category(input.category ?? ""),
        "date": input.dateSwitchedOn ? input.date ?? "" : "",
      ],
      saved: [
        "title": saved.title, "amount": saved.amount, "category": category(saved.category),
        "date": current.spentAt == nil ? "" : saved.date,
      ]
    ) { name, typed, saved in
      guard name == "amount" else { return false }
      let read = { (text: String) in
        try? AmountParser.parse(text, locale: locale, maxFractionDigits: Self.places(user))
      }
      return read(typed) != nil && read(typed) == read(saved)
    }
    if let date = differing["date"], !date.isEmpty {
      differing["date"] = date.replacingOccurrences(of: "T", with: " ") + " UTC"
    }
    // Compared by label; shown by its name in the interface language.
    if let text = differing["category"], let saved = ExpenseCategory(label: text) {
      differing["category"] = saved.displayName
    }
    model.saved = differing
    return req.page(ExpenseForm(model: model), status: .conflict)
  }

  /// An expense deleted since its form was opened (or never this account's): 404, saying so,
  /// with what was typed.
  static func gone(_ req: Request, typed: FormInput? = nil) -> Response {
    let values: [(label: String, value: String)] =
      typed.map {
        [
          (L("expenses.field.title"), $0.title ?? ""),
          (L("expenses.field.amount"), $0.amount ?? ""),
          (L("expenses.field.category"), $0.category ?? ""),
          (L("expenses.field.date_utc"), $0.dateSwitchedOn ? $0.date ?? "" : ""),
        ]
      } ?? []
    return req.page(
      RecordGonePage(
        heading: L("expenses.gone.heading"),
        message: typed == nil
          ? L("expenses.gone.deleted")
          : L("expenses.gone.deleted_while_editing", ["undo": L("expenses.undo")]),
        typed: values, back: (Routes.expenses.href(), "\u{2190} " + L("nav.expenses")),
        section: .expenses),
      status: .notFound)
  }

  // MARK: delete and undo

  struct BackInput: Content {
    var back: String?
  }

  /// Deletes from the page without a version check (it can be undone); an expense already
  /// deleted is a clear 404, not an error.
  @Sendable func delete(req: Request) async throws -> Response {
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    guard let id = req.parameters.get("expenseID", as: UUID.self),
      let record = try await store.record(id),
      try await store.softDelete(record, now: req.now)
    else { return Self.gone(req) }
    // The next list page offers "Undo" instead of a plain flash message.
    req.setSessionValue(Self.undoKey, record.id.uuidString)
    req.noteActivity(.deleted, .expense, id: record.id, name: record.title)
    let back = try? req.content.decode(BackInput.self).back
    return req.redirect(to: safeBack(back) ?? Routes.expenses.href())
  }

  @Sendable func restore(req: Request) async throws -> Response {
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    guard let id = req.parameters.get("expenseID", as: UUID.self),
      let record = try await store.deletedRecord(id)
    else { throw Abort(.notFound) }
    let back = safeBack(try? req.content.decode(BackInput.self).back) ?? Routes.expenses.href()
    guard ExpenseStore.canRestore(record, now: req.now) else {
      try await store.purge(now: req.now)
      req.flash(.error, L("expenses.flash.too_late", count: Int(ExpenseStore.undoWindow / 60)))
      return req.redirect(to: back)
    }
    if try await store.restore(record) {
      req.flash(.success, L("expenses.flash.restored", ["title": record.title]))
      req.noteActivity(.restored, .expense, id: record.id, name: record.title)
    } else {
      req.flash(.info, L("expenses.flash.already_restored", ["title": record.title]))
    }
    return req.redirect(to: back)
  }

  // MARK: receipts

  /// A receipt of one of the workspace's expenses (a deleted one's too, while it can be
  /// restored); 404 for anything else.
  @Sendable func receipt(req: Request) async throws -> Response {
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    guard let expenseID = req.parameters.get("expenseID", as: UUID.self),
      let receiptID = req.parameters.get("receiptID", as: UUID.self)
    else { throw Abort(.notFound) }
    if try await store.record(expenseID) == nil {
      guard let deleted = try await store.deletedRecord(expenseID),
        ExpenseStore.canRestore(deleted, now: req.now)
      else { throw Abort(.notFound) }
    }
    guard
      let receipt = try await ExpenseReceipts(db: req.db, workspaceID: req.workspaceID)
        .receipt(receiptID, of: expenseID)
    else { throw Abort(.notFound) }
    return receipt.response(req)
  }

  // MARK: CSV

  @Sendable func export(req: Request) async throws -> Response {
    let (filter, errors) = FilterQuery(req).parse()
    if let message = errors.sorted(by: { $0.key < $1.key }).first?.value {
      throw Abort(.unprocessableEntity, reason: message)
    }
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    // Every matching expense is read and written away from the event loops (`BackgroundWork`).
    let file = try await BackgroundWork.shared.run {
      let rows = try await store.rows(filter)
      var purposes: [UUID: String] = [:]
      for choice in try await store.fundraiserChoices() { purposes[choice.id] = choice.purpose }
      return ExpenseCSVFile.export(
        rows.map(\.expense),
        fundraisers: rows.map { row in row.fundraiserID.flatMap { purposes[$0] } ?? "" })
    }
    return CSVResponse.attachment(file, filename: ExpenseCSVFile.filename(on: req.now))
  }

  /// The import page and its upload: the shared handler with this area's file and form.
  static let csvImport = CSVImportUpload(
    area: .expenses, read: ExpenseCSVFile.checked, json: ExpenseImportRows.json,
    form: ExpenseImportForm.init(refusal:choices:))

  // MARK: helpers

  /// Decimals the account's currency allows in an amount, at most 2 (JPY: 0).
  static func places(_ user: User) -> Int {
    min(Currency.minorUnits(for: user.currency), Expense.maxFractionDigits)
  }

  func validate(_ input: FormInput, user: User) -> Result<Expense, ExpenseValidationErrors> {
    input.draft.validate(
      locale: BackofficeLocale.resolve(user.locale), timeZone: ExpenseStore.timeZone,
      maxFractionDigits: Self.places(user))
  }

  func formModel(
    _ req: Request, user: User, mode: ExpenseForm.Mode, draft: ExpenseDraft, hasDate: Bool,
    back: String?
  ) -> ExpenseForm.Model {
    var model = ExpenseForm.Model(
      mode: mode, draft: draft, hasDate: hasDate, currency: user.currency,
      places: Self.places(user),
      defaultDate: ExpenseDate.inputValue(req.now, timeZone: ExpenseStore.timeZone), back: back)
    model.maxUploadBytes = req.config.maxUploadBytes
    return model
  }

  func invalid(
    _ req: Request, user: User, mode: ExpenseForm.Mode, input: FormInput,
    errors: ExpenseValidationErrors, version: Int = 0, record: ExpenseRecord? = nil,
    extras: Extras
  ) async throws -> Response {
    var draft = input.draft
    draft.date = input.date ?? ""
    var model = formModel(
      req, user: user, mode: mode, draft: draft, hasDate: input.dateSwitchedOn,
      back: safeBack(input.back))
    model.errors = errors
    // A form sent back for its errors keeps the version it was opened at.
    model.version = version
    try await Self.fill(&model, req: req, record: record, input: input)
    model.fieldErrors = extras.errors
    model.newReceiptsPublic = input.newReceiptsPublic
    Self.askAgainForFiles(&model, input: input, extras: extras)
    return req.page(
      ExpenseForm(model: model), status: extras.tooLarge ? .payloadTooLarge : .unprocessableEntity)
  }

  /// A browser never sends a chosen file twice: when the form comes back with photos that were
  /// fine, it says to choose them again rather than losing them without a word.
  static func askAgainForFiles(_ model: inout ExpenseForm.Model, input: FormInput, extras: Extras) {
    if model.fieldErrors["receipts"] == nil, !input.uploads.isEmpty {
      model.fieldErrors["receipts"] = L(
        "expenses.form.receipts_choose_again", count: input.uploads.count)
    }
  }

  /// The account's expense named in the path; another account's, a deleted one, an unknown
  /// or a malformed id are all "not found".
  func owned(_ req: Request, user: User) async throws -> ExpenseRecord {
    guard let id = req.parameters.get("expenseID", as: UUID.self),
      let record = try await ExpenseStore(db: req.db, workspaceID: req.workspaceID).record(id)
    else { throw Abort(.notFound) }
    return record
  }

  /// Only the expenses list itself is a place to return to, never another page or host.
  func safeBack(_ raw: String?) -> String? {
    LocalPath.validated(raw, within: Routes.expenses.href())
  }
}

/// The filter's query values: `category`, `month`, `from`, `to`, `q`, `fundraiser`.
struct FilterQuery {
  static let names = ["category", "month", "from", "to", "q", "fundraiser"]
  var values: [String: String]

  init(_ req: Request) {
    var values: [String: String] = [:]
    for name in Self.names {
      if let value = req.queryValue(name) { values[name] = value }
    }
    self.values = values
  }

  func parse() -> (filter: ExpenseFilter, errors: [String: String]) {
    ExpenseFilter.parse(
      category: values["category"], month: values["month"], from: values["from"],
      to: values["to"], text: values["q"], fundraiser: values["fundraiser"])
  }
}

extension ExpenseFilter {
  /// `queryItems` in the shape `AppRoute.href(query:)` takes.
  var query: [String: String?] { queryItems.mapValues { Optional($0) } }
}
