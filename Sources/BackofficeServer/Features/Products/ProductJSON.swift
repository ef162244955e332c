import Foundation
import Vapor

/// The product list's JSON written straight into bytes: the same bytes `JSONEncoder.api` makes
/// of a `ListPage<ProductsAPIController.Item>` (keys sorted, `/` escaped, dates as ISO 8601
/// seconds, absent values left out), without its per-key snake_case conversion and reflection.
/// `ProductJSONTests` compares the two over thousands of generated products.
enum ProductJSON {
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
    out.append(UInt8(ascii: "{"))
    if let created = item.createdAt {
      key("created_at", into: &out)
      date(created, into: &out)
      out.append(UInt8(ascii: ","))
    }
    key("favorite", into: &out)
    out.append(contentsOf: (item.favorite ? "true" : "false").utf8)
    out.append(UInt8(ascii: ","))
    key("id", into: &out)
    string(item.id.uuidString.lowercased(), into: &out)
    if let image = item.imageUrl {
      out.append(UInt8(ascii: ","))
      key("image_url", into: &out)
      string(image, into: &out)
    }
    out.append(UInt8(ascii: ","))
    key("name", into: &out)
    string(item.name, into: &out)
    out.append(UInt8(ascii: ","))
    key("number", into: &out)
    out.append(contentsOf: String(item.number).utf8)
    for (name, value) in [
      ("price", item.price), ("price_display", item.priceDisplay), ("tax", item.tax),
      ("tax_display", item.taxDisplay), ("type", item.type),
    ] {
      out.append(UInt8(ascii: ","))
      key(name, into: &out)
      string(value, into: &out)
    }
    if let updated = item.updatedAt {
      out.append(UInt8(ascii: ","))
      key("updated_at", into: &out)
      date(updated, into: &out)
    }
    out.append(UInt8(ascii: ","))
    key("version", into: &out)
    out.append(contentsOf: String(item.version).utf8)
    out.append(UInt8(ascii: "}"))
  }

  private static func key(_ name: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    out.append(contentsOf: name.utf8)
    out.append(contentsOf: "\":".utf8)
  }

  /// A JSON string as Foundation's encoder writes it: `"`, `\` and `/` escaped, control
  /// characters as `\b \f \n \r \t` or `\u00xx`, everything else as its UTF-8 bytes.
  static func string(_ text: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    let hex = Array("0123456789abcdef".utf8)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
      case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "/"): out += [UInt8(ascii: "\\"), UInt8(ascii: "/")]
      case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
      case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
      case 0..<0x20:
        out.append(contentsOf: "\\u00".utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0x0F)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }

  /// `2026-11-24T16:44:28Z`: whole seconds in UTC, as the `.iso8601` date strategy writes.
  static func date(_ date: Date, into out: inout [UInt8]) {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func digits(_ value: Int32, _ count: Int) {
      let text = String(value)
      out += Array(repeating: UInt8(ascii: "0"), count: max(0, count - text.utf8.count))
      out.append(contentsOf: text.utf8)
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
