import Foundation
import Testing

@testable import BackofficeCore

/// Exact decimal from text, for expectations.
private func productDecimal(_ text: String) -> Decimal {
  AmountParser.parseStrictDecimalString(text) ?? .nan
}

@Suite("ProductDraft (form input)")
struct ProductDraftTests {
  static let validAmounts: [(BackofficeLocale, String, String, String, String)] = [
    // locale, price typed, tax typed, expected price, expected tax
    (.enUS, "5800", "10", "5800", "10"),
    (.enUS, "1,694.92", "18", "1694.92", "18"),
    (.enUS, "0.01", "0", "0.01", "0"),
    (.enUS, "12.5", "100", "12.5", "100"),
    (.enUS, " 99.99 ", "12.50", "99.99", "12.5"),
    (.enUS, "5.10", "0.5", "5.1", "0.5"),
    (.enUS, "999999999999.99", "99.99", "999999999999.99", "99.99"),
    (.ukUA, "1 234,50", "20", "1234.5", "20"),
    (.ukUA, "1\u{00A0}234,50", "7,5", "1234.5", "7.5"),
    (.deDE, "1.234,56", "19", "1234.56", "19"),
    (.deDE, "12,5", "7", "12.5", "7"),
    (.frFR, "12,50", "5,5", "12.5", "5.5"),
    (.jaJP, "１２３４", "８", "1234", "8"),
  ]

  @Test("valid prices and taxes", arguments: validAmounts)
  func valid(
    _ locale: BackofficeLocale, _ price: String, _ tax: String, _ expectedPrice: String,
    _ expectedTax: String
  ) throws {
    let draft = ProductDraft(name: "Phone", type: "Product", price: price, tax: tax, locale: locale)
    let product = try draft.validate().get()
    #expect(product.price == productDecimal(expectedPrice))
    #expect(product.tax == productDecimal(expectedTax))
  }

  static let invalidAmounts: [(String, String, ProductField, String)] = [
    // price typed, tax typed (en-US), failing field, message
    ("", "10", .price, ProductMessage.priceMissing),
    ("   ", "10", .price, ProductMessage.priceMissing),
    ("0", "10", .price, ProductMessage.priceNotPositive),
    ("0.00", "10", .price, ProductMessage.priceNotPositive),
    ("-5", "10", .price, ProductMessage.priceNotPositive),
    ("12.3456", "10", .price, ProductMessage.priceTooPrecise),
    ("1000000000000", "10", .price, ProductMessage.priceTooLarge),
    ("1000000000000000000000", "10", .price, ProductMessage.priceTooLarge),
    ("5800", "", .tax, ProductMessage.taxMissing),
    ("5800", "-1", .tax, ProductMessage.taxOutOfRange),
    ("5800", "100.01", .tax, ProductMessage.taxOutOfRange),
    ("5800", "101", .tax, ProductMessage.taxOutOfRange),
    ("5800", "1000000000000000000000", .tax, ProductMessage.taxOutOfRange),
    ("5800", "18.5555", .tax, ProductMessage.taxTooPrecise),
  ]

  @Test("invalid prices and taxes", arguments: invalidAmounts)
  func invalid(_ price: String, _ tax: String, _ field: ProductField, _ message: String) {
    let draft = ProductDraft(name: "Phone", type: "Product", price: price, tax: tax, locale: .enUS)
    #expect(draft.validate() == .failure(.init(errors: [.init(field: field, message: message)])))
  }

