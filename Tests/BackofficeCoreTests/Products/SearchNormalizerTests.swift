import TestSupport
import Testing

@testable import BackofficeCore

@Suite("SearchNormalizer")
struct SearchNormalizerTests {
  @Test(
    "normalize",
    arguments: [
      // Case.
      ("iPhone 15 PRO", "iphone 15 pro"),
      ("ÉCLAIR", "eclair"),
      // Latin accents, precomposed or as combining marks.
      ("Crème", "creme"),
      ("Cre\u{300}me", "creme"),
      ("Crème Brûlée", "creme brulee"),
      ("Ångström", "angstrom"),
      ("Ærøskøbing", "aeroskobing"),
      ("Łódź", "lodz"),
      ("Straße", "strasse"),
      ("STRAẞE", "strasse"),
      ("Tiếng Việt", "tieng viet"),
      ("İstanbul", "istanbul"),
      ("ıspanak", "ispanak"),
      ("Œuvre", "oeuvre"),
      ("ﬁle", "file"),
      // Greek: accents and final sigma.
      ("Άλφα", "αλφα"),
      ("ΟΔΟΣ", "οδοσ"),
      ("οδός", "οδοσ"),
      // Cyrillic: case, ё folds to е, й ї ў stay.
      ("Ёлка", "елка"),
      ("ёлка", "елка"),
      ("Елка", "елка"),
      ("Йогурт", "йогурт"),
      ("и\u{306}огурт", "йогурт"),
      ("Їжак", "їжак"),
      ("і\u{308}жак", "їжак"),
      ("Ўсход", "ўсход"),
      ("Ґанок", "ґанок"),
      ("Мʼясо", "м'ясо"),
      ("М’ясо", "м'ясо"),
      ("моло\u{301}ко", "молоко"),
      // Scripts whose marks are part of letters are left alone.
      ("हिंदी", "हिंदी"),
      ("がっこう", "がっこう"),
      ("한국어", "한국어"),
      ("ｉＰｈｏｎｅ １５", "iphone 15"),
      // Hebrew and Arabic vowel points are optional in writing.
      ("שָׁלוֹם", "שלום"),
      ("مُحَمَّد", "محمد"),
      // Whitespace and invisible characters.
      ("  Red \t\n  Apple  ", "red apple"),
      ("Red\u{00A0}Apple\u{3000}", "red apple"),
      ("Soft\u{AD}ware", "software"),
      ("Zero\u{200B}Width", "zerowidth"),
      ("\u{FEFF}Bom", "bom"),
      ("", ""),
      ("   ", ""),
      // Punctuation is kept.
      ("Coca-Cola", "coca-cola"),
      ("Coca\u{2010}Cola", "coca-cola"),
    ])
  func normalize(_ text: String, _ expected: String) {
    let key = SearchNormalizer.normalize(text)
    #expect(key == expected)
    // Byte-exact: the key goes to a database that compares bytes, not canonical equivalence.
    #expect(Array(key.utf8) == Array(expected.utf8))
  }

  @Test(
    "letters that must stay apart",
    arguments: [("й", "и"), ("ї", "і"), ("ў", "у"), ("が", "か"), ("ґ", "г")])
  func distinct(_ lhs: String, _ rhs: String) {
    #expect(SearchNormalizer.normalize(lhs) != SearchNormalizer.normalize(rhs))
  }

  @Test("ASCII text takes a shortcut with the same keys as the Unicode rules")
  func asciiShortcutAgreesWithTheRules() {
    // Every ASCII character alone, between letters and at either end.
    for byte in UInt8(0)..<0x80 {
      let character = String(UnicodeScalar(byte))
      for text in [
        character, "A\(character)b", "\(character)  Xy \(character)", "\(character)\(character)",
      ] {
        #expect(
          SearchNormalizer.asciiKey(text) == SearchNormalizer.unicodeKey(text),
          "\(Array(text.utf8))")
      }
    }
    var random = SeededGenerator(seed: 30)
    for _ in 0..<5_000 {
      let length = Int.random(in: 0...24, using: &random)
      let bytes = (0..<length).map { _ in UInt8.random(in: 0..<0x80, using: &random) }
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(SearchNormalizer.asciiKey(text) == SearchNormalizer.unicodeKey(text), "\(bytes)")
    }
    // Anything beyond ASCII goes the long way.
    #expect(SearchNormalizer.asciiKey("Crème") == nil)
    #expect(SearchNormalizer.asciiKey("abc\u{0085}") == nil)
  }

  @Test func isIdempotent() {
    for text in ["Crème Brûlée", "Ёлка Й", "ΟΔΟΣ", "Straße", "  a  b  ", "מִלָּה"] {
      let once = SearchNormalizer.normalize(text)
      #expect(SearchNormalizer.normalize(once) == once)
    }
  }

  @Test(
    "prefix upper bound",
    arguments: [
      ("crem", "cren"),
      ("a", "b"),
      ("az", "a{"),
      ("елк", "елл"),
      ("\u{D7FF}", "\u{E000}"),
      ("a\u{10FFFF}", "b"),
      ("ab\u{10FFFF}\u{10FFFF}", "ac"),
    ])
  func upperBound(_ prefix: String, _ expected: String) {
    #expect(
      SearchNormalizer.prefixUpperBound(prefix).map { Array($0.unicodeScalars) }
        == Array(expected.unicodeScalars))
  }

  @Test func noUpperBoundWithoutAPrefix() {
    #expect(SearchNormalizer.prefixUpperBound("") == nil)
    #expect(SearchNormalizer.prefixUpperBound("\u{10FFFF}") == nil)
  }

  /// Plays the database: UTF-8 byte order (SQLite BINARY, PostgreSQL "C").
  @Test func rangeQueryFindsExactlyThePrefixMatches() throws {
    let names = [
      "Crème brûlée", "Creme fraiche", "Cremona violin", "Cream", "crémant", "Crepe", "Cren",
      "Ёлка", "Елка искусственная", "Ель", "Йогурт", "Иогурт", "Apple", "Zebra", "crem",
    ]
    let keys = names.map(SearchNormalizer.normalize)
    for query in ["crem", "Crèm", "ёлк", "Е", "й", "cre", "zebra", "apple pie"] {
      let lower = SearchNormalizer.normalize(query)
      let upper = try #require(SearchNormalizer.prefixUpperBound(lower))
      let inRange = keys.filter { key in
        !Self.bytesLess(key, lower) && Self.bytesLess(key, upper)
      }
      let prefixed = keys.filter { $0.utf8.starts(with: lower.utf8) }
      #expect(inRange == prefixed, "query \(query)")
    }
    let creme = keys.filter { $0.hasPrefix(SearchNormalizer.normalize("crem")) }
    #expect(creme == ["creme brulee", "creme fraiche", "cremona violin", "cremant", "crem"])
  }

  private static func bytesLess(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
  }
}
