import Foundation
import TestSupport
import Testing

@testable import BackofficeServer

/// Products have one JSON encoder (`ProductJSON`). What it writes must be byte for byte what
/// `JSONEncoder.api` makes of the same fields (the shape of every other answer), and read back
/// into the same values, for any text a product may hold and any date.
@Suite("Products: JSON written directly")
struct ProductJSONTests {
  static let pieces = [
    "Lamp", "\"quoted\"", "back\\slash", "a/b/c", "tab\there", "line\nbreak", "\r", "\u{08}\u{0C}",
    "\u{01}\u{1F}\u{7F}", "Збір «Мавік»", "🇺🇦 emoji", "e\u{301}", "<tag> & 'single'", "",
    "$1,694.92", "1 234,50 ₴", "18%", "\u{2028}\u{2029}", "\u{0}",
  ]

  static func text(_ random: inout SeededGenerator) -> String {
    (0..<Int.random(in: 0...3, using: &random)).map { _ in
      pieces.randomElement(using: &random)!
    }.joined(separator: Bool.random(using: &random) ? " " : "")
  }

  /// A time in whole seconds (what the API writes), or none.
  static func date(_ random: inout SeededGenerator) -> Date? {
    guard Int.random(in: 0..<5, using: &random) > 0 else { return nil }
    return Date(timeIntervalSince1970: Double(Int.random(in: 0..<4_102_444_800, using: &random)))
  }

  static func item(_ random: inout SeededGenerator) -> ProductsAPIController.Item {
    let row = ProductRow(
      id: UUID(), number: 1, name: "", type: "", priceMinor: 0, taxMinor: 0, photoETag: nil,
      createdAt: nil, updatedAt: nil, version: 1, favorite: false)
    var item = ProductsAPIController.Item(
      ProductSummary(row, account: AccountFormat(locale: .resolve("en-US"), currency: "USD")))
    item.id = UUID()
    item.number = Int.random(in: 1...Int(Int32.max), using: &random)
    item.name = text(&random)
    item.type = text(&random)
    item.price = text(&random)
    item.tax = text(&random)
    item.priceDisplay = text(&random)
    item.taxDisplay = text(&random)
    item.imageUrl =
      Bool.random(using: &random) ? "/api/v1/products/\(item.id)/photo?v=\(text(&random))" : nil
    item.favorite = Bool.random(using: &random)
    item.createdAt = date(&random)
    item.updatedAt = date(&random)
    item.version = Int.random(in: 1...1_000, using: &random)
    return item
  }

  @Test func aPageIsWhatTheAPIEncoderWritesAndReadsBack() throws {
    var random = SeededGenerator(seed: 20_261_124)
    for round in 0..<300 {
      let items = (0..<Int.random(in: 0...20, using: &random)).map { _ in Self.item(&random) }
      let page = ListPage(
        items: items, paging: Paging(page: round % 7 + 1, perPage: 20),
        total: Int.random(in: 0...1_000_000, using: &random))
      let written = Data(buffer: ProductJSON.page(page).body)
      let expected = try JSONEncoder.api.encode(
        ListPage(
          items: items.map(EncodedItem.init), paging: Paging(page: page.page, perPage: 20),
          total: page.total))
      #expect(
        written == expected,
        "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))"
      )
      #expect(try JSONDecoder.api.decode(DecodedPage.self, from: written).items == items)
      if written != expected { return }
    }
  }

  @Test func theChangeFeedIsWhatTheAPIEncoderWrites() throws {
    var random = SeededGenerator(seed: 20_261_127)
    for _ in 0..<200 {
      let changes = (0..<Int.random(in: 0...12, using: &random)).map { index in
        let deleted = Bool.random(using: &random)
        let item = Self.item(&random)
        return ProductChanges.Change(
          seq: Int64(index) + 1, id: item.id, deleted: deleted,
          product: deleted ? nil : item, nameKey: deleted ? nil : Self.text(&random),
          typeKey: deleted ? nil : Self.text(&random),
          favoritedAt: deleted ? nil : Self.date(&random))
      }
      let feed = ProductChanges.Feed(
        changes: changes, cursor: Int64.random(in: 0...Int64(Int32.max), using: &random),
        hasMore: Bool.random(using: &random), reset: Bool.random(using: &random),
        format: Self.text(&random))
      let written = ProductJSON.feed(feed)
      let expected = try JSONEncoder.api.encode(EncodedFeed(feed))
      #expect(
        written == expected,
        "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))"
      )
      if written != expected { return }
    }
  }

  @Test func oneProductIsTheSameObjectAsInAPage() throws {
    var random = SeededGenerator(seed: 7)
    let item = Self.item(&random)
    let page = ListPage(items: [item], paging: Paging(page: 1, perPage: 20), total: 1)
    let pageText = String(decoding: Data(buffer: ProductJSON.page(page).body), as: UTF8.self)
    let object = String(decoding: ProductJSON.object(item), as: UTF8.self)
    #expect(pageText.contains("\"items\":[\(object)]"))
    #expect(
      try JSONDecoder.api.decode(ProductsAPIController.Item.self, from: Data(object.utf8)) == item)
  }
}