  @Test(
    "other typing mistakes keep the parser's locale-aware message",
    arguments: [
      ("abc", BackofficeLocale.enUS), ("12.5.3", .enUS), ("1,2,3", .deDE), ("1 2", .ukUA),
    ]
  )
  func parserMessages(_ typed: String, _ locale: BackofficeLocale) throws {
    let parserMessage: String
    do {
      _ = try AmountParser.parse(typed, locale: locale, allowNegative: true)
      Issue.record("the parser accepted \(typed)")
      return
    } catch {
      parserMessage = error.message
    }
    let draft = ProductDraft(name: "A", type: "B", price: typed, tax: typed, locale: locale)
    #expect(
      draft.validate().productErrors?.fieldErrors == [.price: parserMessage, .tax: parserMessage])
  }

  @Test func namesAndTypesAreTrimmedAndCountedInCharacters() throws {
    let name = String(repeating: "👍🏽", count: 100)  // 100 characters, 200 scalars
    let type = String(repeating: "é", count: 50)
    let draft = ProductDraft(
      name: "  \(name)\n", type: "\t\(type) ", price: "1", tax: "0", locale: .enUS)
    let product = try draft.validate().get()
    #expect(product.name == name)
    #expect(product.type == type)
  }

  @Test(
    "name and type rules",
    arguments: [
      ("", "Product", ProductField.name, ProductMessage.nameBlank),
      (" \n ", "Product", .name, ProductMessage.nameBlank),
      (String(repeating: "a", count: 101), "Product", .name, ProductMessage.nameTooLong),
      ("Phone", "", .type, ProductMessage.typeBlank),
      ("Phone", "\u{00A0}", .type, ProductMessage.typeBlank),
      ("Phone", String(repeating: "й", count: 51), .type, ProductMessage.typeTooLong),
    ])
  func nameAndType(_ name: String, _ type: String, _ field: ProductField, _ message: String) {
    let draft = ProductDraft(name: name, type: type, price: "10", tax: "5", locale: .enUS)
    #expect(draft.validate() == .failure(.init(errors: [.init(field: field, message: message)])))
  }

  @Test func everyFieldIsReportedInOrder() throws {
    let draft = ProductDraft(name: "", type: "", price: "0", tax: "200", locale: .enUS)
    let error = try #require(draft.validate().productErrors)
    #expect(error.errors.map(\.field) == [.name, .type, .price, .tax])
    #expect(error.message == ProductMessage.nameBlank)
    #expect(
      error.fieldErrors == [
        .name: ProductMessage.nameBlank, .type: ProductMessage.typeBlank,
        .price: ProductMessage.priceNotPositive, .tax: ProductMessage.taxOutOfRange,
      ])
  }

  @Test func keysAndMessages() {
    #expect(ProductField.allCases.map(\.rawValue) == ["name", "type", "price", "tax"])
    #expect(
      ProductField.allCases.map(\.swipeKey) == ["product_name", "product_type", "price", "tax"])
    #expect(ProductMessage.priceNotPositive == "Price must be greater than 0.")
  }

  @Test func searchKeyOfProduct() {
    let product = Product(name: "  Crème  Brûlée", type: "Food", price: 1, tax: 0)
    #expect(product.searchKey == "creme brulee")
  }
}

