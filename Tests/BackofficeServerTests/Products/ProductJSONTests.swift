import Foundation
import TestSupport
import Testing

@testable import BackofficeServer

/// The product list's hand-written JSON must be byte for byte what `JSONEncoder.api` makes of the
/// same page, for any text a product may hold and any date.
@Suite("Products: JSON written directly")
struct ProductJSONTests {
  static let pieces = [
    "Lamp", "\"quoted\"", "back\\slash", "a/b/c", "tab\there", "line\nbreak", "\r", "\u{08}\u{0C}",
    "\u{01}\u{1F}\u{7F}", "Збір «Мавік»", "🇺🇦 emoji", "e\u{301}", "<tag> & 'single'", "",
    "$1,694.92", "1 234,50 ₴", "18%", "\u{2028}\u{2029}", "\u{0}",
  ]

  static func item(_ random: inout SeededGenerator) -> ProductsAPIController.Item {
    func text() -> String {
      (0..<Int.random(in: 0...3, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }.joined(separator: Bool.random(using: &random) ? " " : "")
    }
    func date() -> Date? {
      guard Int.random(in: 0..<5, using: &random) > 0 else { return nil }
      return Date(timeIntervalSince1970: Double.random(in: 0..<4_102_444_800, using: &random))
    }
    let record = ProductRecord()
    record.id = UUID()
    record.number = 1
    record.name = ""
    record.type = ""
    record.priceMinor = 0
    record.taxMinor = 0
    record.version = 1
    var item = ProductsAPIController.Item(
      try! ProductSummary(
        record, favorite: false, account: AccountFormat(locale: .resolve("en-US"), currency: "USD"))
    )
    item.id = UUID()
    item.number = Int.random(in: 1...Int(Int32.max), using: &random)
    item.name = text()
    item.type = text()
    item.price = text()
    item.tax = text()
    item.priceDisplay = text()
    item.taxDisplay = text()
    item.imageUrl =
      Bool.random(using: &random) ? "/api/v1/products/\(item.id)/photo?v=\(text())" : nil
    item.favorite = Bool.random(using: &random)
    item.createdAt = date()
    item.updatedAt = date()
    item.version = Int.random(in: 1...1_000, using: &random)
    return item
  }

  @Test func sameBytesAsTheEncoder() throws {
    var random = SeededGenerator(seed: 20_261_124)
    for round in 0..<300 {
      let items = (0..<Int.random(in: 0...20, using: &random)).map { _ in Self.item(&random) }
      let page = ListPage(
        items: items, paging: Paging(page: round % 7 + 1, perPage: 20),
        total: Int.random(in: 0...1_000_000, using: &random))
      let expected = try JSONEncoder.api.encode(page)
      let written = Data(buffer: ProductJSON.page(page).body)
      #expect(
        written == expected,
        "\(String(decoding: written, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))"
      )
      if written != expected { return }
    }
  }
}
