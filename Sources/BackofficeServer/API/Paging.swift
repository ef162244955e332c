import BackofficeCore
import Vapor

/// Which page of a list a request asks for: the one reader of `page` and `per_page` (or its
/// older name `per`) for every list of the API and every paged HTML page.
struct Paging: Sendable, Equatable {
  /// The highest page number any list accepts: far past any real list, and small enough that
  /// `offset` never overflows.
  static let maxPage = 1_000_000
  /// The most items one page of the API holds.
  static let maxPerPage = 100
  /// Items per page when the request does not say.
  static let defaultPerPage = 50

  var page: Int
  var perPage: Int

  /// Rows before this page.
  var offset: Int { (page - 1) * perPage }

  init(page: Int = 1, perPage: Int = Paging.defaultPerPage) {
    self.page = min(max(page, 1), Self.maxPage)
    self.perPage = min(max(perPage, 1), Self.maxPerPage)
  }

  /// The messages, one per parameter, for a value that is not a whole number in range.
  enum Message {
    static var page: String { L("api.paging.range", ["max": String(Paging.maxPage)]) }
    static var perPage: String { L("api.paging.range", ["max": String(Paging.maxPerPage)]) }
  }

  /// Reads `page` and `per_page` (`per` is accepted under its own name); a problem is added to
  /// `problems` under the parameter's name, so a handler that checks other parameters too can
  /// report them all at once.
  static func read(_ req: Request, into problems: inout [String: String]) -> Paging {
    var paging = Paging()
    if let raw = req.queryValue("page") {
      if let value = number(raw, in: 1...maxPage) {
        paging.page = value
      } else {
        problems["page"] = Message.page
      }
    }
    // Both names are checked when both are sent; `per_page` wins (it is read last).
    for name in ["per", "per_page"] {
      guard let raw = req.queryValue(name) else { continue }
      if let value = number(raw, in: 1...maxPerPage) {
        paging.perPage = value
      } else {
        problems[name] = Message.perPage
      }
    }
    return paging
  }

  /// Reads `page` and `per_page`; a 422 naming the parameter when either is out of range.
  static func read(_ req: Request) throws -> Paging {
    var problems: [String: String] = [:]
    let paging = read(req, into: &problems)
    guard problems.isEmpty else { throw APIError.validation(problems) }
    return paging
  }

  /// The page an HTML list asks for, never refused: anything that is not a whole number counts
  /// as 1, and numbers are kept within 1…`maxPage` (the page then shows its last page when the
  /// number is past the end).
  static func pageNumber(_ req: Request) -> Int {
    guard let raw = req.queryValue("page"),
      let value = Int(raw.trimmingCharacters(in: .whitespaces))
    else { return 1 }
    return min(max(value, 1), maxPage)
  }

  private static func number(_ raw: String, in range: ClosedRange<Int>) -> Int? {
    guard let value = Int(raw), range.contains(value) else { return nil }
    return value
  }
}

/// Which page of a list is shown, out of how many: the one piece of page arithmetic for every
/// paged HTML list and the API's `Link` header. A page past the end (an old link after deletes,
/// a typed number) is the last page. Any count works: nothing overflows, and there are never
/// more than `Paging.maxPage` pages, the most a request can ask for.
struct PageWindow: Sendable, Equatable {
  /// 1…`pageCount`.
  let page: Int
  /// At least 1: an empty list has one, empty, page.
  let pageCount: Int

  init(requested: Int, perPage: Int, total: Int) {
    pageCount = Self.pageCount(total: total, perPage: perPage)
    page = min(max(requested, 1), pageCount)
  }

  /// Whether a page follows this one.
  var hasMore: Bool { page < pageCount }

  /// How many pages `total` items fill at `perPage` a page, from 1 to `Paging.maxPage`.
  static func pageCount(total: Int, perPage: Int) -> Int {
    let per = max(perPage, 1)
    let total = max(total, 0)
    // Not `(total + per - 1) / per`: that overflows for a total near `Int.max`.
    let pages = total / per + (total % per == 0 ? 0 : 1)
    return min(max(pages, 1), Paging.maxPage)
  }
}

