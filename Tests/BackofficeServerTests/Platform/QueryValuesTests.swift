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

/// Generated queries, read by the plain parser and by Vapor's decoder, and page links built
/// with and without Foundation: both must agree on every one.
@Suite("Query fast paths")
struct QueryFastPathTests {
  /// Pieces a client might send, hostile ones included.
  static let pieces = [
    "q", "page", "per", "a", "", "=", "&", "+", "%20", "%2B", "%26", "%3D", "%zz", "%", "%4",
    "%D0%BB",
    "%FF", "[", "]", "%5B", "%5D", "x", "1", "-", "_", ".", "~", "лампа", " ", "#", "%00",
  ]

  static func queries(count: Int) -> [String] {
    var generator = SplitMix(seed: 24)
    return (0..<count).map { _ in
      let length = Int(generator.next() % 8)
      return (0..<length).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }
        .joined()
    }
  }

  @Test func plainParserReadsAsVaporDecoder() async throws {
    try await withApp { t in
      var plainCount = 0
      for query in Self.queries(count: 4_000) {
        let request = Request(
          application: t.app, method: .GET, url: URI(string: "/api/v1/products?" + query),
          on: t.app.eventLoopGroup.next())
        guard let plain = QueryValues.parsePlain(request.url.query ?? "") else { continue }
        plainCount += 1
        let vapor = (try? request.query.decode(QueryValues.self)) ?? QueryValues()
        #expect(plain.values == vapor.values, "\(query)")
      }
      // Most generated queries take the plain path, so the comparison means something.
      #expect(plainCount > 2_000)
    }
  }

  @Test func plainLinksMatchFoundation() {
    var plainCount = 0
    for query in Self.queries(count: 4_000) {
      guard let plain = ListPage<Int>.plainQuery(query, page: 7) else { continue }
      plainCount += 1
      #expect(
        plain == ListPage<Int>.encodedQuery("/api/v1/products?" + query, page: 7), "\(query)")
    }
    #expect(plainCount > 500)
    #expect(ListPage<Int>.plainQuery("q=a%20b", page: 2) == nil)
    #expect(ListPage<Int>.plainQuery("q=lamp&page=3&per=20", page: 4) == "q=lamp&per=20&page=4")
  }
}

/// A small deterministic generator, so a failure names a query that fails again.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
