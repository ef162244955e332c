import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Expenses API")
struct ExpenseAPITests {
  @Test func withoutATokenItIsUnauthorized() async throws {
    try await withApp { t in
      let client = t.client()
      let routes: [(HTTPMethod, String)] = [
        (.GET, "/api/v1/expenses"), (.POST, "/api/v1/expenses"),
        (.GET, "/api/v1/expenses/summary"), (.GET, "/api/v1/expenses/\(UUID())"),
        (.PUT, "/api/v1/expenses/\(UUID())"), (.DELETE, "/api/v1/expenses/\(UUID())"),
      ]
      for (method, path) in routes {
        // A token that is not valid, and (for reads) no credentials at all. Writes without any
        // credentials are refused earlier, by the CSRF check.
        for token in method == .GET ? [nil, "bo_nope"] : ["bo_nope"] {
          let response = try await client.expensesAPI(method, path, token: token, json: "{}")
          #expect(response.status == .unauthorized, "\(method) \(path) \(token ?? "none")")
          #expect(try response.json()["error"] != nil)
        }
      }
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }

  @Test func createReadReplaceDelete() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "de-DE")
      let token = try await client.createToken()
      let created = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token,
        json:
          #"{"title": "Coffee", "amount": "3.5", "category": "food", "date": "2025-11-22T17:05:00+02:00"}"#
      )
      #expect(created.status == .created, "\(created.body)")
      let item = try created.json()
      let id = try #require(item["id"] as? String)
      #expect(created.location == "/api/v1/expenses/\(id.lowercased())")
      #expect(item["title"] as? String == "Coffee")
      #expect(item["amount"] as? String == "3.50")
      #expect(item["currency"] as? String == "EUR")
      #expect(item["category"] as? String == "Food")
      #expect(item["date"] as? String == "2025-11-22T15:05:00Z")
      #expect(item["created_at"] is String)

      let read = try await client.expensesAPI(.GET, "/api/v1/expenses/\(id)", token: token)
      #expect(read.status == .ok)
      #expect(try read.json()["amount"] as? String == "3.50")

      let replaced = try await client.expensesAPI(
        .PUT, "/api/v1/expenses/\(id)", token: token,
        json: #"{"title": "Flat white coffee with oat milk", "amount": "4", "date": null}"#)
      #expect(replaced.status == .ok, "\(replaced.body)")
      let after = try replaced.json()
      #expect(after["title"] as? String == "Flat white coff")
      #expect(after["amount"] as? String == "4.00")
      #expect(after["category"] as? String == "Personal")
      #expect(after["date"] is NSNull)

      let deleted = try await client.expensesAPI(.DELETE, "/api/v1/expenses/\(id)", token: token)
      #expect(deleted.status == .noContent)
      #expect(
        try await client.expensesAPI(.GET, "/api/v1/expenses/\(id)", token: token).status
          == .notFound)
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
    }
  }

  @Test func invalidBodiesGetAMessagePerField() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let bad = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token,
        json: #"{"title": " ", "amount": "12,50", "category": "Rent", "date": "yesterday"}"#)
      #expect(bad.status == .unprocessableEntity)
      let error = try #require(bad.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "validation_failed")
      let fields = try #require(error["fields"] as? [String: String])
      #expect(fields["title"] == "Title must be filled!")
      #expect(
        fields["amount"] == "Amount must be a number with a dot before the decimals, e.g. 12.50.")
      #expect(fields["category"] == ExpenseMessages.categoryUnknown)
      #expect(fields["date"] == ExpenseMessages.dateInvalid)

      // A JSON number may already have lost cents on the client's side: ask for a string.
      let number = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token, json: #"{"title": "Tea", "amount": 12.5}"#)
      #expect(number.status == .unprocessableEntity)
      let numberFields = try #require(
        (number.json()["error"] as? [String: Any])?["fields"] as? [String: String])
      #expect(numberFields["amount"] == ExpensesAPIController.amountNotStringMessage)

      for amount in ["12.345", "0", "-1", "1e3", "1,000.00"] {
        let response = try await client.expensesAPI(
          .POST, "/api/v1/expenses", token: token,
          json: #"{"title": "Tea", "amount": "\#(amount)"}"#)
        #expect(response.status == .unprocessableEntity, "\(amount)")
      }
      #expect(try await ExpenseTable.query(on: t.db).count() == 0)
      let broken = try await client.expensesAPI(
        .POST, "/api/v1/expenses", token: token, json: #"{"title": "#)
      #expect(broken.status == .badRequest)
    }
  }

  @Test func listIsPagedFilteredAndInListOrder() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for (title, amount, category, date) in [
        ("Bread", "2.40", "Food", "2025-11-01T09:00:00Z"),
        ("Bus", "1.90", "Transport", "2025-11-03T09:00:00Z"),
        ("Gift", "25", "Personal", nil),
        ("Cheese", "7.15", "Food", "2025-10-20T09:00:00Z"),
      ] as [(String, String, String, String?)] {
        t.clock.advance(by: 1)
        let date = date.map { #""\#($0)""# } ?? "null"
        let response = try await client.expensesAPI(
          .POST, "/api/v1/expenses", token: token,
          json:
            #"{"title": "\#(title)", "amount": "\#(amount)", "category": "\#(category)", "date": \#(date)}"#
        )
        #expect(response.status == .created)
      }
      let all = try await client.expensesAPI(.GET, "/api/v1/expenses", token: token).json()
      #expect(all["total"] as? Int == 4)
      #expect(all["page"] as? Int == 1)
      #expect(all["per"] as? Int == 50)
      let titles = (all["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
      #expect(titles == ["Bus", "Bread", "Cheese", "Gift"])

      let second = try await client.expensesAPI(
        .GET, "/api/v1/expenses?per=2&page=2", token: token
      ).json()
      #expect(second["total"] as? Int == 4)
      #expect(
        (second["items"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
          == ["Cheese", "Gift"])

      let food = try await client.expensesAPI(
        .GET, "/api/v1/expenses?category=Food&month=2025-11", token: token
      ).json()
      #expect(food["total"] as? Int == 1)
      let searched = try await client.expensesAPI(
        .GET, "/api/v1/expenses?q=BRE&from=2025-11-01&to=2025-11-01", token: token
      ).json()
      #expect(searched["total"] as? Int == 1)

      let far = try await client.expensesAPI(
        .GET, "/api/v1/expenses?per=100&page=1000000", token: token)
      #expect(far.status == .ok)
      #expect((try far.json()["items"] as? [Any])?.isEmpty == true)
      #expect(try far.json()["total"] as? Int == 4)

      for query in [
        "per=101", "per=0", "page=0", "page=x", "month=2025-13", "category=Rent",
        "page=9223372036854775807", "page=1000001",
      ] {
        let response = try await client.expensesAPI(
          .GET, "/api/v1/expenses?\(query)", token: token)
        #expect(response.status == .unprocessableEntity, "\(query)")
      }
    }
  }

  @Test func summaryTotalsEachCategoryForAPeriod() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk-UA")
      let token = try await client.createToken()
      for (amount, category, date) in [
        ("0.10", "Food", "2025-11-01"), ("0.20", "Food", "2025-11-30T23:59:59Z"),
        ("100", "Savings", "2025-11-15"), ("5", "Food", "2025-12-01"), ("9", "Hobby", nil),
      ] as [(String, String, String?)] {
        let date = date.map { #""\#($0)""# } ?? "null"
        try await client.expensesAPI(
          .POST, "/api/v1/expenses", token: token,
          json:
            #"{"title": "x", "amount": "\#(amount)", "category": "\#(category)", "date": \#(date)}"#
        )
      }
      let summary = try await client.expensesAPI(
        .GET, "/api/v1/expenses/summary?month=2025-11", token: token)
      #expect(summary.status == .ok)
      let body = try summary.json()
      #expect(body["currency"] as? String == "UAH")
      #expect(body["total"] as? String == "100.30")
      #expect(body["count"] as? Int == 3)
      let filter = try #require(body["filter"] as? [String: Any])
      #expect(filter["month"] as? String == "2025-11")
      #expect(filter["from"] is NSNull)
      let lines = try #require(body["categories"] as? [[String: Any]])
      #expect(
        lines.compactMap { $0["category"] as? String } == ExpenseCategory.allCases.map(\.rawValue))
      let food = try #require(lines.first { $0["category"] as? String == "Food" })
      #expect(food["total"] as? String == "0.30")
      #expect(food["count"] as? Int == 2)
      #expect(food["percent"] as? Int == 0)
      let savings = try #require(lines.first { $0["category"] as? String == "Savings" })
      #expect(savings["percent"] as? Int == 100)
      let hobby = try #require(lines.first { $0["category"] as? String == "Hobby" })
      #expect(hobby["total"] as? String == "0.00")

      let everything = try await client.expensesAPI(
        .GET, "/api/v1/expenses/summary", token: token
      ).json()
      #expect(everything["total"] as? String == "114.30")
      let bad = try await client.expensesAPI(
        .GET, "/api/v1/expenses/summary?month=2025-11&to=2025-11-02", token: token)
      #expect(bad.status == .unprocessableEntity)
    }
  }

  @Test func anotherAccountsExpenseIsNotFound() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addExpense(title: "Private", amount: "5", db: t.db)
      let path = "/api/v1/expenses/\(id.uuidString.lowercased())"

      let other = t.client()
      try await other.signUp()
      let token = try await other.createToken()
      let read = try await other.expensesAPI(.GET, path, token: token)
      #expect(read.status == .notFound)
      #expect(!read.body.contains("Private"))
      #expect(
        try await other.expensesAPI(
          .PUT, path, token: token, json: #"{"title": "Mine", "amount": "1"}"#
        ).status == .notFound)
      #expect(try await other.expensesAPI(.DELETE, path, token: token).status == .notFound)
      #expect(
        try await other.expensesAPI(.GET, "/api/v1/expenses/nope", token: token).status
          == .notFound)
      let list = try await other.expensesAPI(.GET, "/api/v1/expenses", token: token).json()
      #expect(list["total"] as? Int == 0)
      let summary = try await other.expensesAPI(.GET, "/api/v1/expenses/summary", token: token)
      #expect(try summary.json()["total"] as? String == "0.00")
      let record = try #require(try await ExpenseTable.find(id, on: t.db))
      #expect(record.title == "Private")
    }
  }

  @Test func theBrowserSessionNeedsTheCSRFHeaderToWrite() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let json = #"{"title": "Tea", "amount": "1"}"#
      let refused = try await client.send(
        .POST, "/api/v1/expenses", headers: ["Content-Type": "application/json"], body: json)
      #expect(refused.status == .forbidden)
      let accepted = try await client.send(
        .POST, "/api/v1/expenses",
        headers: ["Content-Type": "application/json", "X-CSRF-Token": client.csrf ?? ""],
        body: json)
      #expect(accepted.status == .created)
    }
  }
}
