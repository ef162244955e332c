import Foundation

/// `SearchNormalizer`'s tables as data for the browser, so a device searching its offline copy
/// of the catalog folds a query exactly as the server folds names, without a copy of the
/// tables of its own. The steps themselves (lower case, canonical decomposition, whitespace,
/// control characters, composition) are Unicode's, the same in both.
public struct SearchFoldingSheet: Encodable, Sendable, Equatable {
  /// Accent marks that are dropped: inclusive ranges of code points.
  public var foldedMarks: [[UInt32]]
  /// Marks kept after these letters (`и` + breve = `й`): pairs of base and mark.
  public var keptMarks: [[UInt32]]
  /// Invisible characters that are dropped (control characters are too).
  public var ignorable: [UInt32]
  /// Letters written another way: the code point (as a decimal string) and its replacement.
  public var replacements: [String: String]
  /// Full-width ASCII: the first and last code point, and how far it is from ASCII.
  public var fullWidth: [UInt32]

  public init() {
    foldedMarks = SearchNormalizer.foldedMarkRanges.map { [$0.lowerBound, $0.upperBound] }
    keptMarks = SearchNormalizer.keptMarks.map { [$0.base, $0.mark] }
    ignorable = SearchNormalizer.ignorable.sorted()
    replacements = Dictionary(
      uniqueKeysWithValues: SearchNormalizer.replacements.map { (String($0.key), $0.value) })
    fullWidth = [
      SearchNormalizer.fullWidth.lowerBound, SearchNormalizer.fullWidth.upperBound,
      SearchNormalizer.fullWidthOffset,
    ]
  }

  /// The sheet as JSON, safe inside `<script type="application/json">`.
  public func json() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
  }
}
