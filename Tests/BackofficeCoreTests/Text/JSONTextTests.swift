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
}
