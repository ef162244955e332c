import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

extension TestClient {
  /// Adds an expense through the form (as typed in the account's locale) and returns its id.
  @discardableResult
  func addExpense(
    title: String, amount: String, category: String = "Personal", date: String? = nil,
    db: any Database
  ) async throws -> UUID {
    try await get("/expenses/new")
    var form = [("title", title), ("amount", amount), ("category", category)]
    if let date { form += [("has_date", "1"), ("date", date)] }
    let response = try await post("/expenses", form: form)
    #expect(response.status == .seeOther, "add failed: \(response.status) \(response.body)")
    try await get("/expenses")
    return try await newestExpense(titled: title, db: db)
  }

  /// The id of the latest expense with `title` (as stored), the one a form just added.
  func newestExpense(titled title: String, db: any Database) async throws -> UUID {
    let record = try await ExpenseTable.query(on: db)
      .filter(\.$title == Expense.normalizedTitle(title))
      .sort(\.$createdAt, .descending).first()
    return try #require(record?.id)
  }

  /// Changes the account's locale and currency on the settings page.
  func switchLocaleForExpenses(_ locale: String, currency: String) async throws {
    try await get("/settings")
    let response = try await post(
      "/settings/locale", form: [("locale", locale), ("currency", currency)])
    #expect(response.status == .seeOther)
    try await get("/expenses")
  }

  /// Posts a multipart upload form with a `file` field, as the import page does.
  func uploadExpenses(
    _ csv: String, fields: [(String, String)] = [], csrf: Bool = true
  ) async throws -> TestResponse {
    let boundary = "----expenses-test-\(UUID().uuidString)"
    var body = Data()
    var all = fields
    if csrf, let token = self.csrf { all.append((CSRFMiddleware.fieldName, token)) }
    for (name, value) in all {
      body.append(
        Data(
          "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            .utf8))
    }
    body.append(
      Data(
        ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; "
          + "filename=\"expenses.csv\"\r\nContent-Type: text/csv\r\n\r\n").utf8))
    body.append(Data(csv.utf8))
    body.append(Data("\r\n--\(boundary)--\r\n".utf8))
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
    return try await send(.POST, "/expenses/import", headers: headers, bytes: body)
  }

  /// A JSON request to the expenses API with a bearer token.
  @discardableResult
  func expensesAPI(
    _ method: HTTPMethod, _ path: String, token: String?, json: String? = nil
  ) async throws -> TestResponse {
    var headers = HTTPHeaders()
    if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
    if json != nil { headers.replaceOrAdd(name: .contentType, value: "application/json") }
    return try await send(method, path, headers: headers, body: json)
  }
}

enum ExpenseFixtures {
  /// The account that owns the `n`-th signed-up user in the database.
  static func userID(email: String, db: any Database) async throws -> UUID {
    let user = try await Accounts.find(email: email, on: db)
    return try #require(user?.id)
  }

  static func decimal(_ text: String) -> Decimal {
    AmountParser.parseStrictDecimalString(text) ?? .nan
  }

  static func date(_ text: String) -> Date? {
    ExpenseDate.parse(text, timeZone: ExpenseDate.utc)
  }
}

extension TestResponse {
  /// The titles of the listed expenses, top to bottom.
  var expenseTitles: [String] {
    guard let regex = try? NSRegularExpression(pattern: #"class="expense-title">([^<]*)</a>"#)
    else { return [] }
    return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
      Range($0.range(at: 1), in: body).map { String(body[$0]) }
    }
  }

  /// The `value` of the input named `name`.
  func expenseInput(_ name: String) -> String? {
    firstMatch(#"<input id="field-\#(name)" name="\#(name)"[^>]*value="([^"]*)""#)
  }
}

/// A small deterministic generator, so a failing random test can be run again exactly.
struct ExpenseRandom: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension TestClient {
  /// Sends the expense form as the browser does (multipart) with receipt photos and a
  /// fundraiser; `path` is "/expenses" to add or "/expenses/<id>" to save an edit.
  func postExpenseForm(
    _ path: String = "/expenses", fields: [(String, String)],
    receipts: [(data: Data, filename: String)] = []
  ) async throws -> TestResponse {
    var parts = fields.map { ProductPart.text($0.0, $0.1) }
    if receipts.isEmpty {
      // A file field left blank is sent as an empty part.
      parts.append(.file("receipts[]", Data(), filename: ""))
    }
    for receipt in receipts {
      parts.append(.file("receipts[]", receipt.data, filename: receipt.filename))
    }
    return try await postProductForm(path, parts)
  }

  /// Adds an expense with receipts through the form and returns its id.
  @discardableResult
  func addExpenseWithReceipts(
    title: String, amount: String, fundraiser: UUID? = nil,
    receipts: [(data: Data, filename: String)], isPublic: Bool = false, db: any Database
  ) async throws -> UUID {
    try await get("/expenses/new")
    var fields = [("title", title), ("amount", amount), ("category", "Personal")]
    if let fundraiser { fields.append(("fundraiser", fundraiser.uuidString.lowercased())) }
    if isPublic { fields.append(("receipts_public", "1")) }
    let response = try await postExpenseForm(fields: fields, receipts: receipts)
    #expect(response.status == .seeOther, "add failed: \(response.status) \(response.body)")
    try await get("/expenses")
    return try await newestExpense(titled: title, db: db)
  }
}
