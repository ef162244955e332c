import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// The review's numbers: 93 expenses of 999 999 999 999 999.99, each accepted on its own, made
/// SQLite's 64-bit SUM overflow and the list, the API summary and the home page answer 500.
@Suite("Totals of the largest amounts")
struct ExpenseOverflowTests {
  static let largest = "999999999999999.99"

  /// 93 of the largest amount, dated now so the home page's month has them too: 50 Food and
  /// 43 Hobby.
  static func fill(_ t: TestApp, email: String) async throws {
    let workspaceID = try await t.workspaceID(of: email)
    let amount = ExpenseFixtures.decimal(largest)
    let expenses = (0..<93).map { index in
      Expense(
        title: "Big \(index)", amount: amount, category: index < 50 ? .food : .hobby,
        date: t.clock.now)
    }
    try await ExpenseStore(db: t.db, workspaceID: workspaceID).insertAll(
      expenses, now: t.clock.now)
  }

  @Test func the93LargestAmountsAddUpExactlyEverywhere() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let token = try await client.createToken()
      try await Self.fill(t, email: email)

      let summary = try await client.expensesAPI(
        .GET, "/api/v1/expenses/summary", token: token)
      #expect(summary.status == .ok, "\(summary.body)")
      let json = try summary.json()
      #expect(json["total"] as? String == "92999999999999999.07")
      #expect(json["count"] as? Int == 93)
      let lines = try #require(json["categories"] as? [[String: Any]])
      let food = try #require(lines.first { $0["category"] as? String == "Food" })
      let hobby = try #require(lines.first { $0["category"] as? String == "Hobby" })
      #expect(food["total"] as? String == "49999999999999999.50")
      #expect(food["percent"] as? Int == 54)
      #expect(hobby["total"] as? String == "42999999999999999.57")
      #expect(hobby["percent"] as? Int == 46)

      let list = try await client.get("/expenses")
      #expect(list.status == .ok)
      #expect(list.body.contains("$92,999,999,999,999,999.07"))
      #expect(list.body.contains("$49,999,999,999,999,999.50"))

      let home = try await client.get("/")
      #expect(home.status == .ok)
      #expect(home.body.contains("$92,999,999,999,999,999.07"))
      #expect(home.body.contains("93 expenses"))

      let csv = try await client.get("/expenses/export.csv")
      #expect(csv.status == .ok)
      #expect(csv.body.components(separatedBy: ",\(Self.largest),\r\n").count - 1 == 93)
    }
  }

  /// Far beyond 93: the split sums stay exact (a thousand rows of the largest amount, summed
  /// by the database, equal Core's own sum).
  @Test func aThousandLargestAmountsAreExactToTheCent() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let workspaceID = try await t.workspaceID(of: email)
      let amounts = (0..<1000).map { index in
        ExpenseFixtures.decimal(index.isMultiple(of: 3) ? Self.largest : "999999999999998.01")
      }
      let expenses = amounts.map { Expense(title: "Big", amount: $0, category: .savings) }
      let store = ExpenseStore(db: t.db, workspaceID: workspaceID)
      try await store.insertAll(expenses, now: t.clock.now)
      let totals = try await store.totals(ExpenseFilter())
      #expect(totals.total == ExpenseTotals(expenses: expenses).total)
      #expect(MoneyFormat.decimalString(totals.total) == "999999999999998671.32")
      #expect(totals.count == 1000)
    }
  }

  @Test func splitSumsAreCombinedExactly() {
    #expect(ExpenseStore.amount(highText: "0", lowText: "0") == 0)
    #expect(
      ExpenseStore.amount(highText: "9299999907", lowText: "92999999907")
        == ExpenseFixtures.decimal("92999999999999999.07"))
    #expect(ExpenseStore.amount(highText: "x", lowText: "1") == nil)
    #expect(ExpenseStore.amount(highText: "1", lowText: "1.5") == nil)
  }
}
