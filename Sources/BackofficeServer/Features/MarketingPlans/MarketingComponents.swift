import BackofficeCore
import Foundation

/// The four steps of a plan, in order.
enum MarketingStep: Int, CaseIterable, Sendable {
  case targets = 1
  case channels
  case packages
  case review

  var label: String {
    switch self {
    case .targets: "Targeting"
    case .channels: "Channels"
    case .packages: "Packages"
    case .review: "Review"
    }
  }

  /// Where the step lives; the packages step is per channel, so it points at the channel list.
  func href(plan id: UUID) -> String {
    switch self {
    case .targets: Routes.marketingPlanTargets.href(id: id)
    case .channels, .packages: Routes.marketingPlanChannels.href(id: id)
    case .review: Routes.marketingPlanReview.href(id: id)
    }
  }

  /// The step a plan reopens at: as far as it has got.
  static func resume(_ selection: PlanSelection) -> MarketingStep {
    if selection.canReview { return .review }
    if selection.canContinue { return .channels }
    return .targets
  }
}

/// What every step page shows above its content: the plan's name (with rename), the steps,
/// and the catalog banner.
struct MarketingPlanHeader: Sendable {
  var id: UUID
  var name: String
  var step: MarketingStep
  var selection: PlanSelection
  /// The plan's version, carried by every form of the step; see `RecordVersion`.
  var version: Int
  /// A rejected rename: the typed value and why.
  var renameValue: String? = nil
  var renameError: String? = nil
  /// The saved name, when a rename was refused because the plan changed meanwhile.
  var renameSaved: String? = nil
  /// Why the last change was not applied: the plan changed since the page was opened.
  var conflict: String? = nil

  /// The start of every "changed meanwhile" notice; each step says what was not done.
  static let changed =
    "This plan was changed since you opened it, in another tab or by someone else"

  func render(context: PageContext, stored: StoredMarketingCatalog?) -> HTMLNode {
    H.group([
      H.div(
        [.class("mk-planbar")],
        [
          H.a(Routes.marketing.href(), [.class("mk-back")], text: "All plans"),
          H.span([.class("mk-planname")], name),
          renameForm(context: context),
        ]),
      stepsNav,
      conflict.map(conflictNotice) ?? H.empty,
      stored.map { MarketingBanner.render($0, locale: context.locale) } ?? H.empty,
    ])
  }

  /// The version, as the hidden field of a step's form.
  var versionField: HTMLNode { VersionField.hidden(version) }

  private func renameForm(context: PageContext) -> HTMLNode {
    H.details(
      [.class("mk-rename")] + (renameError == nil && renameSaved == nil ? [] : [.open]),
      [
        H.summary([.class("link-button")], [H.text("Rename")]),
        postForm(
          action: Routes.marketingPlanRename.href(id: id), csrf: context.csrf,
          attributes: [.class("mk-rename-form")],
          [
            H.input([.type("hidden"), .name("step"), .value(String(step.rawValue))]),
            versionField,
            FieldView(
              name: "name", label: "Plan name", value: renameValue ?? name, error: renameError,
              required: true, extra: [.maxlength(String(PlanName.maxLength))],
              saved: renameSaved.map { SavedValue(text: $0) }
            ).render(),
            H.button("Save name", [.class("button")]),
          ]),
      ])
  }

  private var stepsNav: HTMLNode {
    H.nav(
      [.class("mk-steps"), .aria(.label, "Plan steps")],
      [
        H.ol(
          [],
          MarketingStep.allCases.map { item in
            let reachable =
              switch item {
              case .targets: true
              case .channels, .packages: selection.canContinue
              case .review: selection.canReview
              }
            let label: [HTMLNode] = [
              H.span([.class("mk-step-number")], String(item.rawValue)),
              H.span([.class("mk-step-label")], item.label),
            ]
            let current: [Attr] = item == step ? [.aria(.current, "step")] : []
            return H.li(
              [],
              [
                reachable && item != .packages
                  ? H.a(item.href(plan: id), current, label)
                  : H.span([.class("mk-step-off")] + current, label)
              ])
          })
      ])
  }
}

/// The banner shown while the stored catalog is not the result of the last refresh attempt.
enum MarketingBanner {
  /// `link`: whether to point at the catalog page (not on that page itself).
  static func render(_ stored: StoredMarketingCatalog, locale: BackofficeLocale, link: Bool = true)
    -> HTMLNode
  {
    let catalogLink =
      link
      ? H.a(Routes.marketingCatalog.href(), [.class("mk-banner-link")], text: "Catalog") : H.empty
    let since = MarketingFormat.dateTime(stored.fetchedAt, locale: locale)
    switch stored.status {
    case .ok:
      return H.empty
    case .offline(let reason):
      return H.div(
        [.class("mk-banner mk-banner-offline"), .role("status")],
        [
          H.strong([], [H.text("Offline data from \(since)")]),
          H.p(
            [.class("small")],
            reason.isEmpty
              ? "The catalog could not be refreshed."
              : "The catalog could not be refreshed: \(reason)."),
          catalogLink,
        ])
    case .error(let message):
      return H.div(
        [.class("mk-banner mk-banner-error"), .role("alert")],
        [
          H.strong([], [H.text("Catalog refresh failed: \(message)")]),
          H.p([.class("small")], "Showing the catalog from \(since)."),
          catalogLink,
        ])
    }
  }
}

/// The "Failed to Load Data" state, for when the stored catalog cannot be read.
func marketingLoadFailure(retry: String) -> HTMLNode {
  H.div(
    [.class("empty-state mk-failure"), .role("alert")],
    [
      H.h2([], [H.text("Failed to Load Data")]),
      H.p([], "The marketing catalog could not be read. Try again, or refresh the catalog."),
      H.div(
        [.class("mk-row")],
        [
          H.a(retry, [.class("button button-primary")], text: "Retry"),
          H.a(Routes.marketingCatalog.href(), [.class("button")], text: "Catalog"),
        ]),
    ])
}

/// Channel names as chips: the first three, then "+k more".
func marketingChips(_ names: [String], limit: Int = 3) -> HTMLNode {
  var chips = names.prefix(limit).map { H.span([.class("mk-chip")], $0) }
  if names.count > limit {
    chips.append(H.span([.class("mk-chip mk-chip-more")], "+\(names.count - limit) more"))
  }
  return H.span([.class("mk-chips")], chips)
}

/// A package's details: the first three, then the rest behind "... and k more" / "Show less"
/// (a `<details>`, so it opens without scripts).
func marketingDetails(_ details: [String], visible: Int = 3) -> HTMLNode {
  guard !details.isEmpty else { return H.empty }
  let first = H.ul([.class("mk-details")], details.prefix(visible).map { H.li([], [H.text($0)]) })
  guard details.count > visible else { return first }
  let rest = details.dropFirst(visible)
  return H.group([
    first,
    H.details(
      [.class("mk-more")],
      [
        H.summary(
          [],
          [
            H.span([.class("mk-more-closed")], "... and \(rest.count) more"),
            H.span([.class("mk-more-open")], "Show less"),
          ]),
        H.ul([.class("mk-details")], rest.map { H.li([], [H.text($0)]) }),
      ]),
  ])
}
