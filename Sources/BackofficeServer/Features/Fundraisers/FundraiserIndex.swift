import BackofficeCore
import Foundation

struct FundraiserIndex: PageView {
  var cards: [FundraiserSummary]
  var page: Int = 1
  var pageCount: Int = 1
  var total: Int

  static let perPage = 24

  var title: String { L("nav.fundraisers") }
  var section: NavSection? { .fundraisers }
  var scripts: [String] { ["fundraisers.js"] }

  func content(context: PageContext) -> HTMLNode {
    let anyJar = cards.contains { $0.jar != nil }
    return H.div(
      [.class("fr")],
      [
        H.div(
          [.class("fr-head")],
          [
            H.h1(L("nav.fundraisers")),
            whenWriting(
              context,
              H.div(
                [.class("fr-actions")],
                [
                  H.a(
                    Routes.fundraiserNew.href(),
                    [.class("button button-primary"), .aria(.label, L("fundraisers.new"))],
                    [
                      H.span([.aria(.hidden, "true")], [H.text("+ ")]),
                      H.text(L("fundraisers.new")),
                    ]),
                  anyJar
                    ? postForm(
                      action: Routes.fundraiserRefreshAll.href(), csrf: context.csrf,
                      attributes: [.class("inline-form")],
                      [H.button(L("fundraisers.index.refresh_all"), [.class("button")])])
                    : H.empty,
                ])),
          ]),
        total == 0
          ? emptyState(
            title: L("fundraisers.empty.title"),
            message: L("fundraisers.empty.message"),
            action: whenWriting(
              context,
              H.a(
                Routes.fundraiserNew.href(), [.class("button button-primary")],
                text: L("fundraisers.new"))))
          : H.ul([.class("fr-grid")], cards.map(card)),
        pagination,
      ])
  }

  func card(_ summary: FundraiserSummary) -> HTMLNode {
    H.li(
      [.class("fr-card"), .id("fundraiser-\(summary.id.uuidString.lowercased())")],
      [
        H.a(
          Routes.fundraiser.href(id: summary.id), [.class("fr-card-link")],
          [
            H.img([
              .class("fr-card-preview"), .src(summary.posterHref()),
              .alt(""), .width("1080"), .height("1080"),
              .loading("lazy"), .decoding("async"),
            ]),
            H.span([.class("fr-card-purpose")], summary.purpose),
          ]),
        H.div(
          [.class("fr-card-body")],
          (summary.stage == .active
            ? []
            : [
              H.p(
                [.class("fr-badge fr-stage-\(summary.stage.rawValue)")], summary.stage.displayName)
            ]) + FundraiserFigures.lines(summary, detailed: false)),
      ])
  }

  var pagination: HTMLNode {
    let labels = Pagination.Labels(
      previous: L("fundraisers.pagination.previous"), next: L("fundraisers.pagination.next"),
      pages: L("fundraisers.pagination.pages"), page: L("fundraisers.pagination.page"))
    return Pagination.nav(page: page, pageCount: pageCount, labels: labels) { number in
      // The first page is the plain address.
      Routes.fundraisers.href(query: ["page": number > 1 ? String(number) : nil])
    }
  }
}
