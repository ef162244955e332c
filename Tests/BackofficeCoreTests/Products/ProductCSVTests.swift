import Foundation
import Testing

@testable import BackofficeCore

private func dec(_ text: String) -> Decimal {
  AmountParser.parseStrictDecimalString(text) ?? .nan
}

@Suite("ProductCSV")
struct ProductCSVTests {
  @Test func headerIsInTheInterfaceLanguage() {
    #expect(
      ProductCSV.header == ["name", "type", "price", "tax", "favorite", "image_url", "created_at"])
    let ukrainian = UILanguage.$current.withValue(.uk) { ProductCSV.header }
    #expect(ukrainian == ["назва", "тип", "ціна", "податок", "обране", "фото", "створено"])
  }

  @Test(
    "header columns",
    arguments: [
      (["name", "type", "price", "tax"], ProductCSVColumns(name: 0, type: 1, price: 2, tax: 3)),
      (["tax", "price", "type", "name"], ProductCSVColumns(name: 3, type: 2, price: 1, tax: 0)),
      (
        ["\u{FEFF}Name", " TYPE ", "Price", "Tax", "favorite", "image_url", "created_at"],
        ProductCSVColumns(name: 0, type: 1, price: 2, tax: 3)
      ),
      (["назва", "тип", "ціна", "податок"], ProductCSVColumns(name: 0, type: 1, price: 2, tax: 3)),
      // Swipe's names, as its `GET /api/public/get` writes them.
      (
        ["image", "price", "product_name", "product_type", "tax"],
        ProductCSVColumns(name: 2, type: 3, price: 1, tax: 4)
      ),
      (
        ["id", "Назва", "type", "ЦІНА", "tax", "notes"],
        ProductCSVColumns(name: 1, type: 2, price: 3, tax: 4)
      ),
    ])
  func headerColumns(_ header: [String], _ expected: ProductCSVColumns) {
    #expect(ProductCSV.columns(inHeader: header) == expected)
    // The interface language does not change what is read.
    #expect(UILanguage.$current.withValue(.uk) { ProductCSV.columns(inHeader: header) } == expected)
  }

  @Test(
    "bad headers",
    arguments: [
      [], ["name", "type", "price"], ["title", "kind", "cost", "vat"],
      ["Phone", "Product", "10.00", "18.00"],
    ])
  func badHeader(_ header: [String]) {
    #expect(ProductCSV.columns(inHeader: header) == nil)
  }

  @Test func missingHeaderNamesTheNeededColumns() {
    #expect(
      ProductCSV.missingHeaderMessage
        == "The first row must be a header with the columns name,type,price,tax (in any order).")
  }

  @Test func exportFieldsWriteDotDecimalsAndUTCTimes() {
    let product = Product(name: "Phone", type: "Product", price: dec("1694.92"), tax: dec("18"))
    let created = Date(timeIntervalSince1970: 1_763_823_900.75)  // 2025-11-22 15:05 UTC
    #expect(
      ProductCSV.fields(
        for: product, favorite: true, imageURL: "https://shop.example/p.jpg", createdAt: created)
        == [
          "Phone", "Product", "1694.92", "18.00", "true", "https://shop.example/p.jpg",
          "2025-11-22T15:05:00Z",
        ])
    let plain = Product(name: "Repair", type: "Service", price: dec("5800"), tax: dec("0.5"))
    #expect(
      ProductCSV.fields(for: plain, favorite: false, imageURL: nil, createdAt: nil)
        == ["Repair", "Service", "5800.00", "0.50", "false", "", ""])
  }

  @Test(
    "numbers as exported and as people write them",
    arguments: [
      ("1694.92", "18.00", "1694.92", "18"), ("5800", "10.0", "5800", "10"),
      (" 0.01 ", "0", "0.01", "0"), ("999999999999.99", "100", "999999999999.99", "100"),
    ])
  func validRow(_ price: String, _ tax: String, _ expectedPrice: String, _ expectedTax: String)
    throws
  {
    let row = ProductCSVRow(name: "  Phone ", type: " Product", price: price, tax: tax)
    #expect(
      try row.validate().get()
        == Product(name: "Phone", type: "Product", price: dec(expectedPrice), tax: dec(expectedTax))
    )
  }

  @Test func rowReportsEveryProblemWithTheAPIsMessages() throws {
    let error = try #require(
      ProductCSVRow(name: "", type: "Product", price: "1,694.92", tax: "101").validate().failure)
    #expect(
      error.line
        == "Product name cannot be blank. Price must be a number, e.g. 12.50. "
        + "Tax must be between 0 and 100.")
    let blank = try #require(
      ProductCSVRow(name: "A", type: " ", price: "", tax: "").validate().failure)
    #expect(
      blank.line == "Product type cannot be blank. Price is required. Tax is required.")
    let precise = try #require(
      ProductCSVRow(name: "A", type: "B", price: "0", tax: "1.005").validate().failure)
    #expect(
      precise.line == "Price must be greater than 0. Tax can have at most 2 decimal places.")
  }

  @Test func rowFromFields() {
    let columns = ProductCSVColumns(name: 2, type: 0, price: 1, tax: 3)
    let row = ProductCSVRow(fields: ["Service", "12.50", "Repair", "20"], columns: columns)
    #expect(row == ProductCSVRow(name: "Repair", type: "Service", price: "12.50", tax: "20"))
    let short = ProductCSVRow(fields: ["Service", "12.50", "Repair"], columns: columns)
    #expect(short.validate().failure?.line == "Tax is required.")
  }

  @Test(
    "formula-looking names and types survive a round trip",
    arguments: ["=SUM(A1)", "+380 case", "-promo", "@home", "Plain", "'quoted", "'=x"])
  func formulaRoundTrip(_ text: String) throws {
    let product = Product(name: text, type: text, price: dec("10"), tax: dec("18"))
    let fields = ProductCSV.fields(for: product, favorite: false, imageURL: nil, createdAt: nil)
    let guarded = text.drop(while: { $0 == "'" }).first.map { "=+-@".contains($0) } ?? false
    #expect(fields[0] == (guarded ? "'" + text : text))
    #expect(fields[1] == fields[0])
    let columns = try #require(ProductCSV.columns(inHeader: ProductCSV.header))
    #expect(try ProductCSVRow(fields: fields, columns: columns).validate().get() == product)
  }

  @Test func matchFieldsAreTheStoredTextAndTwoDecimals() {
    let product = Product(name: "Phone", type: "Product", price: dec("5800"), tax: dec("18.5"))
    #expect(product.matchFields == ["Phone", "Product", "5800.00", "18.50"])
    let same = Product(name: "Phone", type: "Product", price: dec("5800.00"), tax: dec("18.50"))
    #expect(same.matchFields == product.matchFields)
    for other in [
      Product(name: "phone", type: "Product", price: dec("5800"), tax: dec("18.5")),
      Product(name: "Phone", type: "Service", price: dec("5800"), tax: dec("18.5")),
      Product(name: "Phone", type: "Product", price: dec("5800.01"), tax: dec("18.5")),
      Product(name: "Phone", type: "Product", price: dec("5800"), tax: dec("18")),
    ] {
      #expect(other.matchFields != product.matchFields)
    }
  }

  /// A product read back from its exported row matches the product it was exported from.
  @Test func exportedRowsMatchTheirProduct() throws {
    let columns = try #require(ProductCSV.columns(inHeader: ProductCSV.header))
    for product in [
      Product(name: "Tea, milk", type: "Drink", price: dec("3.5"), tax: dec("7")),
      Product(name: "=1+1", type: "Formula", price: dec("999999999999.99"), tax: dec("100")),
    ] {
      let fields = ProductCSV.fields(
        for: product, favorite: true, imageURL: nil, createdAt: Date(timeIntervalSince1970: 0))
      let read = try ProductCSVRow(fields: fields, columns: columns).validate().get()
      #expect(read.matchFields == product.matchFields)
    }
  }
}

extension Result where Success == Product, Failure == ProductValidationError {
  fileprivate var failure: ProductValidationError? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
