import Foundation
import Testing

@testable import BackofficeCore

@Suite("Marketing plan mail links")
struct MailtoTests {
  @Test func encodesAsRFC6068() {
    let link = Mailto.link(
      recipient: "ana+ads@example.com", subject: "Plan & budget = 1/2? #1",
      body: "Line one\nLine two €\r\nend")
    #expect(
      link
        == "mailto:ana%2Bads@example.com?subject=Plan%20%26%20budget%20%3D%201%2F2%3F%20%231"
        + "&body=Line%20one%0D%0ALine%20two%20%E2%82%AC%0D%0Aend")
    #expect(URL(string: link) != nil)
  }

  @Test func emptyPartsAreLeftOut() {
    #expect(Mailto.link(recipient: "", subject: "Hi", body: "") == "mailto:?subject=Hi")
    #expect(Mailto.link(recipient: "a@b.c", subject: "", body: "") == "mailto:a@b.c")
  }

  @Test func subjectIsOneLine() {
    #expect(
      Mailto.link(recipient: "", subject: "a\nBcc: x@y", body: "")
        == "mailto:?subject=a%20Bcc%3A%20x%40y")
  }

  /// Decodes what `link` carries in `body=` back to text.
  private func body(of link: String) -> String? {
    guard let range = link.range(of: "body=") else { return nil }
    return String(link[range.upperBound...]).removingPercentEncoding
  }

  private let body = PlainTextBody(
    lead: "Marketing Campaign Selection\n\nTotal Monthly Cost: €500.00",
    entries: (1...5).map { "Package \($0)\n" + String(repeating: "detail \($0) ", count: 20) },
    trailer: "Generated on 11/22/2025")

  @Test func fitsWithoutShortening() {
    let link = Mailto.link(recipient: "a@b.c", subject: "S", body: body, limit: 10_000)
    #expect(!link.wasShortened)
    #expect(link.omittedEntries == 0)
    #expect(body(of: link.string) == body.rendered.replacingOccurrences(of: "\n", with: "\r\n"))
  }

  @Test func shortensByWholeEntriesAndSaysSo() throws {
    let full = Mailto.link(recipient: "a@b.c", subject: "S", body: body, limit: 10_000).string
    // Room for about two and a half entries.
    let limit = full.count * 55 / 100
    let link = Mailto.link(recipient: "a@b.c", subject: "S", body: body, limit: limit)
    #expect(link.wasShortened)
    #expect(link.string.count <= limit)
    let text = try #require(body(of: link.string))
    let kept = 5 - link.omittedEntries
    #expect((1...4).contains(kept))
    for number in 1...5 {
      let entry = body.entries[number - 1].replacingOccurrences(of: "\n", with: "\r\n")
      #expect(text.contains(entry) == (number <= kept), "entry \(number)")
    }
    #expect(
      text.contains(
        "… and \(link.omittedEntries) more packages — full details in the downloaded email"))
    #expect(text.hasPrefix("Marketing Campaign Selection\r\n"))
    #expect(text.hasSuffix("Generated on 11/22/2025"))
  }

  @Test func keepsAsManyEntriesAsFit() {
    let full = Mailto.link(recipient: "", subject: "S", body: body, limit: 10_000).string
    for limit in stride(from: 200, through: full.count, by: 97) {
      let link = Mailto.link(recipient: "", subject: "S", body: body, limit: limit)
      #expect(link.string.count <= limit || link.omittedEntries == 5)
      if link.omittedEntries > 0 {
        // One more entry would not have fitted.
        let oneMore = Mailto.build(
          recipient: "", subject: "S",
          body: body.rendered(keepingEntries: 5 - link.omittedEntries + 1))
        #expect(oneMore.count > limit)
      }
    }
  }

  @Test func singularNote() {
    #expect(
      PlainTextBody.omissionNote(1) == "… and 1 more package — full details in the downloaded email"
    )
  }

  @Test func tooSmallALimitLeavesOnlyTheNote() throws {
    let link = Mailto.link(recipient: "a@b.c", subject: "S", body: body, limit: 50)
    #expect(link.wasShortened)
    #expect(link.omittedEntries == 5)
    #expect(
      try #require(body(of: link.string))
        == "… and 5 more packages — full details in the downloaded email")
  }

  @Test func realSummaryUsesTheDefaultLimit() {
    var selection = PlanSelection(
      targetNames: MarketingCatalog.bundledDefault.targets.map(\.name))
    for channel in MarketingCatalog.bundledDefault.channels {
      selection.choose(packageID: channel.packages[0].id, channelID: channel.id)
    }
    let summary = PlanSummary(
      selection: selection, catalog: .bundledDefault, locale: .ukUA,
      generatedAt: Date(timeIntervalSince1970: 1_763_820_000),
      timeZone: TimeZone(identifier: "Europe/Kyiv")!)
    let link = summary.mailtoURL(recipient: "team@example.com")
    #expect(link.wasShortened)
    #expect(link.string.count <= Mailto.defaultLimit)
    #expect(
      link.string.hasPrefix(
        "mailto:team@example.com?subject=Marketing%20Campaign%20Selection%20-%2022.11.2025&body="))
    #expect(link.url != nil)
    let edited = summary.mailtoURL(recipient: "", subject: "Our plan")
    #expect(edited.string.hasPrefix("mailto:?subject=Our%20plan&body="))
  }
}
