import BackofficeCore
import Foundation

/// Step 1: "Select Targeting" — every target, each toggled by its own form post.
struct MarketingTargetsPage: PageView {
  var header: MarketingPlanHeader
  var stored: StoredMarketingCatalog?

  var title: String { L("marketing.targets.title") }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  func content(context: PageContext) -> HTMLNode {
    let selection = header.selection
    guard let stored else {
      return H.group([
        header.render(context: context, stored: nil), H.h1(L("marketing.targets.title")),
        marketingLoadFailure(retry: Routes.marketingPlanTargets.href(id: header.id)),
      ])
    }
    let catalog = stored.catalog
    var body: [HTMLNode] = [
      header.render(context: context, stored: stored),
      H.h1(L("marketing.targets.title")),
      H.p([.class("lead")], L("marketing.targets.lead")),
    ]
    if catalog.targets.isEmpty {
      body.append(
        emptyState(
          title: L("marketing.targets.empty_title"),
          message: L("marketing.targets.empty_message"),
          action: H.a(
            Routes.marketingCatalog.href(), [.class("button")], text: L("marketing.catalog_link"))))
      return H.group(body)
    }
    body.append(
      H.ul(
        [.class("mk-options"), .id("mk-list")],
        catalog.targets.enumerated().map { index, target in
          let selected = selection.isSelected(target: target.name)
          return H.li(
            [.id("target-\(index)")],
            [
              postForm(
                action: Routes.marketingPlanTargetToggle.href(id: header.id), csrf: context.csrf,
                attributes: [.class("mk-form"), .data("mk-swap", "")],
                [
                  header.versionField,
                  H.input([.type("hidden"), .name("target"), .value(target.name)]),
                  H.button(
                    [
                      .type("submit"), .class("mk-option"),
                      .aria(.pressed, selected ? "true" : "false"),
                      .id("target-button-\(index)"),
                    ],
                    [
                      H.span([.class("mk-check"), .aria(.hidden, "true")], selected ? "✓" : ""),
                      H.span(
                        [.class("mk-option-body")],
                        [
                          H.span([.class("mk-option-title")], target.name),
                          H.span([.class("mk-option-sub")], target.subtitle),
                          H.span([.class("mk-option-meta")], target.availableChannelsText),
                          marketingChips(target.channels.map(\.name)),
                        ]),
                    ]),
                ])
            ])
        }))
    body.append(
      H.div(
        [.class("mk-actionbar")],
        [
          H.p([.class("mk-count"), .aria(.live, "polite")], selection.selectedTargetsText),
          selection.canContinue
            ? H.a(
              Routes.marketingPlanChannels.href(id: header.id),
              [.class("button button-primary")], text: L("marketing.targets.continue"))
            : H.button(
              L("marketing.targets.continue"),
              [.type("button"), .class("button button-primary"), .disabled]),
        ]))
    return H.group(body)
  }
}

/// Step 2: "Select Channels" — the channels the selected targets reach.
struct MarketingChannelsPage: PageView {
  var header: MarketingPlanHeader
  var stored: StoredMarketingCatalog?

  var title: String { L("marketing.channels.title") }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  func content(context: PageContext) -> HTMLNode {
    let selection = header.selection
    guard let stored else {
      return H.group([
        header.render(context: context, stored: nil), H.h1(L("marketing.channels.title")),
        marketingLoadFailure(retry: Routes.marketingPlanChannels.href(id: header.id)),
      ])
    }
    let catalog = stored.catalog
    var body: [HTMLNode] = [
      header.render(context: context, stored: stored),
      H.h1(L("marketing.channels.title")),
    ]
    let channels = selection.availableChannels(in: catalog)
    guard !channels.isEmpty else {
      body.append(
        emptyState(
          title: L("marketing.channels.empty_title"),
          message: L("marketing.channels.empty_message"),
          action: H.a(
            Routes.marketingPlanTargets.href(id: header.id), [.class("button button-primary")],
            text: L("marketing.targets.title"))))
      return H.group(body)
    }
    body.append(
      H.p(
        [.class("lead")],
        L(
          "marketing.channels.lead",
          ["targets": selection.targetNames.joined(separator: ", ")])))
    body.append(
      H.ul(
        [.class("mk-options")],
        channels.map { channel in
          let chosen = selection.chosenPackageID(forChannel: channel.id).flatMap { id in
            channel.packages.first { $0.id == id }
          }
          return H.li(
            [],
            [
              H.a(
                Routes.marketingPlanChannel.href([
                  "planID": header.id.uuidString.lowercased(), "channelID": channel.id,
                ]),
                [.class("mk-option mk-option-link")],
                [
                  H.span(
                    [.class("mk-option-body")],
                    [
                      H.span([.class("mk-option-title")], channel.name),
                      chosen.map {
                        H.span(
                          [.class("mk-option-sub mk-selected")],
                          L(
                            "marketing.channels.selected_package",
                            [
                              "package": $0.name,
                              "price": MarketingFormat.price($0, locale: context.locale),
                            ]))
                      }
                        ?? H.span(
                          [.class("mk-option-sub")], L("marketing.channels.no_package_selected")),
                      H.span(
                        [.class("mk-option-meta")],
                        L("marketing.channels.package_count", count: channel.packages.count)),
                    ]),
                  H.span([.class("mk-chevron"), .aria(.hidden, "true")], "›"),
                ])
            ])
        }))
    body.append(marketingRunningTotal(selection, in: catalog, locale: context.locale))
    body.append(
      H.div(
        [.class("mk-actionbar")],
        [
          H.a(
            Routes.marketingPlanTargets.href(id: header.id), [.class("button")],
            text: L("marketing.channels.back")),
          selection.canReview
            ? H.a(
              Routes.marketingPlanReview.href(id: header.id), [.class("button button-primary")],
              text: L("marketing.channels.review"))
            : H.p([.class("hint")], L("marketing.channels.review_hint")),
        ]))
    return H.group(body)
  }
}