/// The fields of a product as a Codable type would encode them: what the API's encoder makes of
/// them, to hold `ProductJSON` to (a test's mirror, not a second encoder of the server).
private struct EncodedItem: Encodable {
  var id: String
  var number: Int
  var name: String
  var type: String
  var price: String
  var tax: String
  var priceDisplay: String
  var taxDisplay: String
  var imageUrl: String?
  var favorite: Bool
  var createdAt: Date?
  var updatedAt: Date?
  var version: Int

  init(_ item: ProductsAPIController.Item) {
    id = item.id.uuidString.lowercased()
    number = item.number
    name = item.name
    type = item.type
    price = item.price
    tax = item.tax
    priceDisplay = item.priceDisplay
    taxDisplay = item.taxDisplay
    imageUrl = item.imageUrl
    favorite = item.favorite
    createdAt = item.createdAt
    updatedAt = item.updatedAt
    version = item.version
  }
}

private struct EncodedFeed: Encodable {
  struct Change: Encodable {
    var seq: Int64
    var id: String
    var deleted: Bool
    var product: EncodedItem?
    var nameKey: String?
    var typeKey: String?
    var favoritedAt: Date?
  }
  var changes: [Change]
  var cursor: Int64
  var hasMore: Bool
  var reset: Bool
  var format: String

  init(_ feed: ProductChanges.Feed) {
    changes = feed.changes.map {
      Change(
        seq: $0.seq, id: $0.id.uuidString.lowercased(), deleted: $0.deleted,
        product: $0.product.map(EncodedItem.init), nameKey: $0.nameKey, typeKey: $0.typeKey,
        favoritedAt: $0.favoritedAt)
    }
    cursor = feed.cursor
    hasMore = feed.hasMore
    reset = feed.reset
    format = feed.format
  }
}

private struct DecodedPage: Decodable {
  var items: [ProductsAPIController.Item]
}

extension ProductJSONTests {
  /// Times are written digit by digit: the same text as the API's encoder for any second from
  /// year 1600 to 9999, with fractions of a second dropped as it drops them. (Before the
  /// Gregorian calendar's start in 1582 Foundation counts Julian days and the two part; a
  /// product's times are the server's clock.)
  @Test func timesAreWhatTheAPIEncoderWrites() throws {
    var random = SeededGenerator(seed: 20_261_127)
    let first = -11_676_096_000.0  // 1600-01-01T00:00:00Z
    let last = 253_402_300_799.0  // 9999-12-31T23:59:59Z
    var times = [first, last, 0, -1, 59, 86_399, 951_782_400, 1_767_225_599.999]
    for _ in 0..<2_000 {
      times.append(Double(Int64.random(in: Int64(first)...Int64(last), using: &random)))
    }
    for seconds in times {
      let date = Date(timeIntervalSince1970: seconds)
      var written: [UInt8] = []
      ProductJSON.date(date, into: &written)
      let encoded = try JSONEncoder.api.encode([date])
      #expect(Array(encoded.dropFirst().dropLast()) == written, "\(seconds)")
    }
  }
}
