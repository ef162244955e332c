import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Expenses CSV export and import")
struct ExpenseCSVTests {
  @Test func exportWritesTheFilteredListInListOrder() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "de-DE")
      try await client.addExpense(
        title: "Tea, milk", amount: "3,5", category: "Food", date: "2025-11-22T15:05", db: t.db)
      try await client.addExpense(title: "=SUM(A1)", amount: "1", category: "Hobby", db: t.db)
      try await client.addExpense(
        title: "Say \"hi\"", amount: "12,05", category: "Food", date: "2025-10-01T09:00",
        db: t.db)

      let response = try await client.get("/expenses/export.csv")
      #expect(response.status == .ok)
      #expect(response.headers.first(name: .contentType) == "text/csv; charset=utf-8")
      let disposition = try #require(response.headers.first(name: .contentDisposition))
      #expect(disposition.hasPrefix("attachment; filename=\"expenses-"))
      #expect(disposition.hasSuffix(".csv\""))
      #expect(
        response.body
          == "\u{FEFF}date,title,category,amount,fundraiser\r\n"
          + "2025-11-22T15:05:00Z,\"Tea, milk\",Food,3.50,\r\n"
          + "2025-10-01T09:00:00Z,\"Say \"\"hi\"\"\",Food,12.05,\r\n"
          + ",'=SUM(A1),Hobby,1.00,\r\n")

      let food = try await client.get("/expenses/export.csv?category=Food&month=2025-10")
      #expect(
        food.body
          == "\u{FEFF}date,title,category,amount,fundraiser\r\n"
          + "2025-10-01T09:00:00Z,\"Say \"\"hi\"\"\",Food,12.05,\r\n"
      )
      #expect(try await client.get("/expenses/export.csv?month=13").status == .unprocessableEntity)
    }
  }

  @Test func exportedFileImportsBackToTheSameExpenses() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addExpense(
        title: "Tea, milk", amount: "3.5", category: "Food", date: "2025-11-22T15:05", db: t.db)
      try await client.addExpense(title: "=SUM(A1)", amount: "1", category: "Hobby", db: t.db)
      let exported = try await client.get("/expenses/export.csv").body

      let other = t.client()
      try await other.signUp()
      let page = try await other.importExpenses(exported, in: t)
      #expect(page.importSummary == "2 expenses imported, 0 already present.")
      let again = try await other.get("/expenses/export.csv").body
      #expect(again == exported)
    }
  }

  static let mixed = """
    date,title,category,amount
    2025-11-01,Bread,Food,2.40
    ,,Food,1
    2025-11-02T10:00,Bus,Transport,"12,50"
    2025-11-31,Cake,Cakes,3

    ,Socks,,4
    """

  @Test func aFileWithBadRowsImportsNothingAndSaysWhichRows() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/expenses/import")
      let response = try await client.uploadExpenses(Self.mixed)
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains("Nothing was imported: 3 rows have errors."))
      #expect(response.body.contains("<li>Row 3: Title must be filled!</li>"))
      #expect(
        response.body.contains(
          "<li>Row 4: Amount must be a number with a dot before the decimals, e.g. 12.50.</li>"))
      #expect(response.body.contains("Row 5: Choose a category"))
      #expect(response.body.contains("Enter the date as 2025-11-22"))
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }

  @Test func skippingBadRowsImportsTheGoodOnesAndReportsTheRest() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.importExpenses(
        Self.mixed, fields: [("skip_errors", "1")], in: t)
      #expect(
        page.importSummary
          == "2 expenses imported, 0 already present. Skipped 3 rows with errors.")
      #expect(page.body.contains("Row 3: Title must be filled!"))
      let list = try await client.get("/expenses")
      #expect(list.expenseTitles == ["Bread", "Socks"])
      let socks = try #require(
        try await ExpenseTable.query(on: t.db).filter(\.$title == "Socks").first())
      #expect(socks.category == "Personal")
      #expect(socks.amountCents == 400)
    }
  }

  @Test(arguments: [
    ("", "Choose a CSV file to import."),
    ("title,amount\nTea,1\n", "missing: date, category."),
    ("date,title,category,amount\n", "The file has no expenses below the header line."),
    ("date,title,category,amount\n,\"Tea\"x,Food,1\n", "The file is not valid CSV"),
  ])
  func unreadableFilesAreRefusedWithAReason(csv: String, message: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/expenses/import")
      let response = try await client.uploadExpenses(csv)
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains(message), "\(response.body)")
    }
  }

  @Test func semicolonFilesFromSpreadsheetsAreRead() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.importExpenses(
        "\u{FEFF}Date;Title;Category;Amount\r\n2025-11-01;Bread;food;2.40\r\n", in: t)
      #expect(page.importSummary == "1 expense imported, 0 already present.")
      let record = try #require(try await ExpenseTable.query(on: t.db).first())
      #expect(record.category == "Food")
      #expect(record.amountCents == 240)
    }
  }

  @Test func importPageExplainsTheFormat() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/expenses/import")
      #expect(page.status == .ok)
      #expect(page.body.contains(#"enctype="multipart/form-data""#))
      #expect(page.body.contains("date,title,category,amount"))
      #expect(page.body.contains("Skip rows with errors"))
    }
  }
}
