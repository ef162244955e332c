import Foundation

/// Folds text into the form product names are searched (and ad payment names sorted) by:
/// case- and accent-insensitive, with runs of whitespace collapsed.
///
/// Store `normalize(name)` in an indexed column and answer a prefix search with
/// `key >= normalize(query) AND key < prefixUpperBound(normalize(query))`.
///
/// The same text gives the same key on Linux and macOS: case mapping comes from the Swift
/// standard library, canonical decomposition/composition is Unicode's fixed algorithm, and the
/// rest are the small tables below. Foundation's `folding(options:locale:)` is not used because
/// its diacritic table is Apple's, not Unicode's.
///
/// What folds:
/// - letter case (`Ёлка` → `ёлка`… and further, see below), `ß`/`ẞ` → `ss`, final `ς` → `σ`;
/// - accents on Latin and Greek letters (`Crème` → `creme`, `Ångström` → `angstrom`, `ά` → `α`),
///   plus a few letters that have no decomposition but are commonly typed without their stroke
///   (`ø` → `o`, `ł` → `l`, `đ` → `d`, `ı` → `i`, `æ` → `ae`, `œ` → `oe`);
/// - Cyrillic `ё` → `е`, because Russian text routinely writes `е` for `ё`, so either spelling
///   must find the other (search engines treat them alike);
/// - Hebrew and Arabic vowel points, which are optional in normal writing;
/// - full-width Latin letters and digits (typed with Japanese input methods) → ASCII; Latin
///   ligatures (`ﬁ` → `fi`); typographic apostrophes `’` `‘` `ʼ` → `'` (Ukrainian `мʼясо` is
///   found by `м'ясо`); soft hyphens and zero-width spaces are dropped;
/// - any whitespace run → one space, none at either end.
///
/// What stays distinct: Cyrillic `й`, `ї`, `ў` are letters of their own (nobody writes `и` for
/// `й` in Ukrainian or Russian, and `мій`/`мии` are different words), Japanese voiced kana
/// (`が` ≠ `か`), and marks that are part of a letter in Indic and other scripts.
public enum SearchNormalizer {
  /// The search key of `text`.
  public static func normalize(_ text: String) -> String {
    let decomposed = text.lowercased().decomposedStringWithCanonicalMapping
    var output = String.UnicodeScalarView()
    var pendingSpace = false

    for scalar in decomposed.unicodeScalars {
      if scalar.properties.isWhitespace {
        pendingSpace = !output.isEmpty
        continue
      }
      if isIgnorable(scalar) { continue }
      if isFoldedMark(scalar) {
        // Keep the breve of й/ў and the diaeresis of ї so they recompose below.
        if let base = output.last, keepsMark(base: base, mark: scalar) { output.append(scalar) }
        continue
      }
      if pendingSpace {
        output.append(" ")
        pendingSpace = false
      }
      if let replacement = replacements[scalar.value] {
        output.append(contentsOf: replacement.unicodeScalars)
      } else if (0xFF01...0xFF5E).contains(scalar.value),
        let ascii = Unicode.Scalar(scalar.value - 0xFEE0)
      {
        output.append(ascii)
      } else {
        output.append(scalar)
      }
    }
    return String(output).precomposedStringWithCanonicalMapping
  }

  /// The smallest string greater than every string that starts with `prefix`, comparing by
  /// Unicode scalar values (which is UTF-8 byte order, the order of SQLite's default `BINARY`
  /// collation and of PostgreSQL's `COLLATE "C"`; a PostgreSQL index for this needs that
  /// collation or `text_pattern_ops`). `"crem"` → `"cren"`.
  ///
  /// nil when no such bound exists: for the empty prefix (everything matches, so leave the upper
  /// limit out) and for a prefix made only of U+10FFFF.
  public static func prefixUpperBound(_ prefix: String) -> String? {
    var scalars = Array(prefix.unicodeScalars)
    while let last = scalars.popLast() {
      guard last.value < 0x10FFFF else { continue }
      // Surrogate code points are not scalars; the next scalar after U+D7FF is U+E000.
      let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
      guard let bumped = Unicode.Scalar(next) else { return nil }
      scalars.append(bumped)
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars)
      return String(view)
    }
    return nil
  }

  /// Combining marks that are accents rather than parts of letters: the general diacritic
  /// blocks, Cyrillic titlo marks, Hebrew points and Arabic harakat.
  private static func isFoldedMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark: break
    default: return false
    }
    switch scalar.value {
    case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05C7, 0x0610...0x061A, 0x064B...0x065F,
      0x0670, 0x06D6...0x06ED, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
      return true
    default:
      return false
    }
  }

  /// Invisible characters that only affect line breaking or joining of Latin-like text.
  private static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00AD, 0x200B, 0x2060, 0xFEFF: return true
    default: return scalar.properties.generalCategory == .control
    }
  }

  /// и + breve = й, у + breve = ў, і + diaeresis = ї (all lower case by now).
  private static func keepsMark(base: Unicode.Scalar, mark: Unicode.Scalar) -> Bool {
    switch (base.value, mark.value) {
    case (0x0438, 0x0306), (0x0443, 0x0306), (0x0456, 0x0308): return true
    default: return false
    }
  }

  /// Letters without a canonical decomposition that people nonetheless type without their
  /// stroke or as two letters, and typographic variants of ASCII punctuation.
  private static let replacements: [UInt32: String] = [
    0x00DF: "ss",  // ß
    0x00E6: "ae",  // æ
    0x0153: "oe",  // œ
    0x00F8: "o",  // ø
    0x0142: "l",  // ł
    0x0111: "d",  // đ
    0x0131: "i",  // ı
    0x017F: "s",  // ſ
    0x03C2: "σ",  // ς
    0xFB00: "ff", 0xFB01: "fi", 0xFB02: "fl", 0xFB03: "ffi", 0xFB04: "ffl", 0xFB05: "st",
    0xFB06: "st",
    0x2018: "'", 0x2019: "'", 0x02BC: "'",
    0x2010: "-", 0x2011: "-",
  ]
}