/// Step 3: "Select one package for {Channel}" — at most one package per channel.
struct MarketingChannelPage: PageView {
  var header: MarketingPlanHeader
  var stored: StoredMarketingCatalog
  var channel: MarketingChannel

  var title: String { L("marketing.packages.title", ["channel": channel.name]) }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  func content(context: PageContext) -> HTMLNode {
    let selection = header.selection
    let planID = header.id.uuidString.lowercased()
    let parameters = ["planID": planID, "channelID": channel.id]
    var body: [HTMLNode] = [
      header.render(context: context, stored: stored),
      H.h1(title),
    ]
    guard !channel.packages.isEmpty else {
      body.append(
        emptyState(
          title: L("marketing.packages.empty_title"),
          message: L("marketing.packages.empty_message", ["channel": channel.name]),
          action: H.a(
            Routes.marketingPlanChannels.href(id: header.id), [.class("button")],
            text: L("marketing.packages.back_to_channels"))))
      return H.group(body)
    }
    body.append(
      H.ul(
        [.class("mk-packages"), .id("mk-list")],
        channel.packages.enumerated().map { index, package in
          let chosen = selection.isChosen(packageID: package.id, channelID: channel.id)
          return H.li(
            [
              .class(chosen ? "mk-package mk-package-chosen" : "mk-package"),
              .id("package-\(index)"),
            ],
            [
              postForm(
                action: Routes.marketingPlanChoose.href(parameters), csrf: context.csrf,
                attributes: [.class("mk-form"), .data("mk-swap", "")],
                [
                  header.versionField,
                  H.input([.type("hidden"), .name("package"), .value(package.id)]),
                  H.button(
                    [
                      .type("submit"), .class("mk-package-select"),
                      .aria(.pressed, chosen ? "true" : "false"),
                      .id("package-button-\(index)"),
                    ],
                    [
                      H.span([.class("mk-radio"), .aria(.hidden, "true")], ""),
                      H.span(
                        [.class("mk-option-body")],
                        [
                          H.span([.class("mk-option-title")], package.name),
                          H.span([.class("mk-option-sub")], package.description),
                        ]),
                      H.span(
                        [.class("mk-price")],
                        MarketingFormat.price(package, locale: context.locale)),
                    ]),
                ]),
              marketingDetails(package.details),
            ])
        }))
    let hasChoice = selection.chosenPackageID(forChannel: channel.id) != nil
    body.append(marketingRunningTotal(selection, in: stored.catalog, locale: context.locale))
    body.append(
      H.div(
        [.class("mk-actionbar")],
        [
          postForm(
            action: Routes.marketingPlanReset.href(parameters), csrf: context.csrf,
            attributes: [.class("inline-form"), .data("mk-swap", "")],
            [
              header.versionField,
              H.button(
                L("marketing.packages.reset"), [.class("button")] + (hasChoice ? [] : [.disabled])),
            ]),
          H.a(
            Routes.marketingPlanChannels.href(id: header.id), [.class("button button-primary")],
            text: L("marketing.packages.done")),
        ]))
    return H.group(body)
  }
}

/// The plan's monthly cost so far, on the steps before Review: "Monthly total so far: €345.00 ·
/// 2 package(s) selected from 2 channel(s)", one sum per currency.
func marketingRunningTotal(
  _ selection: PlanSelection, in catalog: MarketingCatalog, locale: BackofficeLocale
) -> HTMLNode {
  let totals = PlanTotals(selection.chosenPackages(in: catalog))
  return H.p(
    [.class("mk-running-total"), .id("mk-running-total"), .aria(.live, "polite")],
    [
      H.text(L("marketing.running_total.label") + " "),
      H.strong([], [H.text(totals.formatted(locale: locale))]),
      H.text(" \u{00B7} " + totals.countsText),
    ])
}
