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
  /// The calendar date is worked out from the day number (the proleptic Gregorian calendar,
  /// as `gmtime` counts), without a call into the C library for every time in a list.
  static func date(_ date: Date, into out: inout [UInt8]) {
    // Beyond ±2^50 s (35 million years) a time is no product's; clamped, never trapped on.
    let limit = Double(Int64(1) << 50)
    let seconds = Int64(max(-limit, min(limit, date.timeIntervalSince1970.rounded(.down))))
    let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let time = seconds - day * 86_400
    // Days since 1970-01-01 to year, month and day (H. Hinnant's `civil_from_days`).
    let shifted = day + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

    out.append(UInt8(ascii: "\""))
    if (0...9_999).contains(year) {
      twoDigits(year / 100, into: &out)
      twoDigits(year % 100, into: &out)
    } else {
      // As the encoder writes such years: the number's text, zeros first up to four places.
      let text = String(year)
      out += Array(repeating: UInt8(ascii: "0"), count: max(0, 4 - text.utf8.count))
      out.append(contentsOf: text.utf8)
    }
    out.append(UInt8(ascii: "-"))
    twoDigits(month, into: &out)
    out.append(UInt8(ascii: "-"))
    twoDigits(dayOfMonth, into: &out)
    out.append(UInt8(ascii: "T"))
    twoDigits(time / 3_600, into: &out)
    out.append(UInt8(ascii: ":"))
    twoDigits(time / 60 % 60, into: &out)
    out.append(UInt8(ascii: ":"))
    twoDigits(time % 60, into: &out)
    out.append(contentsOf: "Z\"".utf8)
  }

  /// `value` (0…99) in two digits.
  private static func twoDigits(_ value: Int64, into out: inout [UInt8]) {
    out.append(UInt8(48 + value / 10))
    out.append(UInt8(48 + value % 10))
  }
}
