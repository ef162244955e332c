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

    init(
      id: UUID, expense: Expense, currency: String, createdAt: Date, updatedAt: Date,
      version: Int
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
    }

    enum CodingKeys: String, CodingKey {
      case id, title, amount, currency, category, date, createdAt, updatedAt, version
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

    enum CodingKeys: String, CodingKey {
      case title, amount, category, date
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      title = try container.decodeIfPresent(String.self, forKey: .title)
      category = try container.decodeIfPresent(String.self, forKey: .category)
      date = try container.decodeIfPresent(String.self, forKey: .date)
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
    return try ListPage(
      items: rows.map { Self.item($0, currency: user.currency) }, paging: paging, total: total
    ).response(for: req)
  }

  @Sendable func show(req: Request) async throws -> Response {
    let user = try req.user
    let record = try await Self.found(req, user: user)
    return try APIResponse.json(Self.item(record, currency: user.currency))
      .withVersion(record.version)
  }

  /// The expense as the version errors name it ("The expense was changed since …").
  static var recordName: String { L("expenses.api.record_name") }

  @Sendable func create(req: Request) async throws -> Response {
    let user = try req.user
    let expense = try Self.validated(req, user: user)
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    let record = try await store.create(expense, now: req.now)
    req.noteActivity(.created, .expense, id: record.id, name: expense.title)
    return try APIResponse.created(
      Self.item(record, currency: user.currency),
      location: Routes.apiExpense.href(id: try record.requireID())
    ).withVersion(record.version)
  }

  /// Without `If-Match` the last write wins, as before versions; with it, only onto a version
  /// it names (412 otherwise).
  @Sendable func replace(req: Request) async throws -> Response {
    let user = try req.user
    let record = try await Self.found(req, user: user)
    let expected = try IfMatch(req.headers).expectedVersion(
      current: record.version, record: Self.recordName)
    let expense = try Self.validated(req, user: user)
    let store = try ExpenseStore(db: req.db, workspaceID: req.workspaceID)
    guard try await store.update(record, expected: expected, with: expense, now: req.now) else {
      throw APIError.lostWrite(
        stillThere: try await store.record(record.requireID()) != nil, record: Self.recordName)
    }
    req.noteActivity(.changed, .expense, id: record.id, name: expense.title)
    return try APIResponse.json(Self.item(record, currency: user.currency))
      .withVersion(record.version)
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
        stillThere: try await store.record(record.requireID()) != nil, record: Self.recordName)
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

  static func item(_ row: ExpenseStore.Row, currency: String) -> Item {
    Item(
      id: row.id, expense: row.expense, currency: currency, createdAt: row.createdAt,
      updatedAt: row.updatedAt, version: row.version)
  }

  static func item(_ record: ExpenseRecord, currency: String) throws -> Item {
    Item(
      id: try record.requireID(), expense: ExpenseStore.expense(from: record), currency: currency,
      createdAt: record.createdAt, updatedAt: record.updatedAt, version: record.version)
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

  static func validated(_ req: Request, user: User) throws -> Expense {
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
    guard fields.isEmpty, case .success(let expense) = result else {
      throw APIError.validation(fields)
    }
    return expense
  }

  /// The account's expense named by the path; 404 for any other id.
  static func found(_ req: Request, user: User) async throws -> ExpenseRecord {
    let id = try owned(req.parameters.get("expenseID", as: UUID.self))
    return try owned(await ExpenseStore(db: req.db, workspaceID: req.workspaceID).record(id))
  }
}
