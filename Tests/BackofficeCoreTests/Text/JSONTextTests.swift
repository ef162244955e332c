import Foundation
import Testing

@testable import BackofficeCore

@Suite("JSON strings written by hand")
struct JSONTextTests {
  @Test func stringsAreEscaped() {
    #expect(JSONText.string(#"Say "hi" \ bye"#) == #""Say \"hi\" \\ bye""#)
    #expect(JSONText.string("a\nb\tc\r\u{01}") == #""a\nb\tc\r\u0001""#)
    #expect(JSONText.string("\u{08}\u{0C}\u{1F}") == #""\b\f\u001f""#)
    #expect(JSONText.string("Ёлка / 🎄") == "\"Ёлка / 🎄\"")
  }

  @Test(arguments: ["", "plain", "Quote \" and \\", "\u{00}\u{7F}\u{2028}", "Тип\n\t🎄"])
  func aJSONReaderGetsTheTextBack(text: String) throws {
    let data = Data(("[" + JSONText.string(text) + "]").utf8)
    let read = try #require(try JSONSerialization.jsonObject(with: data) as? [String])
    #expect(read == [text])
  }

  /// With `escapingSlashes`, the bytes are Foundation's `JSONEncoder`'s, escapes anywhere in
  /// the text (first, last, side by side) included.
  @Test(arguments: [
    "", "a/b", "/", "//x//", "\"start", "end\\", "\n\n", "mid\u{01}dle", "Ціна/шт. \"A\"",
    "\u{1F}🎄/\t",
  ])
  func slashesAreEscapedAsJSONEncoderDoes(text: String) throws {
    var out: [UInt8] = []
    JSONText.write(text, escapingSlashes: true, into: &out)
    let encoded = try JSONEncoder().encode(text)
    #expect(String(decoding: out, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
  }
}
