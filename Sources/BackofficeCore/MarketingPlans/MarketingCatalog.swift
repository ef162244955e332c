import Foundation

/// Everything a plan can be built from: targeting options, the channels they reach, and each
/// channel's monthly packages.
public struct MarketingCatalog: Hashable, Sendable, Codable {
  /// Targets in the order of the targeting document.
  public var targets: [MarketingTarget]
  /// Channels in order of first appearance in the targeting document, each once.
  public var channels: [MarketingChannel]

  /// Document id of the original targeting document.
  public static let targetingDocumentID = "b22fd39c053b256222b1"

  public init(targets: [MarketingTarget], channels: [MarketingChannel]) {
    self.targets = targets
    self.channels = channels
  }

  public func target(named name: String) -> MarketingTarget? {
    targets.first { $0.name == name }
  }

  public func channel(id: String) -> MarketingChannel? {
    channels.first { $0.id == id }
  }

  public func package(id: String, channelID: String) -> MarketingPackage? {
    channel(id: channelID)?.packages.first { $0.id == id }
  }

  /// Builds a catalog from a targeting document and the channel documents keyed by channel id.
  /// Channel documents nobody references are left out; a referenced one that is missing, or a
  /// target listed twice, is an error.
  public static func assemble(
    targeting: TargetingDocument, channels documents: [String: ChannelDocument]
  ) throws(MarketingCatalogError) -> MarketingCatalog {
    var targets: [MarketingTarget] = []
    var targetNames = Set<String>()
    var channels: [MarketingChannel] = []
    var channelIDs = Set<String>()
    for target in targeting.targets {
      guard targetNames.insert(target.target).inserted else {
        throw .duplicateTarget(name: target.target)
      }
      var references: [MarketingChannelRef] = []
      for reference in target.availableChannels {
        // A target that names the same channel twice would otherwise count it twice.
        guard !references.contains(where: { $0.id == reference.channelID }) else { continue }
        references.append(MarketingChannelRef(id: reference.channelID, name: reference.channel))
        guard channelIDs.insert(reference.channelID).inserted else { continue }
        guard let document = documents[reference.channelID] else {
          throw .missingChannelDocument(
            channelID: reference.channelID, channelName: reference.channel, target: target.target)
        }
        channels.append(MarketingChannel(id: reference.channelID, document: document))
      }
      targets.append(MarketingTarget(name: target.target, channels: references))
    }
    return MarketingCatalog(targets: targets, channels: channels)
  }

  /// Decodes and assembles a catalog from raw documents keyed by document id (as fetched from the
  /// JSON host or uploaded as files named `{id}.json`).
  public static func decode(
    documents: [String: Data], targetingDocumentID: String = targetingDocumentID
  ) throws(MarketingCatalogError) -> MarketingCatalog {
    guard let targetingData = documents[targetingDocumentID] else {
      throw .missingTargetingDocument(documentID: targetingDocumentID)
    }
    let targeting: TargetingDocument
    do {
      targeting = try TargetingDocument.decode(targetingData, documentID: targetingDocumentID)
    } catch {
      throw .invalidDocument(error)
    }
    var channels: [String: ChannelDocument] = [:]
    for id in targeting.channelIDs {
      guard let data = documents[id] else { continue }  // reported by `assemble` with its target
      do {
        channels[id] = try ChannelDocument.decode(
          data, documentID: id, name: targeting.channelName(of: id))
      } catch {
        throw .invalidDocument(error)
      }
    }
    return try assemble(targeting: targeting, channels: channels)
  }

  /// The catalog written back as documents in the original format (for export and round trips).
  public var documents: (targeting: TargetingDocument, channels: [String: ChannelDocument]) {
    let targeting = TargetingDocument(
      targets: targets.map { target in
        TargetingDocument.Target(
          target: target.name,
          availableChannels: target.channels.map {
            TargetingDocument.ChannelReference(channel: $0.name, channelID: $0.id)
          })
      })
    var channelDocuments: [String: ChannelDocument] = [:]
    for channel in channels {
      channelDocuments[channel.id] = ChannelDocument(
        channel: channel.name,
        monthlyFees: channel.packages.map {
          ChannelDocument.MonthlyFee(price: $0.price, details: $0.details, currency: $0.currency)
        })
    }
    return (targeting, channelDocuments)
  }
}

/// A targeting option and the channels it reaches, in document order.
public struct MarketingTarget: Hashable, Sendable, Codable {
  public var name: String
  public var channels: [MarketingChannelRef]

  public init(name: String, channels: [MarketingChannelRef]) {
    self.name = name
    self.channels = channels
  }

