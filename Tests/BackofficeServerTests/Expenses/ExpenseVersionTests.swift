import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Expenses: record versions", .serialized)
struct ExpenseVersionTests {
  static func form(
    title: String, amount: String, category: String = "Food", date: String? = nil
  ) -> [(String, String)] {
    var form = [("title", title), ("amount", amount), ("category", category)]
    if let date { form += [("has_date", "1"), ("date", date)] }
    return form
  }

  @Test func aStaleFormSaveIsRefusedWithBothValuesAndASecondSubmitSaves() async throws {
    try await withApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addExpense(
        title: "Lunch", amount: "12.50", category: "Food", db: t.db)
      let second = t.client()
      _ = try await second.signIn(email: email)
      let edit = "/expenses/\(id.uuidString)/edit"
      #expect(try await first.get(edit).body.contains(#"name="version" value="1""#))
      try await second.get(edit)
      let saved = try await second.post(
        "/expenses/\(id.uuidString)",
        form: Self.form(title: "Lunch", amount: "14.00", date: "2026-11-03T12:00"))
      #expect(saved.status == .seeOther)

      let stale = try await first.post(
        "/expenses/\(id.uuidString)",
        form: Self.form(title: "Team lunch", amount: "12.5", category: "Food")
          + [("version", "1")])
      #expect(stale.status == .conflict)
      #expect(stale.body.contains("This expense was changed since you opened it"))
      #expect(stale.expenseInput("title") == "Team lunch", "what was typed is kept")
      #expect(stale.expenseInput("amount") == "12.5")
      #expect(stale.body.contains("Saved now:</span> <strong>Lunch</strong>"))
      #expect(stale.body.contains("Saved now:</span> <strong>14.00</strong>"))
      #expect(stale.body.contains("Saved now:</span> <strong>2026-11-03 12:00 UTC</strong>"))
      #expect(!stale.body.contains(#"id="field-category-saved""#))
      #expect(stale.body.contains(#"name="version" value="2""#))
      var record = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(record.title == "Lunch")
      #expect(record.amountCents == 1400)

      let again = try await first.post(
        "/expenses/\(id.uuidString)",
        form: Self.form(title: "Team lunch", amount: "12.5", category: "Food"))
      #expect(again.status == .seeOther)
      record = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(record.title == "Team lunch")
      #expect(record.amountCents == 1250)
      #expect(record.spentAt == nil)
      #expect(record.version == 3)
    }
  }

  @Test func aDeletedExpenseIsAClearMessageAndUndoCountsAsAChange() async throws {
    try await withApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addExpense(title: "Taxi", amount: "20", db: t.db)
      let second = t.client()
      _ = try await second.signIn(email: email)
      try await first.get("/expenses/\(id.uuidString)/edit")
      try await second.get("/expenses/\(id.uuidString)/edit")
      #expect(try await first.post("/expenses/\(id.uuidString)/delete").status == .seeOther)

      let again = try await second.post("/expenses/\(id.uuidString)/delete")
      #expect(again.status == .notFound)
      #expect(again.body.contains("This expense no longer exists"))
      let save = try await second.post(
        "/expenses/\(id.uuidString)", form: Self.form(title: "Taxi home", amount: "22"))
      #expect(save.status == .notFound)
      #expect(save.body.contains("<dd>Taxi home</dd>"))
      #expect(save.body.contains("Undo"))

      // Restored, the expense is not the one the old form was opened on: deleting and
      // restoring are changes too.
      try await first.get("/expenses")
      #expect(try await first.post("/expenses/\(id.uuidString)/restore").status == .seeOther)
      #expect(try await ExpenseTable.find(id, on: t.db)?.version == 3)
      let late = try await second.post(
        "/expenses/\(id.uuidString)",
        form: Self.form(title: "Taxi home", amount: "22") + [("version", "1")])
      #expect(late.status == .conflict)
    }
  }

  @Test func theAPISendsETagsAndHonoursIfMatch() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.api(
        .POST, "/api/v1/expenses", token: token,
        json: #"{"title": "Coffee", "amount": "3.20", "category": "Food"}"#)
      #expect(created.status == .created)
      #expect(created.headers.first(name: .eTag) == #""1""#)
      let id = try #require(try created.json()["id"] as? String)
      let path = "/api/v1/expenses/\(id)"
      let list = try await client.api(.GET, "/api/v1/expenses", token: token)
      let items = try #require(try list.json()["items"] as? [[String: Any]])
      #expect(items.first?["version"] as? Int == 1)
      #expect(try await client.api(.GET, path, token: token).headers.first(name: .eTag) == #""1""#)

      let body = #"{"title": "Coffee x2", "amount": "6.40", "category": "Food"}"#
      let mismatch = try await client.api(
        .PUT, path, token: token, json: body, headers: ["If-Match": #"W/"1""#])
      #expect(mismatch.status == .preconditionFailed, "a weak tag never matches")
      #expect(try await ExpenseTable.query(on: t.db).first()?.title == "Coffee")
      t.clock.advance(by: 60)
      let matched = try await client.api(
        .PUT, path, token: token, json: body, headers: ["If-Match": #""1""#])
      #expect(matched.status == .ok)
      #expect(matched.headers.first(name: .eTag) == #""2""#)
      #expect(try matched.json()["version"] as? Int == 2)
      // The answer is the expense as saved: a read afterwards gives the same bytes, the new
      // change time included.
      #expect(try await client.api(.GET, path, token: token).body == matched.body)
      #expect(
        try matched.json()["updated_at"] as? String != created.json()["updated_at"] as? String)

      let staleDelete = try await client.api(
        .DELETE, path, token: token, headers: ["If-Match": #""1""#])
      #expect(staleDelete.status == .preconditionFailed)
      #expect(try await ExpenseTable.query(on: t.db).count() == 1)
      let delete = try await client.api(.DELETE, path, token: token, headers: ["If-Match": "*"])
      #expect(delete.status == .noContent)
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }

  @Test func ofTwoParallelSavesWithOneVersionExactlyOneWins() async throws {
    try await withApp { t in
      let owner = t.client()
      let email = try await owner.signUp()
      let token = try await owner.createToken()
      let id = try await owner.addExpense(title: "Raced", amount: "1", db: t.db)
      let path = "/api/v1/expenses/\(id.uuidString)"
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for amount in ["2.00", "3.00"] {
          group.addTask {
            try await t.client().api(
              .PUT, path, token: token,
              json: #"{"title": "Raced", "amount": "\#(amount)", "category": "Food"}"#,
              headers: ["If-Match": #""1""#]
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.sorted { $0.code < $1.code } == [.ok, .preconditionFailed])

      let browsers = [t.client(), t.client()]
      for browser in browsers {
        _ = try await browser.signIn(email: email)
        try await browser.get("/expenses/\(id.uuidString)/edit")
      }
      let forms = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for (index, browser) in browsers.enumerated() {
          group.addTask {
            try await browser.post(
              "/expenses/\(id.uuidString)", form: Self.form(title: "Form \(index)", amount: "4")
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(forms.sorted { $0.code < $1.code } == [.seeOther, .conflict])
      #expect(try await ExpenseTable.find(id, on: t.db)?.version == 3)
    }
  }
}
