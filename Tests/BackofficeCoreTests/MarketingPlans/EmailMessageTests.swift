import Foundation
import TestSupport
import Testing

@testable import BackofficeCore

@Suite("Marketing plan email file")
struct EmailMessageTests {
  let date = Date(timeIntervalSince1970: 1_763_820_000)  // 2025-11-22 14:00:00 UTC

  private func message(
    subject: String = "Marketing Campaign Selection - 22.11.2025",
    html: String = "<p>Hello</p>", text: String = "Hello", seed: UInt64? = 42
  ) -> EmailMessage {
    EmailMessage(
      from: "Backoffice <noreply@example.com>", to: "ana@example.com", subject: subject,
      date: date, html: html, text: text, boundarySeed: seed)
  }

  @Test func headersAndStructure() {
    let rendered = message().rendered
    let header = rendered.components(separatedBy: "\r\n\r\n")[0]
    #expect(
      header == """
        MIME-Version: 1.0\r
        Date: Sat, 22 Nov 2025 14:00:00 +0000\r
        From: Backoffice <noreply@example.com>\r
        To: ana@example.com\r
        Subject: Marketing Campaign Selection - 22.11.2025\r
        X-Unsent: 1\r
        Content-Type: multipart/alternative;\r
         boundary="\(message().boundary)"
        """)
    #expect(rendered.contains("Content-Type: text/plain; charset=utf-8\r\n"))
    #expect(rendered.contains("Content-Type: text/html; charset=utf-8\r\n"))
    #expect(rendered.hasSuffix("--\(message().boundary)--\r\n"))
  }

  @Test func everyLineEndsInCRLFAndStaysShort() {
    let long = String(repeating: "Ünïcödé text with = signs and spaces ", count: 20)
    let rendered = message(
      subject: "Кампанія " + String(repeating: "довга назва ", count: 10), html: long, text: long
    ).rendered
    #expect(rendered.unicodeScalars.allSatisfy { $0.isASCII })
    let withoutCRLF = rendered.replacingOccurrences(of: "\r\n", with: "")
    #expect(!withoutCRLF.contains("\n") && !withoutCRLF.contains("\r"))
    for line in rendered.components(separatedBy: "\r\n") {
      #expect(line.count <= 78, "line too long: \(line)")
    }
  }

  @Test func boundaryIsDeterministicWithASeed() {
    #expect(message(seed: 1).boundary == message(seed: 1).boundary)
    #expect(message(seed: 1).boundary != message(seed: 2).boundary)
    #expect(message(seed: 1).rendered == message(seed: 1).rendered)
    #expect(message(seed: 1).boundary.hasPrefix("=_Backoffice_"))
    #expect(message(seed: nil).boundary != message(seed: nil).boundary)
  }

  @Test(arguments: [
    ("UTC", "Sat, 22 Nov 2025 14:00:00 +0000"),
    ("Europe/Kyiv", "Sat, 22 Nov 2025 16:00:00 +0200"),
    ("Asia/Kolkata", "Sat, 22 Nov 2025 19:30:00 +0530"),
    ("America/St_Johns", "Sat, 22 Nov 2025 10:30:00 -0330"),
    ("Pacific/Kiritimati", "Sun, 23 Nov 2025 04:00:00 +1400"),
  ])
  func dateHeaderIsRFC5322(zone: String, expected: String) {
    #expect(EmailMessage.rfc5322Date(date, timeZone: TimeZone(identifier: zone)!) == expected)
  }

  @Test func nonASCIISubjectAndNameBecomeEncodedWords() {
    let email = EmailMessage(
      from: "Олена <olena@example.com>", to: "", subject: "Кампанія – план", date: date,
      html: "", text: "", boundarySeed: 1)
    let rendered = email.rendered
    #expect(rendered.contains("Subject: =?UTF-8?B?"))
    #expect(rendered.contains("From: =?UTF-8?B?0J7Qu9C10L3QsA==?= <olena@example.com>\r\n"))
    #expect(!rendered.contains("\r\nTo:"))
    let words = MIMEHeader.encodedWords(String(repeating: "Ї", count: 100))
    for word in words.components(separatedBy: "\r\n ") {
      #expect(word.count <= 75)
      let base64 = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
      #expect(Data(base64Encoded: String(base64)) != nil)
    }
  }

  @Test(arguments: [
    ("ana@example.com", "To: ana@example.com"),
    ("<ana@example.com>", "To: <ana@example.com>"),
    ("Ana Lima <ana@example.com>", "To: Ana Lima <ana@example.com>"),
    ("Lima, Ana <ana@example.com>", #"To: "Lima, Ana" <ana@example.com>"#),
    (#""Lima, Ana" <ana@example.com>"#, #"To: "Lima, Ana" <ana@example.com>"#),
    (#"A. "Al" Lima <a@b.c>"#, #"To: "A. \"Al\" Lima" <a@b.c>"#),
    ("Ана <ana@example.com>", "To: =?UTF-8?B?0JDQvdCw?= <ana@example.com>"),
  ])
  func addressHeaders(value: String, header: String) {
    #expect(MIMEHeader.address("To", value) == header)
  }

  @Test func headerValuesCannotAddHeaders() {
    let rendered = message(subject: "Hi\r\nBcc: evil@example.com").rendered
    #expect(!rendered.contains("\r\nBcc:"))
    #expect(rendered.contains("Subject: Hi  Bcc: evil@example.com\r\n"))
    let to = EmailMessage(
      from: "a@b.c", to: "x@y.z\nBcc: evil@example.com", subject: "S", date: date, html: "",
      text: "", boundarySeed: 1
    ).rendered
    #expect(!to.contains("\r\nBcc:"))
  }

  @Test(arguments: [
    ("plain", "plain"),
    ("a=b", "a=3Db"),
    ("trailing space ", "trailing space=20"),
    ("tab\t", "tab=09"),
    ("mid space", "mid space"),
    ("€", "=E2=82=AC"),
    ("one\ntwo\r\nthree\rfour", "one\r\ntwo\r\nthree\r\nfour"),
    ("", ""),
  ])
  func quotedPrintable(input: String, encoded: String) {
    #expect(QuotedPrintable.encode(input) == encoded)
  }

  @Test func quotedPrintableSoftBreaksNeverSplitAnEscape() {
    let encoded = QuotedPrintable.encode(String(repeating: "é", count: 60))
    let lines = encoded.components(separatedBy: "\r\n")
    #expect(lines.count > 1)
    for line in lines {
      #expect(line.count <= 76)
      let body = line.hasSuffix("=") ? String(line.dropLast()) : line
      #expect(
        body.split(separator: "=", omittingEmptySubsequences: true).allSatisfy {
          $0.count == 2
        })
    }
  }

  @Test func pythonsEmailParserReadsTheFile() throws {
    var selection = PlanSelection(targetNames: ["Location", "Keywords"])
    selection.choose(packageID: "facebook_1", channelID: "0af1bfee844a7003cec5")
    selection.choose(packageID: "seo_0", channelID: "9789d17ffaf4432dcce0")
    let summary = PlanSummary(
      selection: selection, catalog: .bundledDefault, planName: "Весна & <осінь>",
      locale: .ukUA, generatedAt: date, timeZone: TimeZone(identifier: "Europe/Kyiv")!)
    let email = summary.emailMessage(
      from: "Backoffice <noreply@example.com>", to: "Ана <ana@example.com>",
      subject: "Кампанія — " + summary.subject, date: date,
      timeZone: TimeZone(identifier: "Europe/Kyiv")!, boundarySeed: 7)

    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("marketing-eml-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("plan.eml")
    try email.data.write(to: file)

    let script = """
      import email, email.policy, json, sys
      with open(sys.argv[1], "rb") as f:
          m = email.message_from_bytes(f.read(), policy=email.policy.default)
      parts = [p for p in m.iter_parts()]
      print(json.dumps({
          "type": m.get_content_type(),
          "defects": [str(d) for d in m.defects] + [str(d) for p in parts for d in p.defects],
          "subject": str(m["Subject"]),
          "to": str(m["To"]),
          "date": m["Date"].datetime.isoformat(),
          "parts": [p.get_content_type() for p in parts],
          "charsets": [p.get_content_charset() for p in parts],
          "text": m.get_body(("plain",)).get_content(),
          "html": m.get_body(("html",)).get_content(),
      }))
      """
    let data = try Python3.run(script, arguments: [file.path])

    struct Parsed: Decodable {
      var type: String
      var defects: [String]
      var subject: String
      var to: String
      var date: String
      var parts: [String]
      var charsets: [String]
      var text: String
      var html: String
    }
    let parsed = try JSONDecoder().decode(Parsed.self, from: data)
    #expect(parsed.type == "multipart/alternative")
    #expect(parsed.defects.isEmpty)
    #expect(parsed.parts == ["text/plain", "text/html"])
    #expect(parsed.charsets == ["utf-8", "utf-8"])
    #expect(parsed.subject == "Кампанія — Marketing Campaign Selection - 22.11.2025")
    #expect(parsed.to == "Ана <ana@example.com>")
    #expect(parsed.date == "2025-11-22T16:00:00+02:00")
    // The decoded parts keep the file's CRLF line ends.
    #expect(parsed.text.replacingOccurrences(of: "\r\n", with: "\n") == summary.text)
    #expect(parsed.html.replacingOccurrences(of: "\r\n", with: "\n") == summary.html)
  }
}
