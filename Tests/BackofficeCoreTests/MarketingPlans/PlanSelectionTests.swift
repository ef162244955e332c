import Foundation
import Testing

@testable import BackofficeCore

@Suite("Marketing plan selection")
struct PlanSelectionTests {
  let catalog = SampleCatalog.catalog

  @Test func targetsAreAnOrderedSet() {
    var selection = PlanSelection()
    #expect(!selection.canContinue)
    selection.selectTarget("B")
    selection.selectTarget("A")
    selection.selectTarget("B")
    #expect(selection.targetNames == ["B", "A"])
    #expect(selection.canContinue)
    #expect(selection.selectedTargetsText == "Selected: 2 option(s)")
    #expect(PlanSelection(targetNames: ["C", "C", "A"]).targetNames == ["C", "A"])
  }

  @Test(arguments: [
    ([String](), [String]()),
    (["A"], ["x", "y"]),
    (["B"], ["y", "z"]),
    (["C"], ["z"]),
    (["A", "B"], ["x", "y", "z"]),
    // Selection order does not reorder channels: catalog (first appearance) order wins.
    (["C", "A"], ["x", "y", "z"]),
    (["B", "C"], ["y", "z"]),
    (["Unknown"], []),
  ])
  func availableChannelsAreTheDeduplicatedUnionInCatalogOrder(
    targets: [String], channelIDs: [String]
  ) {
    let selection = PlanSelection(targetNames: targets)
    #expect(selection.availableChannels(in: catalog).map(\.id) == channelIDs)
  }

