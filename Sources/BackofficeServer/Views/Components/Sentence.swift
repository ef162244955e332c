/// Stands for a node inside a catalogue sentence: pass it as the placeholder's value, then
/// `sentence` puts the node in its place, so each language keeps its own word order.
let sentenceSlot = "\u{E000}"

/// `filled` (a catalogue text with `sentenceSlot` as one placeholder's value) as text nodes
/// around `node`.
func sentence(_ filled: String, _ node: HTMLNode) -> [HTMLNode] {
  guard let slot = filled.range(of: sentenceSlot) else { return [H.text(filled), node] }
  let before = filled[..<slot.lowerBound]
  let after = filled[slot.upperBound...]
  return (before.isEmpty ? [] : [H.text(String(before))]) + [node]
    + (after.isEmpty ? [] : [H.text(String(after))])
}
