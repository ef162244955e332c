import BackofficeCore
import TestSupport
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

  /// An address breaks before its `@` and before each dot of its domain, and reads the same.
  @Test func emailsBreakBeforeTheAtAndTheDots() {
    func written(_ address: String) -> String { H.span([], H.email(address)).render() }
    #expect(written("owner@example.com") == "<span>owner<wbr/>@example<wbr/>.com</span>")
    #expect(
      written("a.b@mail.co.uk") == "<span>a.b<wbr/>@mail<wbr/>.co<wbr/>.uk</span>",
      "dots before the @ stay")
    #expect(written("no-at-sign") == "<span>no-at-sign</span>")
    #expect(written("<x>@y.z") == "<span>&lt;x&gt;<wbr/>@y<wbr/>.z</span>", "still escaped")
    #expect(written("a@b@c") == "<span>a<wbr/>@b@c</span>", "only the first @")
  }

  /// A name given twice keeps its first place and takes the last value.
  @Test func aRepeatedAttributeTakesTheLastValue() {
    let node = H.span([.class("a"), .id("x"), .class("b")], "t")
    #expect(node.render() == #"<span class="b" id="x">t</span>"#)
  }

  /// Text and attribute values are escaped while the page is written, wherever the special
  /// characters fall (first, last, side by side, beside letters of several bytes). The
  /// expected text comes from plain replacements, not from the escaper under test.
  @Test func textIsEscapedAsItIsWritten() {
    func replaced(_ text: String, quotes: Bool) -> String {
      var text = text.replacingOccurrences(of: "&", with: "&amp;")
        .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
      if quotes {
        text = text.replacingOccurrences(of: "\"", with: "&quot;")
          .replacingOccurrences(of: "'", with: "&#39;")
      }
      return text
    }
    let pieces = ["&", "<", ">", "\"", "'", "a", "ї", "😀", " ", "&amp;"]
    var random = SeededGenerator(seed: 7)
    var texts = ["", "plain", "<>&\"'", String(repeating: "&", count: 300)]
    for _ in 0..<2_000 {
      texts.append(
        (0..<Int.random(in: 1...12, using: &random)).map { _ in
          pieces.randomElement(using: &random)!
        }.joined())
    }
    for text in texts {
      #expect(H.text(text).render() == replaced(text, quotes: false))
      #expect(HTMLEscaping.text(text) == replaced(text, quotes: false))
      #expect(HTMLEscaping.attribute(text) == replaced(text, quotes: true))
      #expect(
        H.span([.title(text)], []).render()
          == (text.isEmpty
            ? "<span title></span>" : "<span title=\"\(replaced(text, quotes: true))\"></span>"))
    }
  }

  /// The first attribute given again later keeps the first place and takes the last value.
  @Test func aRepeatedFirstAttributeKeepsItsPlace() {
    let node = H.span([.id("x"), .class("a"), .id("y"), .id("z")], "t")
    #expect(node.render() == #"<span id="z" class="a">t</span>"#)
  }

  @Test func groupsAndEmptyNodesAddNothingAroundThem() {
    let node = HTMLNode.group([H.empty, H.p([], "one"), .group([H.p([], "two")])])
    #expect(node.render() == "<p>one</p><p>two</p>")
    #expect(H.empty.render().isEmpty)
  }
}
