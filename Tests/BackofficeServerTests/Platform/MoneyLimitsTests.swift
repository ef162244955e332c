import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// The largest amounts each area accepts, added up or divided wherever the app does it:
/// fundraiser targets, jar amounts and the overview's sums; product prices (shown, never
/// summed). Expense totals have their own suite (`ExpenseOverflowTests`).
@Suite("Money at its limits")
struct MoneyLimitsTests {
  /// Two fundraisers with the largest target a person can type and jars reporting the most
  /// kopiykas the service's 64-bit numbers hold: every page and the API answer, and the
  /// overview's sum of both jars (beyond 64 bits of kopiykas) is exact.
  @Test(.ukrainian) func fundraisersWithTheLargestAmountsAddUp() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      var ids: [UUID] = []
      for purpose in ["Перший", "Другий"] {
        let id = try await client.addFundraiser(
          purpose: purpose, target: "999 999 999 999,99", showProgress: true)
        let jar = try #require(JarID(rawValue: "StubJar001"))
        try await JarSnapshots.store(
          JarSnapshotRecord(
            fundraiserID: id, jarID: jar, takenAt: t.clock.now,
            result: .success(
              JarSnapshotValue(amountKopiykas: .max, goalKopiykas: .max, status: .active))
          ), on: t.db)
        ids.append(id)
      }

      let home = try await client.get("/")
      #expect(home.status == .ok)
      let nbsp = "\u{00A0}"
      let sum = ["184", "467", "440", "737", "095", "516,14"].joined(separator: nbsp)
      #expect(home.body.contains("Зібрано: \(sum)\(nbsp)грн."))

      #expect(try await client.get("/fundraisers").status == .ok)
      let page = try await client.get("/fundraisers/\(ids[0].uuidString.lowercased())")
      #expect(page.status == .ok)

      let api = try await client.api(
        .GET, "/api/v1/fundraisers/\(ids[0].uuidString.lowercased())", token: token)
      #expect(api.status == .ok)
      let body = try api.json()
      #expect(body["target"] as? String == "999999999999.99")
      let progress = try #require(body["progress"] as? [String: Any])
      #expect(progress["collected"] as? String == "92233720368547758.07")
      #expect(progress["goal"] as? String == "999999999999.99")
      #expect(progress["percent"] as? Int == 9_223_372)
      let poster = try await client.api(
        .GET, "/api/v1/fundraisers/\(ids[0].uuidString.lowercased())/poster.svg", token: token)
      #expect(poster.status == .ok)
    }
  }

  @Test func theLargestProductPriceIsShownExactly() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let id = try await client.addProduct(name: "Yacht", price: "999999999999.99", db: t.db)
      let list = try await client.get("/products")
      #expect(list.status == .ok)
      #expect(list.body.contains("999,999,999,999.99"))
      let item = try await client.api(
        .GET, "/api/v1/products/\(id.uuidString.lowercased())", token: token)
      #expect(item.status == .ok)
      #expect(try item.json()["price"] as? String == "999999999999.99")
    }
  }

  @Test func apiAmountsAreExactBeyond64BitKopiykas() {
    #expect(
      FundraiserFormat.apiAmount(Decimal(string: "184467440737095516.14")!)
        == "184467440737095516.14")
    #expect(FundraiserFormat.apiAmount(Decimal(string: "15000.5")!) == "15000.50")
    #expect(FundraiserFormat.apiAmount(Decimal(string: "-0.001")!) == "0.00")
    #expect(FundraiserFormat.apiAmount(kopiykas: 5) == "0.05")
  }
}
