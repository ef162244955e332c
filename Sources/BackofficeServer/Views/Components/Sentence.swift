import BackofficeCore

/// A catalogue text with a node inside it (a link, words marked with their own language):
/// `template`, taken with `L(key)` or `L(key, count:)` before its other marks are filled, split
/// at its `{slot}` mark with `node` in its place; the other marks are filled from `values` after
/// the split, so a value that happens to contain a mark stays text. Each language keeps its own
/// word order.
func sentence(
  _ template: String, slot: String, _ node: HTMLNode, values: [String: String] = [:]
) -> [HTMLNode] {
  func text(_ part: Substring) -> [HTMLNode] {
    part.isEmpty ? [] : [H.text(Catalogue.fill(String(part), values))]
  }
  guard let mark = template.range(of: "{\(slot)}") else {
    return text(template[...]) + [H.text(" "), node]
  }
  return text(template[..<mark.lowerBound]) + [node] + text(template[mark.upperBound...])
}