  /// "Target based on Location"
  public var subtitle: String { L("marketing.targets.based_on", ["target": name]) }

  /// "5 available channels"
  public var availableChannelsText: String {
    L("marketing.targets.available_channels", count: channels.count)
  }
}

/// A channel as a target names it.
public struct MarketingChannelRef: Hashable, Sendable, Codable {
  public var id: String
  public var name: String

  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// An advertising channel and the packages on offer for it.
public struct MarketingChannel: Hashable, Sendable, Codable, Identifiable {
  /// The channel's document id.
  public var id: String
  public var name: String
  public var packages: [MarketingPackage]

  public init(id: String, name: String, packages: [MarketingPackage]) {
    self.id = id
    self.name = name
    self.packages = packages
  }

  /// Builds the channel's packages from its document, numbered in document order. The name comes
  /// from the channel document, which owns the channel's data.
  public init(id: String, document: ChannelDocument) {
    self.id = id
    self.name = document.channel
    self.packages = document.monthlyFees.enumerated().map { index, fee in
      MarketingPackage(
        channelID: id, channelName: document.channel, index: index, price: fee.price,
        currency: fee.currency, details: fee.details)
    }
  }

  /// Key used in package ids: lower-cased name with spaces as underscores ("google_adwords").
  public static func key(forName name: String) -> String {
    name.lowercased().replacingOccurrences(of: " ", with: "_")
  }
}

/// One monthly package of a channel (one `monthly_fees` entry).
public struct MarketingPackage: Hashable, Sendable, Codable, Identifiable {
  /// "{channel key}_{index}", e.g. "google_adwords_0".
  public var id: String
  public var channelID: String
  /// "{Channel} Package {index + 1}".
  public var name: String
  /// "Monthly package for {Channel}".
  public var description: String
  public var price: Decimal
  public var currency: String
  public var details: [String]

  public init(
    id: String, channelID: String, name: String, description: String, price: Decimal,
    currency: String, details: [String]
  ) {
    self.id = id
    self.channelID = channelID
    self.name = name
    self.description = description
    self.price = price
    self.currency = currency
    self.details = details
  }

  /// Names the package the way the original app did, from its position in the channel document.
  public init(
    channelID: String, channelName: String, index: Int, price: Decimal, currency: String,
    details: [String]
  ) {
    self.init(
      id: "\(MarketingChannel.key(forName: channelName))_\(index)",
      channelID: channelID,
      name: "\(channelName) Package \(index + 1)",
      description: "Monthly package for \(channelName)",
      price: price,
      currency: currency,
      details: details)
  }

  public var money: Money { Money(amount: price, currency: currency) }

  // Stored with the price as a decimal string ("140.00"), like every amount Backoffice writes,
  // so no JSON reader turns it into a binary floating-point number.
  enum CodingKeys: String, CodingKey {
    case id, name, description, price, currency, details
    case channelID = "channel_id"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    channelID = try container.decode(String.self, forKey: .channelID)
    name = try container.decode(String.self, forKey: .name)
    description = try container.decode(String.self, forKey: .description)
    currency = try container.decode(String.self, forKey: .currency)
    details = try container.decode([String].self, forKey: .details)
    if let text = try? container.decode(String.self, forKey: .price) {
      guard let value = MarketingPriceText.parse(text) else {
        throw DecodingError.dataCorruptedError(
          forKey: .price, in: container, debugDescription: "is not a number")
      }
      price = value
    } else {
      price = try container.decode(Decimal.self, forKey: .price)
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(channelID, forKey: .channelID)
    try container.encode(name, forKey: .name)
    try container.encode(description, forKey: .description)
    try container.encode(money.decimalString, forKey: .price)
    try container.encode(currency, forKey: .currency)
    try container.encode(details, forKey: .details)
  }
}

/// Why a set of documents does not make a catalog.
public enum MarketingCatalogError: Error, Hashable, Sendable, CustomStringConvertible {
  case invalidDocument(CatalogDocumentError)
  case missingTargetingDocument(documentID: String)
  case missingChannelDocument(channelID: String, channelName: String, target: String)
  case duplicateTarget(name: String)

  public var message: String {
    switch self {
    case .invalidDocument(let error):
      error.message
    case .missingTargetingDocument(let id):
      L("marketing.catalog_error.missing_targeting_document", ["id": id])
    case .missingChannelDocument(let id, let name, let target):
      L(
        "marketing.catalog_error.missing_channel_document",
        ["id": id, "channel": name, "target": target])
    case .duplicateTarget(let name):
      L("marketing.catalog_error.duplicate_target", ["target": name])
    }
  }

  public var description: String { message }
}
