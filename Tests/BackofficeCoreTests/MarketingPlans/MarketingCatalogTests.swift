import Foundation
import Testing

@testable import BackofficeCore

@Suite("Marketing catalog")
struct MarketingCatalogTests {
  private let adWords = ChannelDocument(
    channel: "Google AdWords",
    monthlyFees: [
      .init(price: 150, details: ["3 optimizations"], currency: "EUR"),
      .init(price: 90, details: [], currency: "USD"),
    ])

  @Test func packagesAreNamedAsTheOriginalApp() {
    let channel = MarketingChannel(id: "2499f739821b5ab3dcd6", document: adWords)
    #expect(channel.name == "Google AdWords")
    #expect(channel.packages.map(\.id) == ["google_adwords_0", "google_adwords_1"])
    #expect(
      channel.packages.map(\.name) == ["Google AdWords Package 1", "Google AdWords Package 2"])
    #expect(channel.packages[0].description == "Monthly package for Google AdWords")
    #expect(channel.packages[1].price == 90)
    #expect(channel.packages[1].currency == "USD")
    #expect(channel.packages[0].details == ["3 optimizations"])
    #expect(channel.packages.allSatisfy { $0.channelID == "2499f739821b5ab3dcd6" })
  }

  @Test(arguments: [
    ("Facebook", "facebook"), ("Google AdWords", "google_adwords"), ("SEO", "seo"),
    ("A  B", "a__b"),
  ])
  func channelKey(name: String, key: String) {
    #expect(MarketingChannel.key(forName: name) == key)
  }

  private func targeting(_ targets: [(String, [(String, String)])]) -> TargetingDocument {
    TargetingDocument(
      targets: targets.map { name, channels in
        .init(
          target: name,
          availableChannels: channels.map { .init(channel: $0.0, channelID: $0.1) })
      })
  }

  private func document(_ name: String) -> ChannelDocument {
    ChannelDocument(
      channel: name, monthlyFees: [.init(price: 1, details: [], currency: "EUR")])
  }

  @Test func assembleKeepsFirstAppearanceOrderAndDropsUnreferencedDocuments() throws {
    let catalog = try MarketingCatalog.assemble(
      targeting: targeting([
        ("Age", [("SEO", "s"), ("Facebook", "f")]),
        ("Events", [("Twitter", "t"), ("SEO", "s"), ("Twitter", "t")]),
      ]),
      channels: [
        "f": document("Facebook"), "s": document("SEO"), "t": document("Twitter"),
        "unused": document("Unused"),
      ])
    #expect(catalog.channels.map(\.id) == ["s", "f", "t"])
    #expect(catalog.targets.map(\.name) == ["Age", "Events"])
    // A channel named twice by one target is listed once.
    #expect(catalog.targets[1].channels.map(\.id) == ["t", "s"])
    #expect(catalog.channel(id: "unused") == nil)
    #expect(catalog.package(id: "seo_0", channelID: "s")?.name == "SEO Package 1")
    #expect(catalog.package(id: "seo_0", channelID: "f") == nil)
  }

  @Test func assembleReportsAMissingChannelDocument() {
    #expect(
      throws: MarketingCatalogError.missingChannelDocument(
        channelID: "t", channelName: "Twitter", target: "Events")
    ) {
      try MarketingCatalog.assemble(
        targeting: targeting([("Age", [("SEO", "s")]), ("Events", [("Twitter", "t")])]),
        channels: ["s": document("SEO")])
    }
    let error = MarketingCatalogError.missingChannelDocument(
      channelID: "t", channelName: "Twitter", target: "Events")
    #expect(error.message == #"channel document t (Twitter, used by target "Events") is missing"#)
  }

  @Test func assembleRefusesATargetListedTwice() {
    #expect(throws: MarketingCatalogError.duplicateTarget(name: "Age")) {
      try MarketingCatalog.assemble(
        targeting: targeting([("Age", [("SEO", "s")]), ("Age", [])]),
        channels: ["s": document("SEO")])
    }
  }

  @Test func decodeFromRawDocuments() throws {
    let documents: [String: Data] = [
      "b22fd39c053b256222b1": Data(
        #"[{"target":"Age","available_channels":[{"channel":"SEO","channel_id":"s"}]}]"#.utf8),
      "s": Data(
        #"{"channel":"SEO","monthly_fees":[{"price":"99.90","details":["x"],"currency":"EUR"}]}"#
          .utf8),
    ]
    let catalog = try MarketingCatalog.decode(documents: documents)
    #expect(catalog.channels.first?.packages.first?.price == Decimal(string: "99.9"))

    #expect(throws: MarketingCatalogError.missingTargetingDocument(documentID: "nope")) {
      try MarketingCatalog.decode(documents: documents, targetingDocumentID: "nope")
    }

    var broken = documents
    broken["s"] = Data(#"{"channel":"SEO","monthly_fees":[{"price":"x"}]}"#.utf8)
    do {
      _ = try MarketingCatalog.decode(documents: broken)
      Issue.record("a broken channel document was accepted")
    } catch {
      #expect(error.message == "channel \u{201C}SEO\u{201D}: monthly_fees[0].price is not a number")
    }
  }

  @Test func bundledCatalogHasTheOriginalShape() throws {
    let catalog = MarketingCatalog.bundledDefault
    #expect(catalog.targets.count == 15)
    #expect(
      catalog.channels.map(\.name) == [
        "Facebook", "Linkedin", "Twitter", "Instagram", "Google AdWords", "SEO",
      ])
    #expect(catalog.channels.map { $0.packages.count } == [4, 4, 4, 4, 3, 4])
    let facebook = try #require(catalog.channel(id: "0af1bfee844a7003cec5"))
    #expect(facebook.packages.map(\.price) == [140, 200, 100, 75])
    #expect(facebook.packages[3].details.first == "1 pagina Facebook")
    #expect(catalog.target(named: "Location")?.channels.count == 5)
    #expect(catalog.target(named: "Location")?.availableChannelsText == "5 available channels")
    #expect(catalog.target(named: "Hyperlinks")?.subtitle == "Target based on Hyperlinks")
    // A channel has the same id in every target.
    for target in catalog.targets {
      for reference in target.channels {
        #expect(catalog.channel(id: reference.id)?.name == reference.name)
      }
    }
  }

  @Test func bundledCatalogHoldsTheSameFactsAsTheOriginalDocuments() throws {
    let documents = try MarketingFixtures.documents()
    #expect(documents.count == 7)
    let fromFixtures = try MarketingCatalog.decode(documents: documents)
    #expect(fromFixtures == MarketingCatalog.bundledDefault)
  }

  @Test func catalogRoundTripsThroughDocumentsAndJSON() throws {
    let catalog = MarketingCatalog.bundledDefault
    let (targeting, channels) = catalog.documents
    #expect(try MarketingCatalog.assemble(targeting: targeting, channels: channels) == catalog)

    let data = try JSONEncoder().encode(catalog)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""price":"140.00""#))
    #expect(text.contains(#""channel_id":"0af1bfee844a7003cec5""#))
    #expect(try JSONDecoder().decode(MarketingCatalog.self, from: data) == catalog)
  }
}
