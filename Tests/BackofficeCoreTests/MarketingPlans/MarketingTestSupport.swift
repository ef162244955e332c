import Foundation

@testable import BackofficeCore

/// The original app's seven documents, kept in the repository (`Tests/Fixtures`) so a clone
/// alone runs every test.
enum MarketingFixtures {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("../../Fixtures/marketing-catalog-npoint")
    .standardizedFileURL

  /// Every document keyed by id (file name without ".json").
  static func documents() throws -> [String: Data] {
    var documents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
    where name.hasSuffix(".json") {
      documents[String(name.dropLast(5))] = try Data(
        contentsOf: directory.appendingPathComponent(name))
    }
    return documents
  }
}

/// A small catalog for rule tests. Targets: A → [x, y], B → [y, z], C → [z].
/// Channel "x" has prices in EUR, "y" in USD, "z" in UAH.
enum SampleCatalog {
  static func channel(_ id: String, _ name: String, _ fees: [(Decimal, String)]) -> MarketingChannel
  {
    MarketingChannel(
      id: id,
      document: ChannelDocument(
        channel: name,
        monthlyFees: fees.map {
          ChannelDocument.MonthlyFee(price: $0.0, details: ["\(name) detail"], currency: $0.1)
        }))
  }

  static let x = channel("x", "Xenon", [(100, "EUR"), (Decimal(string: "49.99")!, "EUR")])
  static let y = channel("y", "Yak Ads", [(20, "USD"), (Decimal(string: "0.10")!, "USD")])
  static let z = channel("z", "Zulu", [(Decimal(string: "1500.50")!, "UAH"), (300, "UAH")])

  static let catalog = MarketingCatalog(
    targets: [
      MarketingTarget(name: "A", channels: [ref(x), ref(y)]),
      MarketingTarget(name: "B", channels: [ref(y), ref(z)]),
      MarketingTarget(name: "C", channels: [ref(z)]),
    ],
    channels: [x, y, z])

  static func ref(_ channel: MarketingChannel) -> MarketingChannelRef {
    MarketingChannelRef(id: channel.id, name: channel.name)
  }
}
