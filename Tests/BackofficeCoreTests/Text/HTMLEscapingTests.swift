import Testing

@testable import BackofficeCore

@Suite("HTML escaping")
struct HTMLEscapingTests {
  @Test func replacesOnlyTheSpecialCharacters() {
    #expect(HTMLEscaping.text("a < b && c > d") == "a &lt; b &amp;&amp; c &gt; d")
    #expect(HTMLEscaping.text(#"say "hi" it's"#) == #"say "hi" it's"#)
    #expect(HTMLEscaping.attribute(#"say "hi" it's"#) == "say &quot;hi&quot; it&#39;s")
    #expect(HTMLEscaping.attribute("<script>") == "&lt;script&gt;")
  }

  @Test func keepsEveryOtherCharacterWhole() {
    let text = "Збір на «Мавік» — 12 500 грн 🇺🇦 e\u{301}"
    #expect(HTMLEscaping.text(text) == text)
    #expect(HTMLEscaping.attribute(text + " & <") == text + " &amp; &lt;")
    #expect(HTMLEscaping.text("") == "")
    #expect(HTMLEscaping.text("&&&") == "&amp;&amp;&amp;")
  }
}
