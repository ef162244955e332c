import BackofficeCore
import Fluent
import Foundation
import Vapor

/// `/api/v1/expenses`: list with filters and pages, create, read, replace, delete, and a
/// summary of totals per category. Amounts are decimal strings ("12.50") in the account's
/// currency, both ways.
struct ExpensesAPIController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.apiExpenses, use: list)
    routes.on(Routes.apiExpenseCreate, use: create)
    routes.on(Routes.apiExpensesSummary, use: summary)
    routes.on(Routes.apiExpense, use: show)
    routes.on(Routes.apiExpenseUpdate, use: replace)
    routes.on(Routes.apiExpenseDelete, use: delete)
    routes.on(Routes.apiExpenseReceiptAdd, use: addReceipt)
    routes.on(Routes.apiExpenseReceipt, use: receipt)
    routes.on(Routes.apiExpenseReceiptUpdate, use: updateReceipt)
    routes.on(Routes.apiExpenseReceiptDelete, use: deleteReceipt)
  }

  // MARK: bodies

  struct Item: Encodable {
    @LowercasedID var id: UUID
    var title: String
    var amount: String
    var currency: String
    var category: String
    var date: Date?
    var createdAt: Date
    var updatedAt: Date
    var version: Int
    var fundraiserId: UUID?
    var receipts: [ReceiptItem]

    init(
      id: UUID, expense: Expense, currency: String, createdAt: Date, updatedAt: Date,
      version: Int, fundraiserID: UUID?, receipts: [ExpenseReceipts.Ref]
    ) {
      self.id = id
      title = expense.title
      amount = Money(amount: expense.amount, currency: currency).decimalString
      self.currency = currency
      category = expense.category.rawValue
      date = expense.date
      self.createdAt = createdAt
      self.updatedAt = updatedAt
      self.version = version
      fundraiserId = fundraiserID
      self.receipts = receipts.map(ReceiptItem.init)
    }

    enum CodingKeys: String, CodingKey {
      case id, title, amount, currency, category, date, createdAt, updatedAt, version
      case fundraiserId, receipts
    }

    // `date` is written as null rather than left out, so every item has the same keys.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id.uuidString.lowercased(), forKey: .id)
      try container.encode(title, forKey: .title)
      try container.encode(amount, forKey: .amount)
      try container.encode(currency, forKey: .currency)
      try container.encode(category, forKey: .category)
      try container.encode(date, forKey: .date)
      try container.encode(createdAt, forKey: .createdAt)
      try container.encode(updatedAt, forKey: .updatedAt)
      try container.encode(version, forKey: .version)
      try container.encode(fundraiserId?.uuidString.lowercased(), forKey: .fundraiserId)
      try container.encode(receipts, forKey: .receipts)
    }
  }

  /// A receipt as the API lists it; `url` answers with the picture's bytes.
  struct ReceiptItem: Encodable {
    var id: String
    var `public`: Bool
    var type: String
    var width: Int
    var height: Int
    var url: String

    init(_ ref: ExpenseReceipts.Ref) {
      id = ref.id.uuidString.lowercased()
      `public` = ref.isPublic
      type = ref.mime
      width = ref.width
      height = ref.height
      url = Routes.apiExpenseReceipt.href([
        "expenseID": ref.expenseID.uuidString.lowercased(),
        "receiptID": ref.id.uuidString.lowercased(),
      ])
    }
  }

  /// A request body. The amount must be a JSON string: a number would already have passed
  /// through binary floating point in many clients.
  struct Input: Decodable {
    var title: String?
    var amount: String?
    var amountIsNotString = false
    var category: String?
    var date: String?
    /// Absent: the link stays as it is; null: no fundraiser; an id: that fundraiser.
    var fundraiser: FundraiserField = .absent

    enum FundraiserField: Equatable {
      case absent
      case value(UUID?)
      case invalid
    }

    enum CodingKeys: String, CodingKey {
      case title, amount, category, date, fundraiserId
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      title = try container.decodeIfPresent(String.self, forKey: .title)
      category = try container.decodeIfPresent(String.self, forKey: .category)
      date = try container.decodeIfPresent(String.self, forKey: .date)
      if container.contains(.fundraiserId) {
        if try container.decodeNil(forKey: .fundraiserId) {
          fundraiser = .value(nil)
        } else if let text = try? container.decode(String.self, forKey: .fundraiserId),
          let id = UUID(uuidString: text)
        {
          fundraiser = .value(id)
        } else {
          fundraiser = .invalid
        }
      }
      if let text = try? container.decodeIfPresent(String.self, forKey: .amount) {
        amount = text
      } else if container.contains(.amount), !(try container.decodeNil(forKey: .amount)) {
        amountIsNotString = true
      }
    }
  }

  static var amountNotStringMessage: String { L("expenses.api.amount_not_string") }

  // MARK: handlers

  @Sendable func list(req: Request) async throws -> Response {
    let user = try req.user
    let filter = try Self.filter(req)
    let paging = try Paging.read(req)
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    let total = try await ExpensesController.totals(req, store, filter).count
    // A page past the end is empty.
    let rows =
      paging.offset >= total
      ? [] : try await store.rows(filter, limit: paging.perPage, offset: paging.offset)
    let receipts = try await ExpenseReceipts(db: req.db, workspaceID: req.workspaceID)
      .refs(for: rows.map(\.id))
    return try ListPage(
      items: rows.map { Self.item($0, currency: user.currency, receipts: receipts[$0.id] ?? []) },
      paging: paging, total: total
    ).response(for: req)
  }

  @Sendable func show(req: Request) async throws -> Response {
    let user = try req.user
    let record = try await Self.found(req, user: user)
    return try await APIResponse.json(Self.item(record, req: req, currency: user.currency))
      .withVersion(record.version)
  }

  /// The expense as the version errors name it ("The expense was changed since …").
  static var recordName: String { L("expenses.api.record_name") }

  @Sendable func create(req: Request) async throws -> Response {
    let user = try req.user
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    let (expense, link) = try await Self.validated(req, user: user, store: store)
    var fundraiserID: UUID?
    if case .set(let id) = link { fundraiserID = id }
    let record = try await store.create(expense, fundraiserID: fundraiserID, now: req.now)
    req.noteActivity(.created, .expense, id: record.id, name: expense.title)
    return try await APIResponse.created(
      Self.item(record, req: req, currency: user.currency),
      location: Routes.apiExpense.href(id: record.id)
    ).withVersion(record.version)
  }

  /// Without `If-Match` the last write wins, as before versions; with it, only onto a version
  /// it names (412 otherwise).
  @Sendable func replace(req: Request) async throws -> Response {
    let user = try req.user
    let record = try await Self.found(req, user: user)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: Self.recordName)
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    let (expense, link) = try await Self.validated(req, user: user, store: store)
    guard
      let saved = try await store.update(
        record, expected: expected, with: expense, fundraiserID: link, now: req.now)
    else {
      throw APIError.lostWrite(
        stillThere: try await store.record(record.id) != nil, record: Self.recordName)
    }
    req.noteActivity(.changed, .expense, id: saved.id, name: expense.title)
    return try await APIResponse.json(Self.item(saved, req: req, currency: user.currency))
      .withVersion(saved.version)
  }

  /// Deletes for good: API clients have no "Undo" button to press.
  @Sendable func delete(req: Request) async throws -> Response {
    let user = try req.user
    let record = try await Self.found(req, user: user)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: Self.recordName)
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    guard try await store.deletePermanently(record, expected: expected) else {
      throw APIError.lostWrite(
        stillThere: try await store.record(record.id) != nil, record: Self.recordName)
    }
    req.noteActivity(.deleted, .expense, id: record.id, name: record.title)
    return Response(status: .noContent)
  }

  struct Summary: Encodable {
    struct Period: Encodable {
      var category: String?
      var month: String?
      var from: String?
      var to: String?
      var q: String?

      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(category, forKey: .category)
        try container.encode(month, forKey: .month)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(q, forKey: .q)
      }

      enum CodingKeys: String, CodingKey { case category, month, from, to, q }
    }

    struct Line: Encodable {
      var category: String
      var total: String
      var count: Int
      var percent: Int
    }

    var currency: String
    var filter: Period
    var total: String
    var count: Int
    var categories: [Line]
  }

  /// Totals for the filter (usually a `month` or `from`/`to`), one line per category in the
  /// standard order, empty ones included.
  @Sendable func summary(req: Request) async throws -> Response {
    let user = try req.user
    let filter = try Self.filter(req)
    let totals = try await ExpensesController.totals(
      req, ExpenseStore(db: req.db, workspaceID: req.workspaceID), filter)
    let money = { (amount: Decimal) in
      Money(amount: amount, currency: user.currency).decimalString
    }
    let summary = Summary(
      currency: user.currency,
      filter: .init(
        category: filter.category?.rawValue, month: filter.month?.description,
        from: filter.from?.description, to: filter.to?.description,
        q: filter.text.isEmpty ? nil : filter.text),
      total: money(totals.total), count: totals.count,
      categories: totals.lines.map { line in
        Summary.Line(
          category: line.category.rawValue, total: money(line.amount), count: line.count,
          percent: totals.percent(of: line.category))
      })
    return try APIResponse.json(summary)
  }

  // MARK: helpers

  static func item(_ row: ExpenseStore.Row, currency: String, receipts: [ExpenseReceipts.Ref])
    -> Item
  {
    Item(
      id: row.id, expense: row.expense, currency: currency, createdAt: row.createdAt,
      updatedAt: row.updatedAt, version: row.version, fundraiserID: row.fundraiserID,
      receipts: receipts)
  }

  static func item(_ record: ExpenseRecord, req: Request, currency: String) async throws -> Item {
    let id = record.id
    return Item(
      id: id, expense: record.expense, currency: currency,
      createdAt: record.createdAt, updatedAt: record.updatedAt, version: record.version,
      fundraiserID: record.fundraiserID,
      receipts: try await ExpenseReceipts(db: req.db, workspaceID: req.workspaceID).refs(of: id))
  }

  /// The list's filters. The page's search box cuts a long text to 100 characters; the API
  /// refuses it, as its document says.
  static func filter(_ req: Request) throws -> ExpenseFilter {
    var (filter, errors) = FilterQuery(req).parse()
    if let text = req.queryValue("q"),
      text.unicodeScalars.count > ExpenseFilter.maxTextLength
    {
      errors["q"] = L("expenses.api.text_too_long", count: ExpenseFilter.maxTextLength)
    }
    guard errors.isEmpty else { throw APIError.validation(errors) }
    return filter
  }

  static func validated(_ req: Request, user: User, store: ExpenseStore) async throws -> (
    Expense, ExpenseStore.FundraiserLink
  ) {
    let input = try req.content.decode(Input.self, using: JSONDecoder.api)
    let draft = ExpenseDraft(
      title: input.title ?? "", amount: input.amount ?? "", category: input.category ?? "",
      date: input.date ?? "")
    let result = draft.validate(
      amountSyntax: .decimalString, timeZone: ExpenseStore.timeZone,
      maxFractionDigits: ExpensesController.places(user))
    var fields: [String: String] = [:]
    if case .failure(let errors) = result { fields = errors.fields }
    if input.amountIsNotString { fields["amount"] = amountNotStringMessage }
    var link = ExpenseStore.FundraiserLink.keep
    switch input.fundraiser {
    case .absent: break
    case .value(nil): link = .set(nil)
    case .value(let id?):
      if try await store.fundraiserExists(id) {
        link = .set(id)
      } else {
        fields["fundraiser_id"] = L("expenses.api.fundraiser_unknown")
      }
    case .invalid: fields["fundraiser_id"] = L("expenses.api.fundraiser_unknown")
    }
    guard fields.isEmpty, case .success(let expense) = result else {
      throw APIError.validation(fields)
    }
    return (expense, link)
  }

  /// The account's expense named by the path; 404 for any other id.
  static func found(_ req: Request, user: User) async throws -> ExpenseRecord {
    let id = try owned(req.parameters.get("expenseID", as: UUID.self))
    return try owned(await ExpenseStore(db: req.db, workspaceID: req.workspaceID).record(id))
  }

  // MARK: receipts

  struct ReceiptInput: Decodable {
    /// Base64 JPEG/PNG bytes (or a `data:` URL).
    var photo: String?
    var `public`: Bool?
    /// `"public": null`, which the document does not allow (leave the key out instead).
    var publicIsNull = false

    enum CodingKeys: String, CodingKey { case photo, `public` }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      photo = try container.decodeIfPresent(String.self, forKey: .photo)
      publicIsNull = try container.contains(.public) && container.decodeNil(forKey: .public)
      `public` = publicIsNull ? nil : try container.decodeIfPresent(Bool.self, forKey: .public)
    }
  }

  /// Adds a receipt photo (hidden from the public report unless `public` is true). The expense
  /// gets a new version, as for any change of it; `If-Match` is honoured.
  @Sendable func addReceipt(req: Request) async throws -> Response {
    let record = try await Self.found(req, user: try req.user)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: Self.recordName)
    let input = try req.content.decode(ReceiptInput.self, using: JSONDecoder.api)
    if input.publicIsNull {
      throw APIError.validation(["public": L("expenses.api.receipt_public_missing")])
    }
    let photo: CheckedPhoto
    switch PhotoInput.base64(input.photo, maxBytes: req.config.maxUploadBytes) {
    case .success(let checked?): photo = checked
    case .success(nil): throw APIError.validation(["photo": L("expenses.api.receipt_missing")])
    case .failure(.notBase64): throw APIError.validation(["photo": PhotoInput.notBase64])
    case .failure(.image(let error)):
      var problems = ProductProblems()
      problems.add(photo: error)
      throw problems.apiError
    }
    let id = record.id
    let receipts = ExpenseReceipts(db: req.db, workspaceID: try req.workspaceID)
    guard try await receipts.count(of: id) < ExpenseReceipts.maxPerExpense else {
      throw Self.tooManyReceipts
    }
    let isPublic = input.public ?? false
    let added = ReceiptBox()
    let saved = try await Self.changeReceipts(req, record, expected: expected) { receipts in
      added.id = try await receipts.add([photo], isPublic: isPublic, to: id, now: req.now).first
    }
    guard let receiptID = added.id,
      let ref = try await receipts.refs(of: id).first(where: { $0.id == receiptID })
    else { throw APIError.notFound }
    return try APIResponse.created(ReceiptItem(ref), location: ReceiptItem(ref).url)
      .withVersion(saved.version)
  }

  /// The receipt's picture.
  @Sendable func receipt(req: Request) async throws -> Response {
    let record = try await Self.found(req, user: try req.user)
    let receipts = ExpenseReceipts(db: req.db, workspaceID: try req.workspaceID)
    let receipt = try owned(
      await receipts.receipt(
        try owned(req.parameters.get("receiptID", as: UUID.self)), of: record.id))
    return receipt.response(req)
  }

  struct ReceiptUpdate: Decodable {
    var `public`: Bool?
  }

  /// Shows the receipt on the public report or hides it.
  @Sendable func updateReceipt(req: Request) async throws -> Response {
    let (record, expected, receiptID, receipts) = try await Self.foundReceipt(req)
    let id = record.id
    let input = try req.content.decode(ReceiptUpdate.self, using: JSONDecoder.api)
    guard let isPublic = input.public else {
      throw APIError.validation(["public": L("expenses.api.receipt_public_missing")])
    }
    let saved = try await Self.changeReceipts(req, record, expected: expected) { receipts in
      try await receipts.setPublic(receiptID, of: id, isPublic: isPublic)
    }
    guard let ref = try await receipts.refs(of: id).first(where: { $0.id == receiptID }) else {
      throw APIError.notFound
    }
    return try APIResponse.json(ReceiptItem(ref)).withVersion(saved.version)
  }

  @Sendable func deleteReceipt(req: Request) async throws -> Response {
    let (record, expected, receiptID, _) = try await Self.foundReceipt(req)
    let id = record.id
    try await Self.changeReceipts(req, record, expected: expected) { receipts in
      try await receipts.remove([receiptID], of: id)
    }
    return Response(status: .noContent)
  }

  /// The expense and receipt a receipt route names (404 unless both are the workspace's and
  /// belong together), with the version `If-Match` expects.
  static func foundReceipt(_ req: Request) async throws -> (
    record: ExpenseRecord, expected: Int?, receiptID: UUID, receipts: ExpenseReceipts
  ) {
    let record = try await found(req, user: try req.user)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: recordName)
    let receiptID = try owned(req.parameters.get("receiptID", as: UUID.self))
    let receipts = ExpenseReceipts(db: req.db, workspaceID: try req.workspaceID)
    guard try await receipts.receiptExists(receiptID, of: record.id) else {
      throw APIError.notFound
    }
    return (record, expected, receiptID, receipts)
  }

  /// Changes the expense's receipts with `change` in the transaction that gives the expense its
  /// new version (from `expected`, any when nil): 412/404 when the expense changed or went
  /// meanwhile, 409 when the change would take it past the receipt limit. The expense as
  /// saved.
  @discardableResult
  static func changeReceipts(
    _ req: Request, _ record: ExpenseRecord, expected: Int?,
    _ change: @escaping @Sendable (ExpenseReceipts) async throws -> Void
  ) async throws -> ExpenseRecord {
    let (workspaceID, now) = (try req.workspaceID, req.now)
    let written: ExpenseRecord?
    do {
      written = try await ExpenseReceipts(db: req.db, workspaceID: workspaceID).change(
        of: record, expected: expected, now: now, change)
    } catch is ExpenseReceipts.LimitReached {
      throw tooManyReceipts
    }
    guard let written else { throw try await lost(req, record) }
    return written
  }

  static var tooManyReceipts: APIError {
    APIError(.conflict, code: "too_many_receipts", message: ExpenseReceipts.LimitReached.message)
  }

  /// The error for a write that found the expense changed or deleted meanwhile.
  static func lost(_ req: Request, _ record: ExpenseRecord) async throws -> APIError {
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    return APIError.lostWrite(
      stillThere: try await store.record(record.id) != nil, record: Self.recordName)
  }
}

/// The id a write made inside its transaction, read after it.
private final class ReceiptBox: @unchecked Sendable {
  var id: UUID?
}
