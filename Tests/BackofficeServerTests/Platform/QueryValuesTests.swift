import Testing
import Vapor

@testable import BackofficeServer

/// `req.queryValue` parses once but must read every query exactly as Vapor's `req.query` does.
@Suite("Query values")
struct QueryValuesTests {
  static let queries = [
    "", "q=lamp", "q=desk+lamp&page=2", "q=%D0%BB%D0%B0%D0%BC%D0%BF%D0%B0", "page=1&page=3",
    "q[x]=1&page=2", "q=a=b", "q=&page=", "&&q=x&&", "q=%zz&page=2", "q", "per=20&per_page=40",
    "q=%2B1%20%26%20more", "type=Service&sort=price_desc", "q[=1", "%5Bq%5D=1",
    "q="
      + String(
        repeating: "x", count: 10_000),
  ]
  static let names = ["q", "page", "per", "per_page", "type", "sort", "x", "[q]"]

  @Test(arguments: queries) func readsAsVaporReads(_ query: String) async throws {
    try await withApp { t in
      let request = Request(
        application: t.app, method: .GET, url: URI(string: "/api/v1/products?" + query),
        on: t.app.eventLoopGroup.next())
      for name in Self.names {
        #expect(
          request.queryValue(name) == request.query[String.self, at: name], "\(name) in \(query)")
      }
    }
  }
}
