import Foundation

/// What a person picked in a marketing plan: targets, and at most one package per channel.
///
/// The selection stores names and ids only, so it can be saved as JSON and read back against a
/// newer catalog; `reconcile(with:)` drops whatever that catalog no longer offers.
public struct PlanSelection: Hashable, Sendable {
  /// Selected target names, in the order they were selected, each once.
  public private(set) var targetNames: [String]
  /// Chosen package id per channel id.
  public private(set) var chosenPackageIDs: [String: String]

  public init(targetNames: [String] = [], chosenPackageIDs: [String: String] = [:]) {
    var unique: [String] = []
    for name in targetNames where !unique.contains(name) {
      unique.append(name)
    }
    self.targetNames = unique
    self.chosenPackageIDs = chosenPackageIDs
  }

  public var isEmpty: Bool { targetNames.isEmpty && chosenPackageIDs.isEmpty }

  /// "Continue" from targeting is possible once a target is selected.
  public var canContinue: Bool { !targetNames.isEmpty }

  /// "Review Selected Packages" is possible once a package is chosen.
  public var canReview: Bool { !chosenPackageIDs.isEmpty }

  /// "Selected: 2 option(s)"
  public var selectedTargetsText: String {
    L("marketing.targets.selected_count", count: targetNames.count)
  }

  // MARK: Targets

  public func isSelected(target name: String) -> Bool {
    targetNames.contains(name)
  }

  /// Adds a target; selecting one that is already selected changes nothing.
  public mutating func selectTarget(_ name: String) {
    guard !targetNames.contains(name) else { return }
    targetNames.append(name)
  }

  /// Removes a target and drops the packages of channels that no other selected target reaches:
  /// those channels leave the channel list, so a package kept for them could be neither seen
  /// nor changed, yet would still be billed in the total.
  public mutating func deselectTarget(_ name: String, in catalog: MarketingCatalog) {
    targetNames.removeAll { $0 == name }
    dropUnavailablePackages(in: catalog)
  }

  /// Selects the target when it is not selected, deselects it otherwise.
  public mutating func toggleTarget(_ name: String, in catalog: MarketingCatalog) {
    if isSelected(target: name) {
      deselectTarget(name, in: catalog)
    } else {
      selectTarget(name)
    }
  }

  /// Replaces the selected targets (e.g. from a submitted form), with the same package rule as
  /// `deselectTarget`.
  public mutating func setTargets(_ names: [String], in catalog: MarketingCatalog) {
    self = PlanSelection(targetNames: names, chosenPackageIDs: chosenPackageIDs)
    dropUnavailablePackages(in: catalog)
  }

  // MARK: Channels

  /// Channels reached by the selected targets, each once, in the catalog's channel order (order
  /// of first appearance in the targeting document). Using the catalog order rather than the
  /// order targets were clicked keeps the list from reshuffling as targets change.
  public func availableChannels(in catalog: MarketingCatalog) -> [MarketingChannel] {
    let ids = availableChannelIDs(in: catalog)
    return catalog.channels.filter { ids.contains($0.id) }
  }

  public func isAvailable(channelID: String, in catalog: MarketingCatalog) -> Bool {
    availableChannelIDs(in: catalog).contains(channelID)
  }

  private func availableChannelIDs(in catalog: MarketingCatalog) -> Set<String> {
    var ids = Set<String>()
    for target in catalog.targets where targetNames.contains(target.name) {
      ids.formUnion(target.channels.map(\.id))
    }
    return ids
  }

  // MARK: Packages

  public func chosenPackageID(forChannel channelID: String) -> String? {
    chosenPackageIDs[channelID]
  }

  public func isChosen(packageID: String, channelID: String) -> Bool {
    chosenPackageIDs[channelID] == packageID
  }

  /// What `choose` did.
  public enum ChoiceOutcome: Hashable, Sendable {
    case chosen, replaced, cleared
  }

  /// Picks a package for a channel: it replaces the channel's previous package, and picking the
  /// package that is already chosen clears the channel.
  @discardableResult
  public mutating func choose(packageID: String, channelID: String) -> ChoiceOutcome {
    switch chosenPackageIDs[channelID] {
    case packageID:
      chosenPackageIDs[channelID] = nil
      return .cleared
    case nil:
      chosenPackageIDs[channelID] = packageID
      return .chosen
    default:
      chosenPackageIDs[channelID] = packageID
      return .replaced
    }
  }

