import Foundation

/// An HTTP `Accept-Language` header read as the language tags it names, most wanted first:
/// by q-value, then by order; `*` and tags weighted 0 (or with a weight that is not a number)
/// are left out.
public enum AcceptLanguage {
  public static func preferred(_ header: String) -> [String] {
    var ranges: [(tag: String, quality: Double, order: Int)] = []
    for (order, item) in header.split(separator: ",").enumerated() {
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let tag = parts.first, !tag.isEmpty, tag != "*" else { continue }
      var quality = 1.0
      for parameter in parts.dropFirst() where parameter.lowercased().hasPrefix("q=") {
        // A malformed weight makes the range unusable rather than preferred.
        quality = Double(parameter.dropFirst(2)) ?? 0
      }
      if quality > 0 { ranges.append((tag, quality, order)) }
    }
    ranges.sort { $0.quality != $1.quality ? $0.quality > $1.quality : $0.order < $1.order }
    return ranges.map(\.tag)
  }
}
