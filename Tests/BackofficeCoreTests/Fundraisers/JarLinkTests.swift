import Foundation
import Testing

@testable import BackofficeCore

@Suite("Jar links", .ukrainian)
struct JarLinkTests {
  @Test(
    "accepted forms",
    arguments: [
      ("https://send.monobank.ua/jar/8Xd9vZqKpL", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/jar/8Xd9vZqKpL/", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/jar/8Xd9vZqKpL?a=1&t=share", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/jar/8Xd9vZqKpL/?utm_source=x", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/jar/8Xd9vZqKpL#top", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/?clientId=8Xd9vZqKpL", "8Xd9vZqKpL"),
      ("https://send.monobank.ua?clientId=8Xd9vZqKpL", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/jar?x=1&clientId=8Xd9vZqKpL", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/jar/8Xd9vZqKpL?clientId=8Xd9vZqKpL", "8Xd9vZqKpL"),
      ("http://send.monobank.ua/jar/8Xd9vZqKpL", "8Xd9vZqKpL"),
      ("HTTPS://SEND.Monobank.UA/jar/8Xd9vZqKpL", "8Xd9vZqKpL"),
      ("  https://send.monobank.ua/jar/8Xd9vZqKpL \n", "8Xd9vZqKpL"),
      ("https://send.monobank.ua/jar/abcde", "abcde"),
      (
        "https://send.monobank.ua/jar/" + String(repeating: "a1", count: 20),
        String(repeating: "a1", count: 20)
      ),
    ])
  func accepts(text: String, id: String) throws {
    let parsed = try JarLink.parse(text)
    #expect(parsed.rawValue == id)
    #expect(parsed.link == "https://send.monobank.ua/jar/\(id)")
  }

  @Test(
    "refused forms",
    arguments: [
      ("", JarLinkError.empty),
      ("   ", .empty),
      ("hello", .notALink),
      ("send.monobank.ua/jar/8Xd9vZqKpL", .notALink),
      ("://send.monobank.ua/jar/8Xd9vZqKpL", .notALink),
      ("https://", .notALink),
      ("https:///jar/8Xd9vZqKpL", .notALink),
      ("ftp://send.monobank.ua/jar/8Xd9vZqKpL", .unsupportedScheme),
      ("https://monobank.ua/jar/8Xd9vZqKpL", .wrongHost),
      ("https://www.send.monobank.ua/jar/8Xd9vZqKpL", .wrongHost),
      ("https://send.monobank.ua.evil.com/jar/8Xd9vZqKpL", .wrongHost),
      ("https://user@send.monobank.ua/jar/8Xd9vZqKpL", .wrongHost),
      ("https://send.monobank.ua:8443/jar/8Xd9vZqKpL", .wrongHost),
      ("https://send.monobank.ua/", .missingID),
      ("https://send.monobank.ua/jar/", .missingID),
      ("https://send.monobank.ua/other/8Xd9vZqKpL", .missingID),
      ("https://send.monobank.ua/jar/?clientid=8Xd9vZqKpL", .missingID),
      ("https://send.monobank.ua/jar/8Xd9vZqKpL/extra", .unexpectedPath),
      ("https://send.monobank.ua/jar//8Xd9vZqKpL", .unexpectedPath),
      ("https://send.monobank.ua/jar/abcd", .invalidID),
      ("https://send.monobank.ua/jar/" + String(repeating: "a", count: 41), .invalidID),
      ("https://send.monobank.ua/jar/8Xd9-vZqKpL", .invalidID),
      ("https://send.monobank.ua/jar/8Xd9%20vZqKpL", .invalidID),
      ("https://send.monobank.ua/jar/банкаБанка", .invalidID),
      ("https://send.monobank.ua/?clientId=", .invalidID),
      ("https://send.monobank.ua/jar/8Xd9vZqKpL?clientId=OtherJar12", .conflictingIDs),
    ])
  func refuses(text: String, expected: JarLinkError) {
    #expect(throws: expected) { try JarLink.parse(text) }
  }

  @Test(
    "every message starts with the original text and says more",
    arguments: [
      JarLinkError.empty, .notALink, .unsupportedScheme, .wrongHost, .missingID, .unexpectedPath,
      .invalidID, .conflictingIDs,
    ])
  func messages(error: JarLinkError) {
    #expect(error.message.hasPrefix("Неправильний формат URL. "))
    #expect(error.message.count > "Неправильний формат URL. ".count + 10)
  }

  @Test func specificMessages() {
    #expect(
      JarLinkError.wrongHost.message
        == "Неправильний формат URL. Це не посилання на банку Monobank: очікується "
        + "https://send.monobank.ua/jar/…")
    #expect(
      JarLinkError.invalidID.message
        == "Неправильний формат URL. Ідентифікатор банки має містити від 5 до 40 латинських "
        + "літер і цифр")
  }

  @Test func jarIDValidation() {
    #expect(JarID(rawValue: "8Xd9vZqKpL") != nil)
    #expect(JarID(rawValue: "abc") == nil)
    #expect(JarID(rawValue: "abc de") == nil)
    #expect(JarID(rawValue: "ABCDÉ") == nil)
  }

  @Test func jarIDCodableAsString() throws {
    let id = try #require(JarID(rawValue: "8Xd9vZqKpL"))
    let data = try JSONEncoder().encode([id])
    #expect(String(decoding: data, as: UTF8.self) == #"["8Xd9vZqKpL"]"#)
    #expect(try JSONDecoder().decode([JarID].self, from: data) == [id])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([JarID].self, from: Data(#"["no"]"#.utf8))
    }
  }
}