  /// `choose` after checking the catalog offers the package and a selected target reaches its
  /// channel (for requests from outside, which may be stale or forged).
  @discardableResult
  public mutating func choose(packageID: String, channelID: String, in catalog: MarketingCatalog)
    throws(PlanSelectionError) -> ChoiceOutcome
  {
    guard let channel = catalog.channel(id: channelID) else {
      throw .unknownChannel(channelID: channelID)
    }
    guard isAvailable(channelID: channelID, in: catalog) else {
      throw .channelNotAvailable(channelName: channel.name)
    }
    guard channel.packages.contains(where: { $0.id == packageID }) else {
      throw .unknownPackage(packageID: packageID, channelName: channel.name)
    }
    return choose(packageID: packageID, channelID: channelID)
  }

  /// "Reset" on a channel screen: no package for that channel.
  public mutating func reset(channelID: String) {
    chosenPackageIDs[channelID] = nil
  }

  /// "Remove" on the review screen.
  public mutating func remove(packageID: String) {
    chosenPackageIDs = chosenPackageIDs.filter { $0.value != packageID }
  }

  /// Removes every chosen package but keeps the targets.
  public mutating func clearPackages() {
    chosenPackageIDs = [:]
  }

  /// Starts over: no targets, no packages.
  public mutating func clearAll() {
    self = PlanSelection()
  }

  /// The chosen packages that the catalog still has, in channel order, each with its channel.
  public func chosenPackages(in catalog: MarketingCatalog) -> [ChosenPackage] {
    availableChannels(in: catalog).compactMap { channel in
      guard let id = chosenPackageIDs[channel.id],
        let package = channel.packages.first(where: { $0.id == id })
      else { return nil }
      return ChosenPackage(channel: channel, package: package)
    }
  }

  /// Drops targets, channels and packages the catalog no longer has (after a catalog refresh).
  /// Returns whether anything was dropped.
  @discardableResult
  public mutating func reconcile(with catalog: MarketingCatalog) -> Bool {
    let before = self
    targetNames.removeAll { catalog.target(named: $0) == nil }
    dropUnavailablePackages(in: catalog)
    chosenPackageIDs = chosenPackageIDs.filter { channelID, packageID in
      catalog.package(id: packageID, channelID: channelID) != nil
    }
    return self != before
  }

  private mutating func dropUnavailablePackages(in catalog: MarketingCatalog) {
    let available = availableChannelIDs(in: catalog)
    chosenPackageIDs = chosenPackageIDs.filter { available.contains($0.key) }
  }
}

extension PlanSelection: Codable {
  // Stored as `{"targets": [...], "packages": [{"channel_id": ..., "package_id": ...}]}` with the
  // packages sorted by channel id, so equal selections always encode to the same bytes.
  private enum CodingKeys: String, CodingKey {
    case targets, packages
  }

  private struct StoredChoice: Codable {
    var channelID: String
    var packageID: String

    enum CodingKeys: String, CodingKey {
      case channelID = "channel_id"
      case packageID = "package_id"
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let targets = try container.decodeIfPresent([String].self, forKey: .targets) ?? []
    let choices = try container.decodeIfPresent([StoredChoice].self, forKey: .packages) ?? []
    var chosen: [String: String] = [:]
    for choice in choices {
      chosen[choice.channelID] = choice.packageID
    }
    self.init(targetNames: targets, chosenPackageIDs: chosen)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(targetNames, forKey: .targets)
    let choices = chosenPackageIDs.sorted { $0.key < $1.key }.map {
      StoredChoice(channelID: $0.key, packageID: $0.value)
    }
    try container.encode(choices, forKey: .packages)
  }
}

/// A chosen package together with its channel.
public struct ChosenPackage: Hashable, Sendable {
  public var channel: MarketingChannel
  public var package: MarketingPackage

  public init(channel: MarketingChannel, package: MarketingPackage) {
    self.channel = channel
    self.package = package
  }
}

/// A choice the catalog does not allow.
public enum PlanSelectionError: Error, Hashable, Sendable, CustomStringConvertible {
  case unknownChannel(channelID: String)
  case channelNotAvailable(channelName: String)
  case unknownPackage(packageID: String, channelName: String)

  public var message: String {
    switch self {
    case .unknownChannel(let id):
      L("marketing.selection_error.unknown_channel", ["id": id])
    case .channelNotAvailable(let name):
      L("marketing.selection_error.channel_not_available", ["channel": name])
    case .unknownPackage(let id, let name):
      L("marketing.selection_error.unknown_package", ["channel": name, "id": id])
    }
  }

  public var description: String { message }
}
