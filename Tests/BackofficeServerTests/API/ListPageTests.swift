import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Every list of the API reads its paging through `Paging` and answers with `ListPage`: the same
/// parameters, limits, messages and body shape everywhere.
@Suite("API lists: paging")
struct ListPageTests {
  static let lists = [
    "/api/v1/products", "/api/v1/favorites", "/api/v1/ad-payments", "/api/v1/expenses",
    "/api/v1/fundraisers", "/api/v1/marketing/plans",
  ]

  /// The one set of messages, pinned: a change here is a change for every client.
  static let refused: [(query: String, field: String, message: String)] = [
    ("page=0", "page", "Use a whole number from 1 to 1000000."),
    ("page=x", "page", "Use a whole number from 1 to 1000000."),
    ("page=9223372036854775807", "page", "Use a whole number from 1 to 1000000."),
    ("page=1000001", "page", "Use a whole number from 1 to 1000000."),
    ("page=-1", "page", "Use a whole number from 1 to 1000000."),
    ("per_page=101", "per_page", "Use a whole number from 1 to 100."),
    ("per_page=0", "per_page", "Use a whole number from 1 to 100."),
    ("per=500", "per", "Use a whole number from 1 to 100."),
    ("per=1.5", "per", "Use a whole number from 1 to 100."),
    ("per_page=20&per=101", "per", "Use a whole number from 1 to 100."),
  ]

  @Test(arguments: lists)
  func badPagingIsNamedUnderItsParameter(path: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      for (query, field, message) in Self.refused {
        let response = try await client.get("\(path)?\(query)")
        #expect(response.status == .unprocessableEntity, "\(path)?\(query)")
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "validation_failed")
        #expect((error["fields"] as? [String: String]) == [field: message], "\(path)?\(query)")
      }
      // The largest values allowed are answered, with an empty page.
      let far = try await client.get("\(path)?page=1000000&per_page=100")
      #expect(far.status == .ok, "\(path): \(far.body)")
      #expect(try far.json()["items"] as? [Any] != nil)
    }
  }

  /// The one list below a record, a fundraiser's jar snapshots, pages the same way.
  @Test func aFundraisersSnapshotsArePagedTheSameWay() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.send(
        .POST, "/api/v1/fundraisers", headers: FundraiserAPITests.bearer(token),
        body: try FundraiserAPITests.body([
          "purpose": "На дрон", "template": 1, "photo": FundraiserAPITests.photoBase64,
        ]))
      #expect(created.status == .created, "\(created.body)")
      let id = try #require(try created.json()["id"] as? String)
      let path = "/api/v1/fundraisers/\(id)/snapshots"
      for (query, field, message) in Self.refused {
        let response = try await client.get("\(path)?\(query)")
        #expect(response.status == .unprocessableEntity, "\(path)?\(query)")
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect((error["fields"] as? [String: String]) == [field: message], "\(path)?\(query)")
      }
      let page = try await client.get("\(path)?per_page=5")
      #expect(page.status == .ok, "\(page.body)")
      let body = try page.json()
      #expect(body["per_page"] as? Int == 5)
      #expect(body["has_more"] as? Bool == false)
      #expect(body["items"] as? [Any] != nil)
    }
  }

  @Test func pagesSayWhetherMoreFollowAndLinkToTheirNeighbours() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for title in ["Tea", "Bus", "Soap"] {
        let created = try await client.expensesAPI(
          .POST, "/api/v1/expenses", token: token,
          json: #"{"title": "\#(title)", "amount": "1", "category": "food"}"#)
        #expect(created.status == .created)
      }

      let first = try await client.expensesAPI(
        .GET, "/api/v1/expenses?category=food&per_page=2", token: token)
      let body = try first.json()
      #expect((body["items"] as? [Any])?.count == 2)
      #expect(body["page"] as? Int == 1)
      #expect(body["per_page"] as? Int == 2)
      #expect(body["per"] as? Int == 2)
      #expect(body["total"] as? Int == 3)
      #expect(body["has_more"] as? Bool == true)
      #expect(
        first.headers.first(name: .link)
          == #"</api/v1/expenses?category=food&per_page=2&page=2>; rel="next""#)

      // `per` is the older name of `per_page`.
      let second = try await client.expensesAPI(
        .GET, "/api/v1/expenses?page=2&per=2", token: token)
      let last = try second.json()
      #expect((last["items"] as? [Any])?.count == 1)
      #expect(last["has_more"] as? Bool == false)
      #expect(second.headers.first(name: .link) == #"</api/v1/expenses?per=2&page=1>; rel="prev""#)

      // Past the end: empty, and `prev` leads back to the last page with items.
      let past = try await client.expensesAPI(
        .GET, "/api/v1/expenses?page=9&per_page=2", token: token)
      #expect((try past.json()["items"] as? [Any])?.isEmpty == true)
      #expect(try past.json()["has_more"] as? Bool == false)
      #expect(
        past.headers.first(name: .link) == #"</api/v1/expenses?per_page=2&page=2>; rel="prev""#)

      // Whatever a client put in the query stays inside the link's brackets.
      let odd = try await client.expensesAPI(
        .GET, "/api/v1/expenses?per_page=1&note=%3E%22%2C%20x&page=1", token: token)
      #expect(odd.status == .ok)
      let link = try #require(odd.headers.first(name: .link))
      #expect(link.hasPrefix("</api/v1/expenses?per_page=1&note="))
      #expect(link.hasSuffix(#"&page=2>; rel="next""#))
      #expect(
        link.dropFirst().dropLast(#">; rel="next""#.count).allSatisfy { !"<>\" ".contains($0) })

      // A single page has no links.
      let whole = try await client.expensesAPI(.GET, "/api/v1/expenses", token: token)
      #expect(whole.headers.first(name: .link) == nil)
      #expect(try whole.json()["per_page"] as? Int == 50)
    }
  }

  /// `per_page` wins over `per` when a client sends both.
  @Test func perPageWinsOverPer() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let response = try await client.get("/api/v1/products?per=7&per_page=3")
      #expect(try response.json()["per_page"] as? Int == 3)
    }
  }

  /// The HTML lists never refuse a page number: nonsense is page 1, huge numbers show the last
  /// page, and nothing overflows.
  @Test(arguments: ["/products", "/ad-payments", "/expenses", "/fundraisers", "/marketing"])
  func pagesTakeAnyPageNumber(path: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      for page in ["x", "-5", "0", "9223372036854775807", "99999999999999999999", "1000001"] {
        let response = try await client.get("\(path)?page=\(page)")
        #expect(response.status == .ok, "\(path)?page=\(page)")
      }
    }
  }
}