@Suite("ProductInput (API input)")
struct ProductInputTests {
  @Test(
    "valid API values",
    arguments: [
      (DecimalInput("5800.00"), DecimalInput(number: 10.0), "5800", "10"),
      (DecimalInput(number: 5800.0), DecimalInput("10"), "5800", "10"),
      (DecimalInput(number: 1694.92), DecimalInput(number: 18), "1694.92", "18"),
      (DecimalInput(number: 0.1), DecimalInput(number: 0.3), "0.1", "0.3"),
      (DecimalInput(number: 1e3), DecimalInput(number: 12.5), "1000", "12.5"),
      (DecimalInput(" 12.50 "), DecimalInput("0"), "12.5", "0"),
      (DecimalInput(number: 999_999_999_999.99), DecimalInput("100.00"), "999999999999.99", "100"),
    ])
  func valid(
    _ price: DecimalInput, _ tax: DecimalInput, _ expectedPrice: String, _ expectedTax: String
  )
    throws
  {
    let input = ProductInput(name: " Phone ", type: "Product", price: price, tax: tax)
    let product = try input.validate().get()
    #expect(
      product
        == Product(
          name: "Phone", type: "Product", price: productDecimal(expectedPrice),
          tax: productDecimal(expectedTax)))
  }

  @Test(
    "invalid API prices",
    arguments: [
      (nil, ProductMessage.priceMissing),
      (DecimalInput(""), ProductMessage.priceMissing),
      (DecimalInput("  "), ProductMessage.priceMissing),
      (DecimalInput("5,800.00"), ProductMessage.priceNotANumber),
      (DecimalInput("5800,00"), ProductMessage.priceNotANumber),
      (DecimalInput("1e3"), ProductMessage.priceNotANumber),
      (DecimalInput(".5"), ProductMessage.priceNotANumber),
      (DecimalInput("5."), ProductMessage.priceNotANumber),
      (DecimalInput("+5"), ProductMessage.priceNotANumber),
      (DecimalInput("Rs 5"), ProductMessage.priceNotANumber),
      (DecimalInput(number: .infinity), ProductMessage.priceNotANumber),
      (DecimalInput(number: .nan), ProductMessage.priceNotANumber),
      (DecimalInput("0"), ProductMessage.priceNotPositive),
      (DecimalInput("-1.00"), ProductMessage.priceNotPositive),
      (DecimalInput(number: -0.0), ProductMessage.priceNotPositive),
      (DecimalInput("10.005"), ProductMessage.priceTooPrecise),
      (DecimalInput(number: 10.005), ProductMessage.priceTooPrecise),
      (DecimalInput(number: 0.1 + 0.2), ProductMessage.priceTooPrecise),
      (DecimalInput(number: 1e-5), ProductMessage.priceTooPrecise),
      (DecimalInput(number: 1e12), ProductMessage.priceTooLarge),
      (DecimalInput(number: 1e20), ProductMessage.priceTooLarge),
      (DecimalInput(number: 1e300), ProductMessage.priceNotANumber),
    ] as [(DecimalInput?, String)])
  func invalidPrice(_ price: DecimalInput?, _ message: String) {
    let input = ProductInput(name: "Phone", type: "Product", price: price, tax: DecimalInput("5"))
    #expect(input.validate() == .failure(.init(errors: [.init(field: .price, message: message)])))
  }

  @Test(
    "invalid API taxes",
    arguments: [
      (nil, ProductMessage.taxMissing),
      (DecimalInput("ten"), ProductMessage.taxNotANumber),
      (DecimalInput("-0.01"), ProductMessage.taxOutOfRange),
      (DecimalInput(number: 100.5), ProductMessage.taxOutOfRange),
      (DecimalInput("12.345"), ProductMessage.taxTooPrecise),
    ] as [(DecimalInput?, String)])
  func invalidTax(_ tax: DecimalInput?, _ message: String) {
    let input = ProductInput(name: "Phone", type: "Product", price: DecimalInput("1"), tax: tax)
    #expect(input.validate() == .failure(.init(errors: [.init(field: .tax, message: message)])))
  }

  @Test func missingNameAndType() throws {
    let input = ProductInput(name: nil, type: nil, price: DecimalInput("1"), tax: DecimalInput("1"))
    let error = try #require(input.validate().productErrors)
    #expect(
      error.fieldErrors == [.name: ProductMessage.nameBlank, .type: ProductMessage.typeBlank])
  }

  @Test func decodesNumbersAndStringsExactly() throws {
    struct Body: Decodable {
      var a: DecimalInput
      var b: DecimalInput
      var c: DecimalInput
      var d: DecimalInput
      var e: DecimalInput
      var f: DecimalInput
    }
    let json = #"{"a": 5800.00, "b": "5800.00", "c": 0.1, "d": 1694.92, "e": 1e2, "f": 18.0}"#
    let body = try JSONDecoder().decode(Body.self, from: Data(json.utf8))
    #expect(body.a.value == productDecimal("5800"))
    #expect(body.a.isNumber)
    #expect(body.b.value == productDecimal("5800"))
    #expect(body.b.text == "5800.00")
    #expect(!body.b.isNumber)
    #expect(body.c.value == productDecimal("0.1"))
    #expect(body.d.value == productDecimal("1694.92"))
    #expect(body.e.value == productDecimal("100"))
    #expect(body.f.value == productDecimal("18"))
  }

  @Test func refusesOtherJSONTypes() {
    struct Body: Decodable { var a: DecimalInput }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Body.self, from: Data(#"{"a": true}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Body.self, from: Data(#"{"a": null}"#.utf8))
    }
  }
}

