import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Expenses CSV import: rows already present")
struct ExpenseImportTests {
  static let file = """
    date,title,category,amount
    2025-11-01T08:30:00Z,Coffee,Food,3.50
    2025-11-02,Bus,Transport,2
    ,Gym,Hobby,25.00
    """

  static func total(_ client: TestClient) async throws -> String {
    let summary = try await client.get("/api/v1/expenses/summary")
    return try #require(try summary.json()["total"] as? String)
  }

  /// The review's finding: export, import the same file into the same account, and every row
  /// was there twice with no warning. Now nothing is added and the page says so.
  @Test func importingAnExportIntoTheSameAccountAddsNothing() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let first = try await client.importExpenses(Self.file, in: t)
      #expect(first.importSummary == "3 expenses imported, 0 already present.")
      let before = try await Self.total(client)
      #expect(before == "30.50")

      let exported = try await client.get("/expenses/export.csv").body
      let again = try await client.importExpenses(exported, in: t)
      #expect(again.importSummary == "0 expenses imported, 3 already present.")
      #expect(try await ExpenseTable.query(on: t.db).count() == 3)
      #expect(try await Self.total(client) == before)

      // The original file a second time: the same.
      let third = try await client.importExpenses(Self.file, in: t)
      #expect(third.importSummary == "0 expenses imported, 3 already present.")
      #expect(try await ExpenseTable.query(on: t.db).count() == 3)
    }
  }

  @Test func importingAnywayAddsTheRowsAgainOnPurpose() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      _ = try await client.importExpenses(Self.file, in: t)
      let page = try await client.importExpenses(
        Self.file, fields: [("import_duplicates", "1")], in: t)
      #expect(
        page.importSummary
          == "3 expenses imported (rows already present were imported again, as asked).")
      #expect(try await ExpenseTable.query(on: t.db).count() == 6)
      #expect(try await Self.total(client) == "61.00")
    }
  }

  /// Multiset matching: a file with two identical rows, into an account holding one such row,
  /// adds one; the same file again adds nothing.
  @Test func twoIdenticalRowsAgainstOneHeldImportOne() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addExpense(
        title: "Coffee", amount: "3.50", category: "Food", date: "2025-11-01T08:30", db: t.db)
      let file = """
        date,title,category,amount
        2025-11-01T08:30:00Z,Coffee,Food,3.50
        2025-11-01T08:30:00Z,Coffee,Food,3.50
        2025-11-01T08:30:00Z,Coffee,Food,3.60
        """
      let page = try await client.importExpenses(file, in: t)
      #expect(page.importSummary == "2 expenses imported, 1 already present.")
      let coffees = try await ExpenseTable.query(on: t.db).filter(\.$title == "Coffee").all()
      #expect(coffees.map(\.amountCents).sorted() == [350, 350, 360])

      let again = try await client.importExpenses(file, in: t)
      #expect(again.importSummary == "0 expenses imported, 3 already present.")
      #expect(try await ExpenseTable.query(on: t.db).count() == 3)
    }
  }

  /// Date and time to the second, title (letter case counts), amount and category: a row that
  /// differs in any of them is imported; another account's identical rows do not count.
  @Test func onlyTheSameDateTitleAmountAndCategoryInThisAccountCount() async throws {
    try await withApp { t in
      let other = t.client()
      try await other.signUp()
      _ = try await other.importExpenses(Self.file, in: t)

      let client = t.client()
      let email = try await client.signUp()
      let token = try await client.createToken()
      // Made through the API with a fraction of a second, which the CSV does not carry.
      let created = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token,
        json:
          #"{"title":"Coffee","amount":"3.50","category":"Food","date":"2025-11-01T08:30:00.250Z"}"#
      )
      #expect(created.status == .created)
      let file = """
        date,title,category,amount
        2025-11-01T08:30:00Z,Coffee,Food,3.50
        2025-11-01T08:30:01Z,Coffee,Food,3.50
        2025-11-01T08:30:00Z,coffee,Food,3.50
        2025-11-01T08:30:00Z,Coffee,Hobby,3.50
        2025-11-01T08:30:00Z,Coffee,Food,3.51
        ,Coffee,Food,3.50
        2025-11-01T10:30:00+02:00,Coffee,Food,3.5
        """
      let page = try await client.importExpenses(file, in: t)
      // The first and the last row (the same instant and amount, written differently) are
      // the expense made above; the first takes its place, the last is a second copy.
      #expect(page.importSummary == "6 expenses imported, 1 already present.")
      let workspaceID = try await t.workspaceID(of: email)
      #expect(
        try await ExpenseTable.query(on: t.db).filter(\.$workspaceID == workspaceID).count() == 7)
    }
  }

  /// A deleted expense waiting for its undo is not in the list, so it is not "present": the
  /// import brings it back as a new expense.
  @Test func deletedExpensesWaitingForUndoDoNotCount() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addExpense(
        title: "Coffee", amount: "3.50", category: "Food", date: "2025-11-01T08:30", db: t.db)
      let exported = try await client.get("/expenses/export.csv").body
      try await client.get("/expenses")
      let deleted = try await client.post("/expenses/\(id.uuidString.lowercased())/delete")
      #expect(deleted.status == .seeOther)
      let page = try await client.importExpenses(exported, in: t)
      #expect(page.importSummary == "1 expense imported, 0 already present.")
      let live = try await ExpenseTable.query(on: t.db).filter(\.$deletedAt == nil).count()
      #expect(live == 1)
    }
  }

  /// Rows with errors left out are reported with the result.
  @Test func skippedRowsWithErrorsAreListedWithTheResult() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.importExpenses(
        ExpenseCSVTests.mixed, fields: [("skip_errors", "1")], in: t)
      #expect(
        page.importSummary
          == "2 expenses imported, 0 already present. Skipped 3 rows with errors.")
      #expect(page.body.contains("<li>Row 3: Title must be filled!</li>"))
      #expect(page.body.contains(#"href="/expenses""#))
      #expect(try await client.get("/expenses").expenseTitles == ["Bread", "Socks"])
    }
  }

  @Test func importPageOffersToImportRowsAlreadyPresent() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/expenses/import")
      #expect(page.body.contains(#"name="import_duplicates""#))
      #expect(page.body.contains("Import rows that are already present"))
      #expect(page.body.contains("same date and time, title, amount and category"))
      // The choice survives a refused upload.
      let refused = try await client.uploadExpenses(
        ExpenseCSVTests.mixed, fields: [("import_duplicates", "1")])
      #expect(refused.status == .unprocessableEntity)
      #expect(
        refused.body.contains(
          #"name="import_duplicates" type="checkbox" value="1" aria-describedby="field-import-duplicates-hint" checked"#
        ))
    }
  }
}
