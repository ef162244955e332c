import BackofficeCore
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

  /// Any amount a product may hold, from a cent to the edges of what is stored.
  static func minor(_ random: inout SeededGenerator) -> Int64 {
    switch Int.random(in: 0..<6, using: &random) {
    case 0: return Int64.random(in: -1_000...1_000, using: &random)
    case 1:
      return [0, 1, -1, 5, -5, 99, 100, 12_345, Int64.max, Int64.min + 1].randomElement(
        using: &random)!
    case 2: return Int64.random(in: Int64.min + 1...Int64.max, using: &random)
    default: return Int64.random(in: 0...100_000_000, using: &random)
    }
  }

  static func row(_ random: inout SeededGenerator) -> ProductRow {
    ProductRow(
      id: UUID(), number: Int.random(in: 1...Int(Int32.max), using: &random),
      name: text(&random), type: text(&random), priceMinor: minor(&random),
      taxMinor: minor(&random),
      photoETag: Bool.random(using: &random)
        ? String((0..<64).map { _ in "0123456789abcdef".randomElement(using: &random)! }) : nil,
      createdAt: date(&random), updatedAt: date(&random),
      version: Int.random(in: 1...1_000, using: &random), favorite: Bool.random(using: &random))
  }

  /// Every supported locale, with currencies that have a sign, none, a word, other decimals,
  /// and a code no currency has (written as given, escaped where JSON needs it).
  static func account(_ random: inout SeededGenerator) -> AccountFormat {
    AccountFormat(
      locale: BackofficeLocale.supported.randomElement(using: &random)!,
      currency: ["USD", "EUR", "UAH", "JPY", "KWD", "CHF", "PLN", "XYZ", "a/\"\\\u{1}"]
        .randomElement(using: &random)!)
  }

  @Test func aPageIsWhatTheAPIEncoderWritesAndReadsBack() throws {
    var random = SeededGenerator(seed: 20_261_124)
    for round in 0..<300 {
      let rows = (0..<Int.random(in: 0...20, using: &random)).map { _ in Self.row(&random) }
      let account = Self.account(&random)
      let page = ListPage(
        items: rows, paging: Paging(page: round % 7 + 1, perPage: 20),
        total: Int.random(in: 0...1_000_000, using: &random))
      let written = Data(buffer: ProductJSON.page(page, account: account).body)
      let expected = try JSONEncoder.api.encode(
        ListPage(
          items: rows.map { EncodedItem($0, account) },
          paging: Paging(page: page.page, perPage: 20),
          total: page.total))
      #expect(
        written == expected,
        "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))"
      )
      #expect(
        try JSONDecoder.api.decode(DecodedPage.self, from: written).items
          == rows.map { ProductsAPIController.Item(ProductSummary($0, account: account)) })
      if written != expected { return }
    }
  }

  @Test func theChangeFeedIsWhatTheAPIEncoderWrites() throws {
    var random = SeededGenerator(seed: 20_261_127)
    for _ in 0..<200 {
      let changes = (0..<Int.random(in: 0...12, using: &random)).map { index in
        let deleted = Bool.random(using: &random)
        let row = Self.row(&random)
        return ProductChanges.Change(
          seq: Int64(index) + 1, id: row.id, deleted: deleted,
          product: deleted ? nil : row, nameKey: deleted ? nil : Self.text(&random),
          typeKey: deleted ? nil : Self.text(&random),
          favoritedAt: deleted ? nil : Self.date(&random))
      }
      let feed = ProductChanges.Feed(
        changes: changes, cursor: Int64.random(in: 0...Int64(Int32.max), using: &random),
        hasMore: Bool.random(using: &random), reset: Bool.random(using: &random),
        format: Self.text(&random), account: Self.account(&random))
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
    let row = Self.row(&random)
    let account = AccountFormat(locale: .resolve("uk-UA"), currency: "UAH")
    let page = ListPage(items: [row], paging: Paging(page: 1, perPage: 20), total: 1)
    let pageText = String(
      decoding: Data(buffer: ProductJSON.page(page, account: account).body), as: UTF8.self)
    let object = String(decoding: ProductJSON.object(row, account: account), as: UTF8.self)
    #expect(pageText.contains("\"items\":[\(object)]"))
    #expect(
      try JSONDecoder.api.decode(ProductsAPIController.Item.self, from: Data(object.utf8))
        == ProductsAPIController.Item(ProductSummary(row, account: account)))
  }

  @Test func amountsAreTheLocalesText() throws {
    let row = ProductRow(
      id: UUID(), number: 3, name: "Lamp", type: "Light", priceMinor: 169_492, taxMinor: 1_250,
      photoETag: nil, createdAt: nil, updatedAt: nil, version: 2, favorite: false)
    let written = String(
      decoding: ProductJSON.object(
        row, account: AccountFormat(locale: .resolve("fr-FR"), currency: "EUR")),
      as: UTF8.self)
    #expect(written.contains(#""price":"1694.92","price_display":"1\#u{00A0}694,92\#u{00A0}€""#))
    #expect(written.contains(#""tax":"12.50","tax_display":"12,5\#u{202F}%""#))
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

  /// The texts made by the `Decimal` path of the formatters, not by the writers the server
  /// formats with.
  init(_ row: ProductRow, _ account: AccountFormat) {
    id = row.id.uuidString.lowercased()
    number = row.number
    name = row.name
    type = row.type
    let price = MinorUnits(row.priceMinor).decimal
    let tax = MinorUnits(row.taxMinor).decimal
    self.price = MoneyFormat.decimalString(price, fractionDigits: 2)
    self.tax = MoneyFormat.decimalString(tax, fractionDigits: 2)
    priceDisplay = MoneyFormat.currency(price, currency: account.currency, locale: account.locale)
    taxDisplay = ProductFormat.percent(tax, locale: account.locale)
    imageUrl = row.photoETag.map {
      "/api/v1/products/\(row.id.uuidString.lowercased())/photo?v=\(String($0.prefix(16)))"
    }
    favorite = row.favorite
    createdAt = row.createdAt
    updatedAt = row.updatedAt
    version = row.version
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
        product: $0.product.map { EncodedItem($0, feed.account) }, nameKey: $0.nameKey,
        typeKey: $0.typeKey, favoritedAt: $0.favoritedAt)
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
