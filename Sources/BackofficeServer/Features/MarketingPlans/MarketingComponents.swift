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
    case .targets: L("marketing.step.targeting")
    case .channels: L("marketing.step.channels")
    case .packages: L("marketing.step.packages")
    case .review: L("marketing.step.review")
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

  func render(context: PageContext, stored: StoredMarketingCatalog?) -> HTMLNode {
    H.group([
      H.div(
        [.class("mk-planbar")],
        [
          H.a(Routes.marketing.href(), [.class("mk-back")], text: L("marketing.all_plans")),
          H.span([.class("mk-planname")], name),
          whenWriting(context, renameForm(context: context)),
        ]),
      context.canWrite ? stepsNav : H.empty,
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
        H.summary([.class("link-button")], [H.text(L("marketing.rename.open"))]),
        postForm(
          action: Routes.marketingPlanRename.href(id: id), csrf: context.csrf,
          attributes: [.class("mk-rename-form")],
          [
            H.input([.type("hidden"), .name("step"), .value(String(step.rawValue))]),
            versionField,
            FieldView(
              name: "name", label: L("marketing.rename.label"), value: renameValue ?? name,
              error: renameError,
              required: true, extra: [.maxlength(String(PlanName.maxLength))],
              saved: renameSaved.map { SavedValue(text: $0) }
            ).render(),
            H.button(L("marketing.rename.save"), [.class("button")]),
          ]),
      ])
  }

  private var stepsNav: HTMLNode {
    H.nav(
      [.class("mk-steps"), .aria(.label, L("marketing.step.nav_label"))],
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

/// Words recorded in another language than the page's (a refresh failure written in the
/// language of whoever ran it) are marked with their own `lang`.
func recorded(_ text: String, in language: UILanguage?) -> HTMLNode {
  guard let language, language != UILanguage.current else { return H.text(text) }
  return H.span([.lang(language.rawValue)], text)
}

/// The banner shown while the stored catalog is not the result of the last refresh attempt.
enum MarketingBanner {
  /// `link`: whether to point at the catalog page (not on that page itself).
  static func render(_ stored: StoredMarketingCatalog, locale: BackofficeLocale, link: Bool = true)
    -> HTMLNode
  {
    let catalogLink =
      link
      ? H.a(
        Routes.marketingCatalog.href(), [.class("mk-banner-link")],
        text: L("marketing.catalog_link"))
      : H.empty
    let since = MarketingFormat.dateTime(stored.fetchedAt, locale: locale)
    switch stored.status {
    case .ok:
      return H.empty
    case .offline(let reason):
      return H.div(
        [.class("mk-banner mk-banner-offline"), .role("status")],
        [
          H.strong([], [H.text(L("marketing.banner.offline_since", ["date": since]))]),
          reason.isEmpty
            ? H.p([.class("small")], L("marketing.banner.not_refreshed"))
            : H.p(
              [.class("small")],
              sentence(
                L("marketing.banner.not_refreshed_because"), slot: "reason",
                recorded(reason, in: stored.statusLanguage))),
          catalogLink,
        ])
    case .error(let message):
      return H.div(
        [.class("mk-banner mk-banner-error"), .role("alert")],
        [
          H.strong(
            [],
            sentence(
              L("marketing.banner.refresh_failed"), slot: "message",
              recorded(message, in: stored.statusLanguage))),
          H.p([.class("small")], L("marketing.banner.showing_since", ["date": since])),
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
      H.h2([], [H.text(L("marketing.load_failure.title"))]),
      H.p([], L("marketing.load_failure.message")),
      H.div(
        [.class("mk-row")],
        [
          H.a(retry, [.class("button button-primary")], text: L("marketing.load_failure.retry")),
          H.a(
            Routes.marketingCatalog.href(), [.class("button")], text: L("marketing.catalog_link")),
        ]),
    ])
}

/// Channel names as chips: the first three, then "+k more".
func marketingChips(_ names: [String], limit: Int = 3) -> HTMLNode {
  var chips = names.prefix(limit).map { H.span([.class("mk-chip")], $0) }
  if names.count > limit {
    chips.append(
      H.span(
        [.class("mk-chip mk-chip-more")],
        L("marketing.chips.more", ["count": String(names.count - limit)])))
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
            H.span(
              [.class("mk-more-closed")],
              L("marketing.details.and_more", ["count": String(rest.count)])),
            H.span([.class("mk-more-open")], L("marketing.details.show_less")),
          ]),
        H.ul([.class("mk-details")], rest.map { H.li([], [H.text($0)]) }),
      ]),
  ])
}
