import Testing

@testable import BackofficeCore

/// `{name}` marks are filled from the values given; anything else stays as written.
@Suite("Catalogue: filling marks")
struct CatalogueFillTests {
  static let values = ["name": "Лампа {x}", "n": "3", "b": "B", "x": "X"]

  @Test(arguments: [
    ("Nothing to fill", "Nothing to fill"),
    ("Add {name} to favourites", "Add Лампа {x} to favourites"),
    ("{n} of {n}", "3 of 3"),
    ("{n}{b}", "3B"),
    ("Unknown {other} stays", "Unknown {other} stays"),
    ("Open { without close", "Open { without close"),
    ("Nested {a{b}}", "Nested {aB}"),
    ("{}", "{}"),
    ("Ще {n} товари — «{name}»", "Ще 3 товари — «Лампа {x}»"),
    ("Trailing {", "Trailing {"),
    ("{b}", "B"),
  ])
  func fills(_ template: String, _ expected: String) {
    #expect(Catalogue.fill(template, Self.values) == expected)
  }

  @Test func withoutValuesTheTemplateIsReturned() {
    #expect(Catalogue.fill("Keep {name}", [:]) == "Keep {name}")
  }
}