  @Test func availableChannelsOnTheBundledCatalog() {
    let catalog = MarketingCatalog.bundledDefault
    let selection = PlanSelection(targetNames: ["Hyperlinks", "Events", "Company"])
    #expect(
      selection.availableChannels(in: catalog).map(\.name) == [
        "Facebook", "Linkedin", "Twitter", "SEO",
      ])
    let all = PlanSelection(targetNames: catalog.targets.map(\.name))
    #expect(all.availableChannels(in: catalog).count == 6)
  }

  @Test func choosingReplacesAndChoosingAgainClears() {
    var selection = PlanSelection(targetNames: ["A"])
    #expect(!selection.canReview)
    #expect(selection.choose(packageID: "xenon_0", channelID: "x") == .chosen)
    #expect(selection.chosenPackageID(forChannel: "x") == "xenon_0")
    #expect(selection.canReview)

    #expect(selection.choose(packageID: "xenon_1", channelID: "x") == .replaced)
    #expect(selection.chosenPackageID(forChannel: "x") == "xenon_1")
    #expect(selection.isChosen(packageID: "xenon_1", channelID: "x"))
    #expect(!selection.isChosen(packageID: "xenon_0", channelID: "x"))
    #expect(selection.chosenPackageIDs.count == 1)

    #expect(selection.choose(packageID: "xenon_1", channelID: "x") == .cleared)
    #expect(selection.chosenPackageID(forChannel: "x") == nil)
    #expect(!selection.canReview)
  }

  @Test func onePackagePerChannelAcrossChannels() {
    var selection = PlanSelection(targetNames: ["A", "B"])
    selection.choose(packageID: "xenon_0", channelID: "x")
    selection.choose(packageID: "yak_ads_1", channelID: "y")
    selection.choose(packageID: "zulu_0", channelID: "z")
    selection.choose(packageID: "zulu_1", channelID: "z")
    #expect(
      selection.chosenPackages(in: catalog).map(\.package.id) == ["xenon_0", "yak_ads_1", "zulu_1"])
  }

  @Test func resetRemoveAndClear() {
    var selection = PlanSelection(targetNames: ["A", "B"])
    selection.choose(packageID: "xenon_0", channelID: "x")
    selection.choose(packageID: "yak_ads_0", channelID: "y")
    selection.choose(packageID: "zulu_0", channelID: "z")

    selection.reset(channelID: "y")
    #expect(selection.chosenPackageIDs == ["x": "xenon_0", "z": "zulu_0"])
    selection.reset(channelID: "y")  // nothing chosen: no change
    #expect(selection.chosenPackageIDs.count == 2)

    selection.remove(packageID: "zulu_0")
    #expect(selection.chosenPackageIDs == ["x": "xenon_0"])
    selection.remove(packageID: "not_there")
    #expect(selection.chosenPackageIDs == ["x": "xenon_0"])

    selection.clearPackages()
    #expect(selection.chosenPackageIDs.isEmpty)
    #expect(selection.targetNames == ["A", "B"])

    selection.choose(packageID: "xenon_0", channelID: "x")
    selection.clearAll()
    #expect(selection == PlanSelection())
    #expect(selection.isEmpty)
  }

  @Test func deselectingATargetDropsPackagesOfChannelsNoLongerReached() {
    var selection = PlanSelection(targetNames: ["A", "B"])
    selection.choose(packageID: "xenon_0", channelID: "x")
    selection.choose(packageID: "yak_ads_0", channelID: "y")
    selection.choose(packageID: "zulu_0", channelID: "z")

    // Without A, x is gone; y stays because B still reaches it.
    selection.deselectTarget("A", in: catalog)
    #expect(selection.targetNames == ["B"])
    #expect(selection.chosenPackageIDs == ["y": "yak_ads_0", "z": "zulu_0"])

    // C reaches z, so removing B drops only y.
    selection.toggleTarget("C", in: catalog)
    selection.toggleTarget("B", in: catalog)
    #expect(selection.targetNames == ["C"])
    #expect(selection.chosenPackageIDs == ["z": "zulu_0"])

    selection.setTargets(["A"], in: catalog)
    #expect(selection.chosenPackageIDs.isEmpty)
  }

  @Test func validatedChoiceRefusesWhatTheCatalogDoesNotAllow() throws {
    var selection = PlanSelection(targetNames: ["A"])
    #expect(throws: PlanSelectionError.unknownChannel(channelID: "q")) {
      try selection.choose(packageID: "xenon_0", channelID: "q", in: catalog)
    }
    #expect(throws: PlanSelectionError.channelNotAvailable(channelName: "Zulu")) {
      try selection.choose(packageID: "zulu_0", channelID: "z", in: catalog)
    }
    #expect(throws: PlanSelectionError.unknownPackage(packageID: "zulu_0", channelName: "Xenon")) {
      try selection.choose(packageID: "zulu_0", channelID: "x", in: catalog)
    }
    #expect(selection.chosenPackageIDs.isEmpty)
    #expect(try selection.choose(packageID: "xenon_1", channelID: "x", in: catalog) == .chosen)
    #expect(try selection.choose(packageID: "xenon_1", channelID: "x", in: catalog) == .cleared)
    #expect(
      PlanSelectionError.channelNotAvailable(channelName: "Zulu").message
        == "Zulu is not available for the selected targets.")
  }

  @Test func reconcileDropsWhatANewerCatalogNoLongerHas() {
    var selection = PlanSelection(
      targetNames: ["A", "Gone"],
      chosenPackageIDs: ["x": "xenon_1", "y": "yak_ads_0", "q": "q_0"])
    var newer = catalog
    newer.channels[0].packages.removeLast()  // xenon_1 disappears
    let changed = selection.reconcile(with: newer)
    #expect(changed)
    #expect(selection.targetNames == ["A"])
    #expect(selection.chosenPackageIDs == ["y": "yak_ads_0"])
    let changedAgain = selection.reconcile(with: newer)
    #expect(!changedAgain)
  }

  @Test func chosenPackagesSkipUnknownIDs() {
    let selection = PlanSelection(
      targetNames: ["A"], chosenPackageIDs: ["x": "xenon_9", "y": "yak_ads_1"])
    let chosen = selection.chosenPackages(in: catalog)
    #expect(chosen.map(\.package.id) == ["yak_ads_1"])
    #expect(chosen.first?.channel.name == "Yak Ads")
  }

  @Test func encodesAsStableJSON() throws {
    var selection = PlanSelection(targetNames: ["B", "A"])
    selection.choose(packageID: "yak_ads_0", channelID: "y")
    selection.choose(packageID: "xenon_1", channelID: "x")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(selection), as: UTF8.self)
    #expect(
      json
        == #"{"packages":[{"channel_id":"x","package_id":"xenon_1"},"#
        + #"{"channel_id":"y","package_id":"yak_ads_0"}],"targets":["B","A"]}"#)
    #expect(try JSONDecoder().decode(PlanSelection.self, from: Data(json.utf8)) == selection)
    #expect(try JSONDecoder().decode(PlanSelection.self, from: Data("{}".utf8)) == PlanSelection())
  }
}