extension Result where Success == Product, Failure == ProductValidationError {
  fileprivate var productErrors: ProductValidationError? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

@Suite("Product names are one line of text")
struct ProductControlCharacterTests {
  @Test(arguments: [
    "ab\u{0}cd", "Tab\there", "two\nlines", "esc\u{1B}[31m", "del\u{7F}", "c1\u{85}x",
  ])
  func controlCharactersInsideAreRefused(text: String) {
    let input = ProductInput(
      name: text, type: text, price: DecimalInput("1"), tax: DecimalInput("0"))
    guard case .failure(let error) = input.validate() else {
      Issue.record("\(text.debugDescription) was accepted")
      return
    }
    #expect(error.errors.map(\.field) == [.name, .type])
    #expect(error.errors.first?.message == ProductMessage.nameControl)
  }

  /// Surrounding whitespace is trimmed as before, and invisible formatting characters that
  /// text needs (joiners in emoji, a zero-width space) stay allowed.
  @Test(arguments: ["  Lamp\n", "👩‍💻 Desk", "ab\u{200B}cd", "Ёлка"])
  func oneLineOfTextPasses(text: String) throws {
    let input = ProductInput(
      name: text, type: "Office", price: DecimalInput("1"), tax: DecimalInput("0"))
    _ = try input.validate().get()
  }
}

@Suite("The product rules as the browser reads them")
struct ProductRuleSheetTests {
  /// The sheet carries the very limits and words the server's checks use: a limit or message
  /// changed in the rules changes here too.
  @Test func theSheetIsTheRules() throws {
    let sheet = ProductRuleSheet(locale: .deDE)
    #expect(sheet.name.max == Product.nameMaxLength)
    #expect(sheet.type.max == Product.typeMaxLength)
    #expect(sheet.price.max == "1000000000000")
    #expect(Decimal(string: sheet.price.max) == Product.priceLimit)
    #expect(sheet.decimalSeparator == "," && sheet.groupingSeparator == ".")
    #expect(ProductRuleSheet(locale: .ukUA).groupingSeparator == " ")
    // Each boundary the sheet states gives the sheet's message on the server.
    func message(price: String = "1", tax: String = "0", name: String = "Ok") -> [String] {
      let input = ProductInput(
        name: name, type: "Misc", price: DecimalInput(price), tax: DecimalInput(tax))
      guard case .failure(let error) = input.validate() else { return [] }
      return error.errors.map(\.message)
    }
    #expect(message(price: sheet.price.min) == [sheet.price.tooLow])
    #expect(message(price: sheet.price.max) == [sheet.price.tooHigh])
    #expect(message(price: "0.001") == [sheet.price.tooPrecise])
    #expect(message(tax: "100") == [])
    #expect(message(tax: "100.01") == [sheet.tax.tooHigh])
    #expect(message(tax: "-0.01") == [sheet.tax.tooLow])
    #expect(
      message(name: String(repeating: "x", count: sheet.name.max + 1)) == [sheet.name.tooLong])
    #expect(message(name: "a\u{0}b") == [sheet.name.control])
  }

  @Test func theSheetSpeaksTheInterfaceLanguage() {
    let ukrainian = UILanguage.$current.withValue(.uk) { ProductRuleSheet(locale: .enUS) }
    #expect(
      ukrainian.tax.tooHigh == UILanguage.$current.withValue(.uk) { ProductMessage.taxOutOfRange })
    #expect(ukrainian.tax.tooHigh != ProductRuleSheet(locale: .enUS).tax.tooHigh)
    #expect(!ProductRuleSheet(locale: .enUS).json().contains("<"))
  }
}
