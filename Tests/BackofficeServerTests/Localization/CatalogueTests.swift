import Foundation
import Testing

@testable import BackofficeCore
@testable import BackofficeServer

/// The two catalogues stay complete and in step with the code: every key the code uses is in
/// both, every key in them is used, plural entries give each language's forms, and both
/// languages fill in the same `{names}`.
@Suite("Interface texts")
struct CatalogueTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Texts that are the same word in both languages.
  static let sameInBoth: Set<String> = [
    "layout.app_name"
  ]

  static func files(under folder: String, ending suffix: String) throws -> [(String, String)] {
    let base = root.appendingPathComponent(folder)
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
    else { return [] }
    var found: [(String, String)] = []
    for case let url as URL in walker where url.path.hasSuffix(suffix) {
      found.append((url.path, try String(contentsOf: url, encoding: .utf8)))
    }
    return found
  }

  static func matches(_ pattern: String, in text: String) throws -> [String] {
    let regex = try NSRegularExpression(pattern: pattern)
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap {
      Range($0.range(at: 1), in: text).map { String(text[$0]) }
    }
  }

  /// Keys the Swift code asks for with `L("…")` and the scripts with `t("…")`/`tn("…")`.
  static func usedKeys() throws -> (swift: Set<String>, script: Set<String>, sources: String) {
    var swift = Set<String>()
    var script = Set<String>()
    var everything = ""
    for (_, text) in try files(under: "Sources", ending: ".swift") {
      swift.formUnion(try matches(#"\bL\(\s*"([a-z0-9_.]+)""#, in: text))
      everything += text
    }
    for (_, text) in try files(under: "Public/js", ending: ".js") {
      script.formUnion(
        try matches(#"\btn?\(\s*"([a-z0-9_.]+)""#, in: text).map { ScriptTexts.prefix + $0 })
      everything += text
    }
    return (swift, script, everything)
  }

  @Test func bothLanguagesHaveTheSameKeys() {
    let english = Set(UILanguage.en.catalogue.entries.keys)
    let ukrainian = Set(UILanguage.uk.catalogue.entries.keys)
    #expect(english.subtracting(ukrainian).sorted() == [], "missing in uk.json")
    #expect(ukrainian.subtracting(english).sorted() == [], "missing in en.json")
  }

  @Test func everyKeyTheCodeUsesIsInBothCatalogues() throws {
    let (swift, script, _) = try Self.usedKeys()
    for language in UILanguage.allCases {
      let keys = Set(language.catalogue.entries.keys)
      #expect(swift.union(script).subtracting(keys).sorted() == [], "missing in \(language)")
    }
  }

  /// A key nobody asks for is a text nobody sees: it is either dead or asked for in a way
  /// (built from pieces) that hides it from this check, and from translators.
  @Test func everyKeyInTheCatalogueIsUsed() throws {
    let (_, _, sources) = try Self.usedKeys()
    let unused = UILanguage.en.catalogue.entries.keys.filter { key in
      let written = key.hasPrefix(ScriptTexts.prefix) ? String(key.dropFirst(3)) : key
      return !sources.contains("\"\(written)\"")
    }
    #expect(unused.sorted() == [])
  }

  @Test func keysAreDottedLowercaseNames() throws {
    for key in UILanguage.en.catalogue.entries.keys {
      #expect(try !Self.matches(#"^([a-z0-9_]+(\.[a-z0-9_]+)+)$"#, in: key).isEmpty, "\(key)")
    }
  }

  @Test func pluralEntriesGiveEveryFormOfTheirLanguage() {
    for language in UILanguage.allCases {
      for (key, entry) in language.catalogue.entries {
        guard case .plural(let forms) = entry else { continue }
        #expect(
          Set(language.pluralCategories).isSubset(of: Set(forms.keys)),
          "\(language) \(key): \(forms.keys.sorted())")
      }
      // The same entries are plural in both languages.
      let plural = Set(
        language.catalogue.entries.filter { if case .plural = $0.value { true } else { false } }
          .keys)
      let englishPlural = Set(
        UILanguage.en.catalogue.entries.filter {
          if case .plural = $0.value { true } else { false }
        }.keys)
      #expect(plural == englishPlural, "\(language)")
    }
  }

  @Test func bothLanguagesFillInTheSameNames() {
    for (key, entry) in UILanguage.en.catalogue.entries {
      guard let other = UILanguage.uk.catalogue.entries[key] else { continue }
      let english = entry.forms.map(Catalogue.placeholders(in:)).reduce(Set(), { $0.union($1) })
      let ukrainian = other.forms.map(Catalogue.placeholders(in:)).reduce(Set(), { $0.union($1) })
      #expect(english == ukrainian, "\(key)")
    }
  }

  /// English texts hold no Cyrillic; Ukrainian texts are not left in English.
  @Test func eachCatalogueIsInItsLanguage() {
    for (key, entry) in UILanguage.en.catalogue.entries {
      for form in entry.forms {
        #expect(!form.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }, "\(key)")
      }
    }
    for (key, entry) in UILanguage.uk.catalogue.entries where !Self.sameInBoth.contains(key) {
      #expect(entry != UILanguage.en.catalogue.entries[key], "\(key) is untranslated")
      for form in entry.forms {
        let words = Catalogue.fillForCheck(form)
        let hasLatinWords = words.unicodeScalars.contains { ("a"..."z").contains($0) }
        let hasCyrillic = words.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
        #expect(!hasLatinWords || hasCyrillic, "\(key): \(form)")
      }
    }
  }

  @Test func fillingAndPlurals() {
    let catalogue = Catalogue(entries: [
      "a.b": .text("{name} has {n} of {name}; {unknown} stays"),
      "a.count": .plural(["one": "{count} збір", "few": "{count} збори", "many": "{count} зборів"]),
    ])
    #expect(
      catalogue.text("a.b", values: ["name": "X", "n": "2"], language: .en)
        == "X has 2 of X; {unknown} stays")
    let counts = [1: "1 збір", 2: "2 збори", 5: "5 зборів", 11: "11 зборів", 21: "21 збір"]
    for (count, text) in counts {
      #expect(
        catalogue.text("a.count", values: ["count": String(count)], count: count, language: .uk)
          == text)
    }
    #expect(catalogue.text("missing", language: .en) == nil)
  }

  @Test func theTaskLanguageDecidesTheText() {
    #expect(L("nav.products") == "Products")
    UILanguage.$current.withValue(.uk) { #expect(L("nav.products") == "Товари") }
    // An unknown key shows itself rather than nothing.
    #expect(L("no.such.key") == "no.such.key")
  }

  @Test(arguments: [
    ("uk-UA,uk;q=0.9,en;q=0.8", UILanguage.uk), ("en-US,en;q=0.9", .en), ("de-DE", .en),
    ("de-DE,uk;q=0.5", .uk), ("uk;q=0, en", .en), ("", .en), ("UK", .uk), ("en;q=0.5,uk", .uk),
  ])
  func acceptLanguagePicksTheInterfaceLanguage(header: String, expected: UILanguage) {
    #expect(UILanguage.bestMatch(acceptLanguage: header) == expected)
  }
}

extension Catalogue {
  /// The text without its `{names}` and the Latin words that are names of things (Backoffice,
  /// CSV, URL…), for the check that a Ukrainian text is written in Ukrainian.
  static func fillForCheck(_ text: String) -> String {
    var words = text
    for name in placeholders(in: text) {
      words = words.replacingOccurrences(of: "{\(name)}", with: "")
    }
    for brand in [
      "Backoffice", "CSV", "URL", "API", "ISO", "JSON", "PNG", "JPEG", "QR", "Monobank", "Swipe",
      "HTTP", "HTTPS", "UTC", "mailto", "IBAN", "EUR", "USD", "UAH", "Google", "Facebook",
    ] {
      words = words.replacingOccurrences(of: brand, with: "")
    }
    return words.lowercased()
  }
}
