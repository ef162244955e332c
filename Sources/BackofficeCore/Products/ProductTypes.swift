import Foundation

/// One "Browse Categories" chip: a product type with how many products have it.
public struct ProductTypeChip: Hashable, Sendable, Identifiable {
  /// `SearchNormalizer.normalize(type)`: types that differ only in case, accents or spacing
  /// ("product", "Product ", "PRODUCT") share one chip. Filter products by this key.
  public var key: String
  /// The type for display, capitalised.
  public var title: String
  public var count: Int

  public var id: String { key }

  public init(key: String, title: String, count: Int) {
    self.key = key
    self.title = title
    self.count = count
  }
}

/// Builds the category chips from the types of a catalog.
public enum ProductTypes {
  /// Chips for the products' types (one entry per product), sorted by key.
  public static func chips(from types: some Sequence<String>) -> [ProductTypeChip] {
    var counts: [String: Int] = [:]
    for type in types { counts[type, default: 0] += 1 }
    return chips(fromCounts: counts)
  }

  /// Chips from a count per stored spelling (what `GROUP BY type` returns), sorted by key.
  ///
  /// Blank types are left out. Spellings that share a key are merged; the title comes from the
  /// most used spelling (ties: the smallest text), so the chip reads the way most products do.
  public static func chips(fromCounts counts: [String: Int]) -> [ProductTypeChip] {
    var groups: [String: [(spelling: String, count: Int)]] = [:]
    for (spelling, count) in counts where count > 0 {
      let key = SearchNormalizer.normalize(spelling)
      guard !key.isEmpty else { continue }
      groups[key, default: []].append((ProductRules.trimmed(spelling), count))
    }
    return groups.map { key, spellings in
      let best = spellings.min { lhs, rhs in
        lhs.count != rhs.count ? lhs.count > rhs.count : lhs.spelling < rhs.spelling
      }
      return ProductTypeChip(
        key: key, title: capitalized(best?.spelling ?? key),
        count: spellings.reduce(0) { $0 + $1.count })
    }
    .sorted { $0.key < $1.key }
  }

  /// Each word starts with a capital letter ("home decor" → "Home Decor"). A word that already
  /// has a capital letter anywhere ("iPhone", "USB", "eBay") is left as typed, because
  /// lower-casing the rest would damage brand names and abbreviations.
  public static func capitalized(_ text: String) -> String {
    var result = ""
    var word = ""
    func flush() {
      guard let first = word.first else { return }
      if word.contains(where: \.isUppercase) {
        result += word
      } else {
        result += titlecased(first) + word.dropFirst()
      }
      word = ""
    }
    for character in text {
      if character.isWhitespace {
        flush()
        result.append(character)
      } else {
        word.append(character)
      }
    }
    flush()
    return result
  }

  /// The title-case form of one character: "ǆ" → "ǅ", "ß" → "Ss", "é" → "É".
  private static func titlecased(_ character: Character) -> String {
    var scalars = character.unicodeScalars[...]
    guard let first = scalars.popFirst() else { return String(character) }
    return first.properties.titlecaseMapping + String(String.UnicodeScalarView(scalars))
  }
}
