import BackofficeCore
import Foundation
import Vapor

/// Every product answer's JSON, written straight into bytes from the rows the store read: the
/// one encoder of products (a page of the list or of favourites, one product, the change
/// feed). It writes what the API's other answers look like (`JSONEncoder.api`: keys sorted and
/// in snake_case, `/` escaped, dates as ISO 8601 seconds, absent values left out), without the
/// encoder's per-key conversion and reflection, and formats the amounts into the answer's
/// bytes with the account's writers (no string per price). `ProductJSONTests` holds it to the
/// encoder's bytes for the same products (`ProductsAPIController.Item`, made from the page's
/// summaries) and reads it back with `JSONDecoder.api`, over thousands of generated products.
enum ProductJSON {
  /// One product.
  static func object(_ row: ProductRow, account: AccountFormat) -> Data {
    var out: [UInt8] = []
    out.reserveCapacity(420)
    write(row, account: account, into: &out)
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
        write(change, account: feed.account, into: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    object.field("cursor", raw: String(feed.cursor))
    object.field("format", string: feed.format)
    object.field("has_more", raw: feed.hasMore ? "true" : "false")
    object.field("reset", raw: feed.reset ? "true" : "false")
    return Data(object.close())
  }

  static func write(
    _ change: ProductChanges.Change, account: AccountFormat, into out: inout [UInt8]
  ) {
    var object = JSONObjectWriter(out: out)
    out = []
    object.field("deleted", raw: change.deleted ? "true" : "false")
    if let favorited = change.favoritedAt {
      object.field("favorited_at") { date(favorited, into: &$0) }
    }
    object.field("id", string: change.id.uuidString.lowercased())
    if let key = change.nameKey { object.field("name_key", string: key) }
    if let product = change.product {
      object.field("product") { write(product, account: account, into: &$0) }
    }
    object.field("seq", raw: String(change.seq))
    if let key = change.typeKey { object.field("type_key", string: key) }
    out = object.close()
  }

  static func page(_ page: ListPage<ProductRow>, account: AccountFormat) -> EncodedListPage {
    var out: [UInt8] = []
    out.reserveCapacity(160 + page.items.count * 420)
    out.append(contentsOf: #"{"has_more":"#.utf8)
    out.append(contentsOf: (page.hasMore ? "true" : "false").utf8)
    out.append(contentsOf: #","items":["#.utf8)
    for (index, row) in page.items.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      write(row, account: account, into: &out)
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

  /// A product as `ProductsAPIController.Item` describes it, from its row.
  static func write(_ row: ProductRow, account: AccountFormat, into out: inout [UInt8]) {
    var object = JSONObjectWriter(out: out)
    out = []
    if let created = row.createdAt { object.field("created_at") { date(created, into: &$0) } }
    object.field("favorite", raw: row.favorite ? "true" : "false")
    object.field("id", id: row.id)
    if let etag = row.photoETag {
      object.field("image_url", string: ProductSummary.apiPhotoHref(id: row.id, etag: etag))
    }
    object.field("name", string: row.name)
    object.field("number") { AmountWriter.integer(row.number, into: &$0) }
    let price = MinorUnits(row.priceMinor)
    let tax = MinorUnits(row.taxMinor)
    object.field("price") { quoted(&$0) { AmountWriter.decimal(price, into: &$0) } }
    object.field("price_display") {
      quoted(&$0) { account.jsonAmounts.currency(price, into: &$0) }
    }
    object.field("tax") { quoted(&$0) { AmountWriter.decimal(tax, into: &$0) } }
    object.field("tax_display") { quoted(&$0) { account.jsonAmounts.percent(tax, into: &$0) } }
    object.field("type", string: row.type)
    if let updated = row.updatedAt { object.field("updated_at") { date(updated, into: &$0) } }
    object.field("version") { AmountWriter.integer(row.version, into: &$0) }
    out = object.close()
  }

  /// A JSON string of what `write` appends, which needs no escaping.
  private static func quoted(_ out: inout [UInt8], _ write: (inout [UInt8]) -> Void) {
    out.append(UInt8(ascii: "\""))
    write(&out)
    out.append(UInt8(ascii: "\""))
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
