import Foundation
import Testing

@testable import BackofficeCore

@Suite("Swipe API shapes")
struct SwipeAPITests {
  static let phone = SwipeProduct(
    image: "", price: 5800, productName: "Testing app", productType: "Product", tax: 10)

  @Test func listItemIsWrittenExactly() {
    #expect(
      SwipeJSON.list([Self.phone])
        == #"[{"image": "", "price": 5800.0, "product_name": "Testing app", "#
        + #""product_type": "Product", "tax": 10.0}]"#)
    #expect(SwipeJSON.list([]) == "[]")
  }

  @Test func addResponseIsWrittenExactly() {
    let response = SwipeAddResponse(productID: 2657, productDetails: Self.phone)
    #expect(
      SwipeJSON.addResponse(response)
        == #"{"message": "Product added Successfully!", "product_details": {"image": "", "#
        + #""price": 5800.0, "product_name": "Testing app", "product_type": "Product", "#
        + #""tax": 10.0}, "product_id": 2657, "success": true}"#)
  }

  /// The spec's own JSON lines (copied into `Tests/Fixtures/swipe-api`), with its placeholders
  /// filled in the way the spec writes them.
  @Test func matchesTheSpecText() throws {
    let spec = try String(contentsOf: Self.specFile, encoding: .utf8)
    let item = try #require(
      spec.firstRange(of: #"{"image": "https://…jpg" or "", "price""#).map { range in
        spec[range.lowerBound...].prefix { $0 != "}" } + "}"
      })
    let specItem = item.replacingOccurrences(of: #""https://…jpg" or """#, with: #""https://…jpg""#)
    let product = SwipeProduct(
      image: "https://…jpg", price: 5800, productName: "…", productType: "Product", tax: 10)
    #expect(SwipeJSON.object(product) == specItem)

    let responseStart = try #require(spec.firstRange(of: #"{"message": "Product added"#))
    let specResponse = spec[responseStart.lowerBound...].prefix { $0 != "`" }
    let written = SwipeJSON.addResponse(SwipeAddResponse(productID: 2657, productDetails: product))
      .replacingOccurrences(of: SwipeJSON.object(product), with: "{…same 5 keys…}")
    #expect(written == String(specResponse))
  }

  static let specFile = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("../../Fixtures/swipe-api/products-spec.md")
    .standardizedFileURL

  @Test(
    "numbers keep one decimal at least",
    arguments: [
      ("5800", "5800.0"), ("10", "10.0"), ("1694.92", "1694.92"), ("1694.90", "1694.9"),
      ("0.5", "0.5"), ("0", "0.0"), ("999999999999.99", "999999999999.99"), ("18.05", "18.05"),
    ])
  func numbers(_ value: String, _ written: String) throws {
    let decimal = try #require(AmountParser.parseStrictDecimalString(value))
    #expect(SwipeJSON.number(decimal) == written)
    // What a Double reader gets back is the same value.
    #expect(Double(written) == Double(value))
  }

  @Test func writtenJSONParses() throws {
    let tricky = SwipeProduct(
      image: "https://example.com/a.jpg", price: Decimal(string: "1694.92")!,
      productName: "Quote \" and \\ and\nnewline", productType: "Тип", tax: Decimal(string: "18.5")!
    )
    let text = SwipeJSON.list([tricky, Self.phone])
    let decoded = try JSONDecoder().decode([SwipeProduct].self, from: Data(text.utf8))
    #expect(decoded == [tricky, Self.phone])

    let response = SwipeAddResponse(productID: 7, productDetails: tricky)
    let back = try JSONDecoder().decode(
      SwipeAddResponse.self, from: Data(SwipeJSON.addResponse(response).utf8))
    #expect(back == response)
  }

  @Test func codableUsesSwipeKeys() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(SwipeAddResponse(productID: 1, productDetails: Self.phone))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object.keys.sorted() == ["message", "product_details", "product_id", "success"])
    let details = try #require(object["product_details"] as? [String: Any])
    #expect(details.keys.sorted() == ["image", "price", "product_name", "product_type", "tax"])
  }

  @Test func decodesSwipeResponsesExactly() throws {
    let json = #"""
      [{"image": "https://x.example/a.jpg", "price": 1694.92, "product_name": "Café",
        "product_type": "Product", "tax": 18.0},
       {"image": "", "price": "5800.00", "product_name": "B", "product_type": "Service",
        "tax": 0}]
      """#
    let items = try JSONDecoder().decode([SwipeProduct].self, from: Data(json.utf8))
    #expect(items.map(\.price) == [Decimal(string: "1694.92")!, 5800])
    #expect(items.map(\.tax) == [18, 0])
    #expect(items[0].productName == "Café")
  }

  @Test func refusesNonNumbers() {
    let json =
      #"{"image": "", "price": "Rs 10", "product_name": "A", "product_type": "B", "tax": 1}"#
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SwipeProduct.self, from: Data(json.utf8))
    }
  }

  @Test func fromProduct() {
    let product = Product(name: "Phone", type: "Product", price: 5800, tax: 10)
    #expect(SwipeProduct(product, imageURL: nil) == Self.phone.with(name: "Phone"))
    #expect(SwipeProduct(product, imageURL: "https://h/i.jpg").image == "https://h/i.jpg")
  }
}

extension SwipeProduct {
  fileprivate func with(name: String) -> SwipeProduct {
    var copy = self
    copy.productName = name
    return copy
  }
}