/// One page of an API list, the same shape for every list: the items, where they are in the
/// whole list, and whether another page follows.
struct ListPage<Item> {
  var items: [Item]
  var page: Int
  var perPage: Int
  /// `per_page` under the name the API first used; kept for clients written against it.
  var per: Int
  var total: Int
  var hasMore: Bool

  init(items: [Item], paging: Paging, total: Int) {
    self.items = items
    page = paging.page
    perPage = paging.perPage
    per = paging.perPage
    self.total = total
    hasMore = paging.offset + items.count < total && paging.page < Paging.maxPage
  }
}

extension ListPage: Encodable where Item: Encodable {
  /// The page as JSON, with a `Link` header (RFC 8288) naming the `next` and `prev` pages: the
  /// request's own address with only `page` changed, relative to the request.
  func response(for req: Request) throws -> Response {
    try encoded().response(for: req)
  }

  /// The page's JSON and what its `Link` header needs, to be answered now or kept in the
  /// read cache and answered again without encoding.
  func encoded() throws -> EncodedListPage {
    EncodedListPage(
      body: ByteBuffer(data: try JSONEncoder.api.encode(self)), page: page, perPage: perPage,
      total: total, hasMore: hasMore)
  }

  /// The request's path and query with `page` set; the other parameters are kept, encoded
  /// again so nothing a client sent can end the header's `<…>`.
  static func address(_ req: Request, page: Int) -> String {
    req.urlPath + "?"
      + (plainQuery(req.urlQuery, page: page) ?? encodedQuery(req.url.string, page: page))
  }

  /// The query of `address` (a path and query) with `page` set, re-encoded by Foundation.
  static func encodedQuery(_ address: String, page: Int) -> String {
    var components = URLComponents(string: address) ?? URLComponents()
    components.queryItems =
      (components.queryItems ?? []).filter { $0.name != "page" }
      + [URLQueryItem(name: "page", value: String(page))]
    return components.percentEncodedQuery ?? "page=\(page)"
  }

  /// The same for a query of unreserved characters only (letters, digits, `-._~`), one `=` at
  /// most per pair and no empty pair, which Foundation would give back unchanged: the usual
  /// `?q=lamp&per=20&page=3` costs no parsing. Nil for anything else.
  static func plainQuery(_ query: String?, page: Int) -> String? {
    guard let query, !query.isEmpty else { return "page=\(page)" }
    // One pass over the bytes, pairs copied straight into the answer: no array of pairs.
    let bytes = query.utf8
    var kept = ""
    kept.reserveCapacity(bytes.count + 12)
    var start = bytes.startIndex
    while true {
      let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
      let pair = bytes[start..<end]
      var equals = 0
      for byte in pair {
        if byte == UInt8(ascii: "=") {
          equals += 1
        } else if !URLCharacters.isUnreserved(byte) {
          return nil
        }
      }
      guard !pair.isEmpty, equals <= 1 else { return nil }
      let name = pair.prefix { $0 != UInt8(ascii: "=") }
      if !name.elementsEqual("page".utf8) {
        kept += Substring(pair)
        kept += "&"
      }
      guard end != bytes.endIndex else { break }
      start = bytes.index(after: end)
    }
    kept += "page="
    kept += String(page)
    return kept
  }
}

/// A `ListPage` already encoded.
struct EncodedListPage: Sendable {
  var body: ByteBuffer
  var page: Int
  var perPage: Int
  var total: Int
  var hasMore: Bool

  func response(for req: Request) -> Response {
    var headers = HTTPHeaders()
    headers.contentType = .json
    var links: [String] = []
    if hasMore { links.append("<\(ListPage<Int>.address(req, page: page + 1))>; rel=\"next\"") }
    if page > 1 {
      // A page past the end points back to the last page that has items.
      let last = PageWindow.pageCount(total: total, perPage: perPage)
      links.append("<\(ListPage<Int>.address(req, page: min(page - 1, last)))>; rel=\"prev\"")
    }
    if !links.isEmpty {
      headers.replaceOrAdd(name: .link, value: links.joined(separator: ", "))
    }
    return Response(status: .ok, headers: headers, body: .init(buffer: body))
  }
}
