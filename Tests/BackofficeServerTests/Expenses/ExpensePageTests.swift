import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Expenses pages")
struct ExpensePageTests {
  @Test func emptyListSaysWhatToDo() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/expenses")
      #expect(page.status == .ok)
      #expect(page.body.contains("No expenses yet"))
      #expect(page.body.contains(#"<a href="/expenses" aria-current="page">Expenses</a>"#))
      #expect(page.body.contains(#"src="/js/expenses.js""#))
    }
  }

  @Test func addedExpenseIsListedInTheAccountsCurrencyAndLocale() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "de-DE")
      try await client.get("/expenses/new")
      let response = try await client.post(
        "/expenses", form: [("title", "  Kaffee "), ("amount", "12,50"), ("category", "Food")])
      #expect(response.status == .seeOther)
      #expect(response.location == "/expenses")
      let record = try #require(try await ExpenseTable.query(on: t.db).first())
      #expect(record.title == "Kaffee")
      #expect(record.amountCents == 1250)
      #expect(record.category == "Food")
      #expect(record.spentAt == nil)
      let list = try await client.get("/expenses")
      #expect(list.body.contains("Added \u{201C}Kaffee\u{201D}."))
      #expect(list.expenseTitles == ["Kaffee"])
      #expect(list.body.contains("<p class=\"expense-amount\">12,50\u{00A0}€</p>"))
      #expect(list.body.contains(#"<span class="no-date">No date</span>"#))
      #expect(list.body.contains(#"<span class="ex-chip cat-food">Food</span>"#))
    }
  }

  @Test func datedExpenseShowsItsDateAndTime() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk-UA")
      try await client.addExpense(
        title: "Таксі", amount: "250", category: "Transport", date: "2025-11-22T15:05",
        db: t.db)
      let record = try #require(try await ExpenseTable.query(on: t.db).first())
      #expect(record.spentAt == ExpenseFixtures.date("2025-11-22T15:05:00Z"))
      let list = try await client.get("/expenses")
      #expect(
        list.body.contains(#"<time datetime="2025-11-22T15:05:00Z">22.11.2025, 15:05</time>"#))
      #expect(list.body.contains("250,00\u{00A0}₴"))
    }
  }

  /// Newest date first, undated ones after every dated one, then the most recently added.
  @Test func listIsNewestFirstWithUndatedLast() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let adds: [(String, String?)] = [
        ("undated old", nil), ("march", "2025-03-01T10:00"), ("may", "2025-05-01T10:00"),
        ("undated new", nil), ("april A", "2025-04-01T10:00"), ("april B", "2025-04-01T10:00"),
        ("january", "2025-01-15T08:00"),
      ]
      for (title, date) in adds {
        t.clock.advance(by: 5)
        try await client.addExpense(title: title, amount: "1", date: date, db: t.db)
      }
      let list = try await client.get("/expenses")
      #expect(
        list.expenseTitles == [
          "may", "april B", "april A", "march", "january", "undated new", "undated old",
        ])
      // The database order is the one Core defines.
      let rows = try await ExpenseTable.query(on: t.db).all()
      let core = ExpenseOrder.sorted(rows, date: \.spentAt, created: \.createdAt).map(\.title)
      #expect(list.expenseTitles == core)
    }
  }

  @Test func everyRuleIsCheckedAgainOnTheServerWithItsMessage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "de-DE")
      try await client.get("/expenses/new")
      let empty = try await client.post(
        "/expenses", form: [("title", "   "), ("amount", ""), ("category", "Food")])
      #expect(empty.status == .unprocessableEntity)
      #expect(empty.body.contains(#"id="field-title-feedback""#))
      #expect(empty.body.contains("Title must be filled!"))
      #expect(empty.body.contains("Amount must be filled!"))
      #expect(empty.body.contains("The expense was not saved"))

      let cases: [([(String, String)], String)] = [
        ([("amount", "12.345")], "It is unclear whether the separator groups thousands"),
        ([("amount", "1.234,56")], "Type the amount without thousands separators or spaces"),
        ([("amount", "12,5055")], "Use at most 2 decimals"),
        ([("amount", "0")], "Amount must be more than 0"),
        ([("amount", "-3")], "The amount cannot be negative"),
        ([("amount", "12€")], "“€” is not allowed"),
        ([("amount", "5"), ("category", "Rent")], ExpenseMessages.categoryUnknown),
        ([("amount", "5"), ("has_date", "1"), ("date", "")], ExpenseMessages.dateMissing),
        (
          [("amount", "5"), ("has_date", "1"), ("date", "22.11.2025")], ExpenseMessages.dateInvalid
        ),
      ]
      for (fields, message) in cases {
        try await client.get("/expenses/new")
        var form = [("title", "Tea")] + fields
        if !fields.contains(where: { $0.0 == "category" }) { form.append(("category", "Food")) }
        let response = try await client.post("/expenses", form: form)
        #expect(response.status == .unprocessableEntity, "\(fields)")
        #expect(response.body.contains(message), "\(fields) should say \(message)")
        #expect(response.body.contains(#"aria-invalid="true""#), "\(fields)")
        // What was typed stays in the form.
        #expect(response.expenseInput("title") == "Tea")
      }
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }

  @Test func titleIsCutAt15CharactersCountedAsPeopleSeeThem() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/expenses/new")
      let long = "Dinner with the whole team"
      try await client.post("/expenses", form: [("title", long), ("amount", "80")])
      // Flags and accented letters count as one character each.
      try await client.get("/expenses/new")
      let wide = "🇺🇦🇺🇦🇺🇦 é\u{301}clair de café au lait"
      try await client.post("/expenses", form: [("title", wide), ("amount", "3")])
      let titles = try await ExpenseTable.query(on: t.db).sort(\.$amountCents).all().map(\.title)
      #expect(titles == ["🇺🇦🇺🇦🇺🇦 é\u{301}clair de c", "Dinner with the"])
      #expect(titles.allSatisfy { $0.count <= 15 })
    }
  }

  @Test func dateSwitchOffIgnoresThePickedDate() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/expenses/new")
      let response = try await client.post(
        "/expenses", form: [("title", "Bus"), ("amount", "2"), ("date", "2025-01-01T10:00")])
      #expect(response.status == .seeOther)
      let record = try #require(try await ExpenseTable.query(on: t.db).first())
      #expect(record.spentAt == nil)
    }
  }

  @Test(arguments: [("de-DE", "12,50"), ("en-US", "12.50"), ("uk-UA", "12,50"), ("fr-FR", "12,50")])
  func editFormShowsTheAmountWithTwoDecimalsAsTheLocaleWritesIt(
    locale: String, shown: String
  ) async throws {
    try await withApp { t in
      let client = t.client()
      // The locale's formats, read in the English interface.
      let email = try await client.signUp(acceptLanguage: locale)
      try await client.useLanguage(.en, email: email)
      let id = try await client.addExpense(
        title: "Lunch", amount: locale == "en-US" ? "12.5" : "12,5", category: "Food",
        date: "2025-11-22T15:05", db: t.db)
      let edit = try await client.get("/expenses/\(id.uuidString.lowercased())/edit")
      #expect(edit.status == .ok)
      #expect(edit.body.contains("<h1>Edit expense</h1>"))
      #expect(edit.expenseInput("amount") == shown)
      #expect(edit.expenseInput("title") == "Lunch")
      #expect(edit.expenseInput("date") == "2025-11-22T15:05")
      #expect(edit.body.contains(#"<option value="Food" selected>Food</option>"#))
      #expect(edit.body.contains(#"data-date-toggle aria-controls="date-picker" checked/>"#))
      #expect(edit.body.contains(">Update</button>"))
    }
  }

  @Test func updateChangesTheExpenseAndReturnsToTheFilteredList() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addExpense(title: "Lunch", amount: "12.5", db: t.db)
      let path = "/expenses/\(id.uuidString.lowercased())"
      let edit = try await client.get(path + "/edit?back=%2Fexpenses%3Fcategory%3DFood")
      #expect(edit.body.contains(#"name="back" value="/expenses?category=Food""#))
      let response = try await client.post(
        path,
        form: [
          ("title", "Brunch"), ("amount", "20.05"), ("category", "Food"),
          ("back", "/expenses?category=Food"),
        ])
      #expect(response.status == .seeOther)
      #expect(response.location == "/expenses?category=Food")
      let record = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(record.title == "Brunch")
      #expect(record.amountCents == 2005)
      #expect(record.category == "Food")
      // A return address off the list is ignored.
      try await client.get(path + "/edit")
      let away = try await client.post(
        path,
        form: [("title", "Brunch"), ("amount", "20.05"), ("back", "https://example.com/")])
      #expect(away.location == "/expenses")
    }
  }

  @Test func deleteOffersUndoAndUndoBringsTheExpenseBack() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addExpense(title: "Keep", amount: "1", db: t.db)
      t.clock.advance(by: 1)
      let id = try await client.addExpense(title: "Mistake", amount: "9.99", db: t.db)
      let idText = id.uuidString.lowercased()
      let deleted = try await client.post("/expenses/\(idText)/delete")
      #expect(deleted.status == .seeOther)
      let list = try await client.get("/expenses")
      #expect(list.expenseTitles == ["Keep"])
      #expect(list.body.contains("Deleted \u{201C}Mistake\u{201D}."))
      #expect(list.body.contains(#"action="/expenses/\#(idText)/restore""#))
      #expect(list.body.contains(">Undo</button>"))
      #expect(list.firstMatch(#"id="expense-total">([^<]+)<"#) == "$1.00")
      // The offer is shown once.
      #expect(try await client.get("/expenses").body.contains(">Undo</button>") == false)

      t.clock.advance(by: 9 * 60)
      let restored = try await client.post("/expenses/\(idText)/restore")
      #expect(restored.status == .seeOther)
      let after = try await client.get("/expenses")
      #expect(after.body.contains("Restored \u{201C}Mistake\u{201D}."))
      #expect(after.expenseTitles == ["Mistake", "Keep"])
      #expect(after.firstMatch(#"id="expense-total">([^<]+)<"#) == "$10.99")
    }
  }

  @Test func undoEndsAfterTenMinutes() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addExpense(title: "Gone", amount: "1", db: t.db)
      let idText = id.uuidString.lowercased()
      try await client.post("/expenses/\(idText)/delete")
      try await client.get("/expenses")
      t.clock.advance(by: 10 * 60 + 1)
      let late = try await client.post("/expenses/\(idText)/restore")
      #expect(late.status == .seeOther)
      let list = try await client.get("/expenses")
      #expect(list.body.contains("Too late to undo"))
      #expect(list.expenseTitles.isEmpty)
      // Expired deletes are removed for good.
      #expect(try await ExpenseTable.find(id, on: t.db) == nil)
      #expect(try await client.post("/expenses/\(idText)/restore").status == .notFound)
    }
  }

  @Test func anotherAccountsExpenseIsNotFoundOnEveryPage() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addExpense(title: "Private", amount: "5", db: t.db)
      let path = "/expenses/\(id.uuidString.lowercased())"

      let other = t.client()
      try await other.signUp()
      let edit = try await other.get(path + "/edit")
      #expect(edit.status == .notFound)
      #expect(!edit.body.contains("Private"))
      try await other.get("/expenses")
      #expect(
        try await other.post(path, form: [("title", "Mine"), ("amount", "1")]).status == .notFound)
      #expect(try await other.post(path + "/delete").status == .notFound)
      #expect(try await other.post(path + "/restore").status == .notFound)
      #expect(try await other.get("/expenses/not-a-uuid/edit").status == .notFound)
      #expect(try await other.get("/expenses").expenseTitles.isEmpty)
      let export = try await other.get("/expenses/export.csv")
      #expect(!export.body.contains("Private"))

      let record = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(record.title == "Private")
      #expect(record.deletedAt == nil)
    }
  }

  @Test func formsRefuseAPostWithoutTheCSRFToken() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addExpense(title: "Safe", amount: "5", db: t.db)
      let path = "/expenses/\(id.uuidString.lowercased())"
      let forged = [("title", "Forged"), ("amount", "1")]
      #expect(try await client.post("/expenses", form: forged, csrf: false).status == .forbidden)
      #expect(try await client.post(path, form: forged, csrf: false).status == .forbidden)
      #expect(try await client.post(path + "/delete", csrf: false).status == .forbidden)
      #expect(
        try await client.post(path + "/delete", csrfToken: "wrong").status == .forbidden)
      let upload = try await client.uploadExpenses(
        "date,title,category,amount\n,Forged,Food,1\n", csrf: false)
      #expect(upload.status == .forbidden)
      let records = try await ExpenseTable.query(on: t.db).all()
      #expect(records.map(\.title) == ["Safe"])
      #expect(records.first?.deletedAt == nil)
    }
  }

  @Test func formHandsTheAmountRuleAndTheMessagesToTheScript() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "fr-FR")
      let page = try await client.get("/expenses/new")
      let pattern = AmountTyping.regexPattern(for: .frFR, maxFractionDigits: 2)
      #expect(page.body.contains(#"data-pattern="\#(pattern)""#))
      #expect(page.body.contains(#"data-title-missing="Title must be filled!""#))
      #expect(page.body.contains(#"data-amount-missing="Amount must be filled!""#))
      #expect(page.body.contains(#"data-approved="Approved!""#))
      #expect(page.body.contains(#"data-max-length="15""#))
      #expect(page.body.contains("Amount (EUR)"))
      // A fresh form starts red, as the original did.
      #expect(page.body.contains(#"class="feedback feedback-error" id="field-title-feedback""#))
      #expect(
        page.body.contains(#"<span class="counter muted" id="field-title-count">0/15</span>"#))
      #expect(page.body.contains(#"type="datetime-local""#))
      #expect(!page.body.contains(" style="))
    }
  }

  @Test func currencyWithoutDecimalsRefusesThem() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.switchLocaleForExpenses("ja-JP", currency: "JPY")
      let page = try await client.get("/expenses/new")
      #expect(page.body.contains(#"data-pattern="^(?:[0-9]+)?$""#))
      let refused = try await client.post(
        "/expenses", form: [("title", "Ramen"), ("amount", "980.5")])
      #expect(refused.status == .unprocessableEntity)
      try await client.get("/expenses/new")
      try await client.post("/expenses", form: [("title", "Ramen"), ("amount", "980")])
      let list = try await client.get("/expenses")
      #expect(list.body.contains("¥980"))
    }
  }

  @Test func pagesHoldFiftyExpensesEach() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let store = ExpenseStore(db: t.db, workspaceID: try await t.workspaceID(of: email))
      let expenses = (1...51).map { index in
        Expense(
          title: "Item \(index)", amount: Decimal(index), category: .food,
          date: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 3600))
      }
      try await store.insertAll(expenses, now: t.clock.now)
      let first = try await client.get("/expenses?category=Food")
      #expect(first.expenseTitles.count == 50)
      #expect(first.expenseTitles.first == "Item 51")
      // The one pager of every list, in the words of a list newest first.
      #expect(
        first.body.contains(#"<span class="button page-current" aria-current="page">1</span>"#))
      #expect(
        first.body.contains(
          #"<a href="/expenses?category=Food&amp;page=2" class="button" rel="next">Older →</a>"#))
      let second = try await client.get("/expenses?category=Food&page=2")
      #expect(second.expenseTitles == ["Item 1"])
      #expect(
        second.body.contains(
          #"<a href="/expenses?category=Food&amp;page=1" class="button" rel="prev">← Newer</a>"#))
      // The total covers every page.
      #expect(second.firstMatch(#"id="expense-total">([^<]+)<"#) == "$1,326.00")
      // A page past the end shows the last page.
      let far = try await client.get("/expenses?category=Food&page=9223372036854775807")
      #expect(far.status == .ok)
      #expect(far.expenseTitles == ["Item 1"])
    }
  }
}
