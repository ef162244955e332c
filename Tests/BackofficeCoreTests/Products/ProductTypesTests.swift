import Testing

@testable import BackofficeCore

@Suite("ProductTypes")
struct ProductTypesTests {
  @Test func chipsAreDistinctSortedCapitalisedAndCounted() {
    let types = [
      "Product", "Service", "product", "Product", "service", "  home decor ", "Électronique",
      "électronique", "Électronique", "electronique", "", "   ", "USB cables",
    ]
    // Spellings sharing a key are merged; the most used one names the chip, and on a tie the
    // smallest text ("Service" before "service").
    #expect(
      ProductTypes.chips(from: types) == [
        ProductTypeChip(key: "electronique", title: "Électronique", count: 4),
        ProductTypeChip(key: "home decor", title: "Home Decor", count: 1),
        ProductTypeChip(key: "product", title: "Product", count: 3),
        ProductTypeChip(key: "service", title: "Service", count: 2),
        ProductTypeChip(key: "usb cables", title: "USB Cables", count: 1),
      ])
  }

  @Test func chipsFromGroupedCounts() {
    let chips = ProductTypes.chips(fromCounts: ["Ёлки": 2, "елки": 5, "Йогурт": 1, "Zero": 0])
    #expect(
      chips == [
        ProductTypeChip(key: "елки", title: "Елки", count: 7),
        ProductTypeChip(key: "йогурт", title: "Йогурт", count: 1),
      ])
    #expect(chips.map(\.id) == ["елки", "йогурт"])
  }

  @Test func noTypesNoChips() {
    #expect(ProductTypes.chips(from: [String]()).isEmpty)
  }

  @Test(
    "capitalised",
    arguments: [
      ("product", "Product"),
      ("home decor", "Home Decor"),
      ("iPhone cases", "iPhone Cases"),
      ("USB", "USB"),
      ("éclair", "Éclair"),
      ("ёлки", "Ёлки"),
      ("ǆungla", "ǅungla"),
      ("straße", "Straße"),
      ("t-shirt", "T-shirt"),
      ("two  spaces", "Two  Spaces"),
      ("", ""),
    ])
  func capitalised(_ text: String, _ expected: String) {
    #expect(ProductTypes.capitalized(text) == expected)
  }
}
