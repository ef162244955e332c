import BackofficeCore
import Foundation
import Vapor

/// Every product answer's JSON, written straight into bytes: the one encoder of products (a
/// page of the list or of favourites, one product, the change feed). It writes what the API's
/// other answers look like (`JSONEncoder.api`: keys sorted and in snake_case, `/` escaped,
/// dates as ISO 8601 seconds, absent values left out), without the encoder's per-key
/// conversion and reflection. `ProductJSONTests` reads it back with `JSONDecoder.api` over
/// thousands of generated products and holds it to the encoder's bytes for other values.
enum ProductJSON {
  /// One product.
  static func object(_ item: ProductsAPIController.Item) -> Data {
    var out: [UInt8] = []
    out.reserveCapacity(420)
    write(item, into: &out)
    return Data(out)
  }

  /// A page of the change feed.
  static func feed(_ feed: ProductChanges.Feed) -> Data {
    var object = JSONObjectWriter(out: [])
    object.out.reserveCapacity(96 + feed.changes.count * 520)
    object.field("changes") { out in
      out.append(UInt8(ascii: "["))
      for (index, change) in feed.changes.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        write(change, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    object.field("cursor", raw: String(feed.cursor))
    object.field("format", string: feed.format)
    object.field("has_more", raw: feed.hasMore ? "true" : "false")
    object.field("reset", raw: feed.reset ? "true" : "false")
    return Data(object.close())
  }

  static func write(_ change: ProductChanges.Change, into out: inout [UInt8]) {
    var object = JSONObjectWriter(out: out)
    out = []
    object.field("deleted", raw: change.deleted ? "true" : "false")
    if let favorited = change.favoritedAt {
      object.field("favorited_at") { date(favorited, into: &$0) }
    }
    object.field("id", string: change.id.uuidString.lowercased())
    if let key = change.nameKey { object.field("name_key", string: key) }
    if let product = change.product { object.field("product") { write(product, into: &$0) } }
    object.field("seq", raw: String(change.seq))
    if let key = change.typeKey { object.field("type_key", string: key) }
    out = object.close()
  }

  static func page(_ page: ListPage<ProductsAPIController.Item>) -> EncodedListPage {
    var out: [UInt8] = []
    out.reserveCapacity(160 + page.items.count * 420)
    out.append(contentsOf: #"{"has_more":"#.utf8)
    out.append(contentsOf: (page.hasMore ? "true" : "false").utf8)
    out.append(contentsOf: #","items":["#.utf8)
    for (index, item) in page.items.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      write(item, into: &out)
    }
    out.append(
      contentsOf: "],\"page\":\(page.page),\"per\":\(page.per),\"per_page\":\(page.perPage)".utf8)
    out.append(contentsOf: ",\"total\":\(page.total)}".utf8)
    var buffer = ByteBufferAllocator().buffer(capacity: out.count)
    buffer.writeBytes(out)
    return EncodedListPage(
      body: buffer, page: page.page, perPage: page.perPage, total: page.total,
      hasMore: page.hasMore)
  }

  static func write(_ item: ProductsAPIController.Item, into out: inout [UInt8]) {
    var object = JSONObjectWriter(out: out)
    out = []
    if let created = item.createdAt { object.field("created_at") { date(created, into: &$0) } }
    object.field("favorite", raw: item.favorite ? "true" : "false")
    object.field("id", id: item.id)
    if let image = item.imageUrl { object.field("image_url", string: image) }
    object.field("name", string: item.name)
    object.field("number", raw: String(item.number))
    object.field("price", string: item.price)
    object.field("price_display", string: item.priceDisplay)
    object.field("tax", string: item.tax)
    object.field("tax_display", string: item.taxDisplay)
    object.field("type", string: item.type)
    if let updated = item.updatedAt { object.field("updated_at") { date(updated, into: &$0) } }
    object.field("version", raw: String(item.version))
    out = object.close()
  }

  /// `2026-11-24T16:44:28Z`: whole seconds in UTC, as the `.iso8601` date strategy writes.
  static func date(_ date: Date, into out: inout [UInt8]) {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    /// `value` in at least `count` digits, zeros first, written without making a string.
    func digits(_ value: Int32, _ count: Int) {
      guard value >= 0 else {
        // Only a year before 1 BC: as the number's text, padded (the encoder's output).
        let text = String(value)
        out += Array(repeating: UInt8(ascii: "0"), count: max(0, count - text.utf8.count))
        out.append(contentsOf: text.utf8)
        return
      }
      var width = 1
      var limit = 10
      while limit <= Int(value) {
        width += 1
        limit *= 10
      }
      width = max(width, count)
      var place = 1
      for _ in 1..<width { place *= 10 }
      var remaining = Int(value)
      for _ in 0..<width {
        out.append(UInt8(48 + remaining / place))
        remaining %= place
        place /= 10
      }
    }
    out.append(UInt8(ascii: "\""))
    digits(parts.tm_year + 1900, 4)
    out.append(UInt8(ascii: "-"))
    digits(parts.tm_mon + 1, 2)
    out.append(UInt8(ascii: "-"))
    digits(parts.tm_mday, 2)
    out.append(UInt8(ascii: "T"))
    digits(parts.tm_hour, 2)
    out.append(UInt8(ascii: ":"))
    digits(parts.tm_min, 2)
    out.append(UInt8(ascii: ":"))
    digits(parts.tm_sec, 2)
    out.append(contentsOf: "Z\"".utf8)
  }
}
