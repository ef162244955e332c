import Testing

@testable import BackofficeServer

/// How a page is written: the rules the views (and their snapshots) rely on.
@Suite("HTML nodes")
struct HTMLNodeTests {
  @Test func elementsAttributesAndText() {
    let node = H.div(
      [.class("card"), .id("a&b"), .hidden, .data("name", "“Lamp” <b> & \"x\"")],
      [H.text("1 < 2 & 3"), H.input([.type("text"), .value("")]), .raw("<b>as is</b>")])
    #expect(
      node.render()
        == #"<div class="card" id="a&amp;b" hidden data-name="“Lamp” &lt;b&gt; &amp; &quot;x&quot;">"#
        + #"1 &lt; 2 &amp; 3<input type="text" value/><b>as is</b></div>"#)
  }

  /// A name given twice keeps its first place and takes the last value.
  @Test func aRepeatedAttributeTakesTheLastValue() {
    let node = H.span([.class("a"), .id("x"), .class("b")], "t")
    #expect(node.render() == #"<span class="b" id="x">t</span>"#)
  }

  @Test func groupsAndEmptyNodesAddNothingAroundThem() {
    let node = HTMLNode.group([H.empty, H.p([], "one"), .group([H.p([], "two")])])
    #expect(node.render() == "<p>one</p><p>two</p>")
    #expect(H.empty.render().isEmpty)
  }
}
