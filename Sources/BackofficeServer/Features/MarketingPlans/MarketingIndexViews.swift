import BackofficeCore
import Foundation

/// `/marketing`: the account's plans, newest change first.
struct MarketingPlanIndex: PageView {
  struct Row: Sendable {
    var id: UUID
    var name: String
    var updatedAt: Date?
    var selection: PlanSelection
    var totals: PlanTotals
  }

  var rows: [Row]
  var stored: StoredMarketingCatalog?
  var page: Int
  var pageCount: Int

  var title: String { L("nav.marketing_plans") }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  func content(context: PageContext) -> HTMLNode {
    let newPlan = whenWriting(
      context,
      postForm(
        action: Routes.marketingPlanCreate.href(), csrf: context.csrf,
        attributes: [.class("inline-form")],
        [H.button(L("marketing.index.new_plan"), [.class("button button-primary")])]))
    var body: [HTMLNode] = [
      H.div([.class("mk-titlebar")], [H.h1(L("nav.marketing_plans")), newPlan]),
      H.p([.class("lead")], L("marketing.index.lead")),
    ]
    if let stored {
      body.append(MarketingBanner.render(stored, locale: context.locale))
      body.append(catalogLine(stored, context: context))
    } else {
      body.append(marketingLoadFailure(retry: Routes.marketing.href()))
    }
    if rows.isEmpty && page == 1 {
      body.append(
        emptyState(
          title: L("marketing.index.empty_title"),
          message: L("marketing.index.empty_message"),
          action: newPlan))
      return H.group(body)
    }
    body.append(
      H.ul(
        [.class("mk-plans")],
        rows.map { row in
          // A viewer reads a plan's review; the steps are the plan's editing.
          let open =
            context.canWrite
            ? MarketingStep.resume(row.selection).href(plan: row.id)
            : Routes.marketingPlanReview.href(id: row.id)
          return H.li(
            [.class("card mk-plan")],
            [
              H.div(
                [.class("mk-plan-main")],
                [
                  H.h2(
                    [],
                    [H.a(open, [.class("mk-plan-link")], text: row.name)]),
                  H.p(
                    [.class("muted small")],
                    L(
                      "marketing.index.updated",
                      [
                        "date": row.updatedAt.map {
                          MarketingFormat.dateTime($0, locale: context.locale)
                        } ?? "—"
                      ])),
                  H.p(
                    [.class("small")],
                    L("marketing.index.target_count", count: row.selection.targetNames.count)
                      + " · " + row.totals.countsText),
                  H.p(
                    [.class("mk-plan-total")],
                    L(
                      "marketing.total_monthly_cost_value",
                      ["total": row.totals.formatted(locale: context.locale)])),
                ]),
              H.div(
                [.class("mk-row mk-plan-actions")],
                [
                  H.a(open, [.class("button")], text: L("marketing.index.open")),
                  whenWriting(
                    context,
                    postForm(
                      action: Routes.marketingPlanDuplicate.href(id: row.id), csrf: context.csrf,
                      attributes: [.class("inline-form")],
                      [H.button(L("marketing.index.duplicate"), [.class("button")])])),
                  whenWriting(
                    context,
                    confirmButton(
                      action: Routes.marketingPlanDelete.href(id: row.id), csrf: context.csrf,
                      label: L("marketing.index.delete"),
                      confirm: L("marketing.index.delete_confirm", ["name": row.name]),
                      confirmLabel: L("marketing.index.delete_yes"))),
                ]),
            ])
        }))
    body.append(
      Pagination.nav(page: page, pageCount: pageCount, labels: .newerOlder) { number in
        Routes.marketing.href(query: ["page": String(number)])
      })
    return H.group(body)
  }

  private func catalogLine(_ stored: StoredMarketingCatalog, context: PageContext) -> HTMLNode {
    H.div(
      [.class("mk-catalog-line")],
      [
        H.p(
          [.class("small")],
          L(
            "marketing.index.catalog_line",
            [
              "contents": MarketingCatalogPage.contentsText(stored),
              "source": MarketingCatalogPage.sourceText(stored, locale: context.locale),
            ])),
        H.a(Routes.marketingCatalog.href(), [], text: L("marketing.index.manage_catalog")),
      ])
  }
}

/// `/marketing/catalog`: where the catalog came from, refresh, upload and download.
struct MarketingCatalogPage: PageView {
  var stored: StoredMarketingCatalog?
  var baseURL: String
  var importProblems: [MarketingCatalogImport.Problem] = []

  var title: String { L("marketing.catalog.title") }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  static func sourceText(_ stored: StoredMarketingCatalog, locale: BackofficeLocale) -> String {
    let date = MarketingFormat.dateTime(stored.fetchedAt, locale: locale)
    switch stored.source {
    case .bundled: return L("marketing.catalog.source_bundled", ["date": date])
    case .refresh:
      guard let host = stored.sourceDetail else {
        return L("marketing.catalog.source_refreshed_default", ["date": date])
      }
      return L("marketing.catalog.source_refreshed", ["host": host, "date": date])
    case .upload: return L("marketing.catalog.source_uploaded", ["date": date])
    }
  }

  /// "15 targets, 6 channels, 18 packages"
  static func contentsText(_ stored: StoredMarketingCatalog) -> String {
    L(
      "marketing.catalog.contents",
      [
        "targets": String(stored.catalog.targets.count),
        "channels": String(stored.catalog.channels.count),
        "packages": String(stored.packageCount),
      ])
  }

  func content(context: PageContext) -> HTMLNode {
    let locale = context.locale
    var body: [HTMLNode] = [
      H.a(Routes.marketing.href(), [.class("mk-back")], text: L("marketing.all_plans")),
      H.h1(title),
      H.p([.class("lead")], L("marketing.catalog.lead")),
    ]
    guard let stored else {
      body.append(marketingLoadFailure(retry: Routes.marketingCatalog.href()))
      if context.isAdmin { body.append(uploadSection(context: context)) }
      return H.group(body)
    }
    body.append(MarketingBanner.render(stored, locale: locale, link: false))
    let lastAttempt: String
    if let at = stored.refreshedAt {
      let when = MarketingFormat.dateTime(at, locale: locale)
      switch stored.status {
      case .ok: lastAttempt = L("marketing.catalog.last_refresh_succeeded", ["date": when])
      // What went wrong is in the banner above; said once.
      case .offline: lastAttempt = L("marketing.catalog.last_refresh_offline", ["date": when])
      case .error: lastAttempt = L("marketing.catalog.last_refresh_failed", ["date": when])
      }
    } else {
      lastAttempt = L("marketing.catalog.last_refresh_never")
    }
    body.append(
      H.section(
        [.class("card"), .aria(.labelledby, "mk-source")],
        [
          H.h2(L("marketing.catalog.current"), [.id("mk-source")]),
          H.dl(
            [.class("facts")],
            [
              H.dt([], [H.text(L("marketing.catalog.source"))]),
              H.dd([.id("mk-catalog-source")], [H.text(Self.sourceText(stored, locale: locale))]),
              H.dt([], [H.text(L("marketing.catalog.contents_label"))]),
              H.dd([], [H.text(Self.contentsText(stored))]),
              H.dt([], [H.text(L("marketing.catalog.last_refresh"))]),
              H.dd([.id("mk-last-refresh")], [H.text(lastAttempt)]),
              H.dt([], [H.text(L("marketing.catalog.refresh_from"))]),
              H.dd([], [H.code([], [H.text(baseURL)])]),
            ]),
          H.div(
            [.class("mk-row")],
            [
              context.isAdmin
                ? postForm(
                  action: Routes.marketingCatalogRefresh.href(), csrf: context.csrf,
                  attributes: [
                    .class("inline-form"), .data("mk-busy", L("marketing.catalog.refreshing")),
                  ],
                  [H.button(L("marketing.catalog.refresh"), [.class("button button-primary")])])
                : H.empty,
              H.a(
                Routes.marketingCatalogExport.href(), [.class("button"), .download("")],
                text: L("marketing.catalog.download")),
            ]),
          context.isAdmin
            ? H.empty
            : H.p(
              [.class("hint"), .id("mk-admin-only")],
              L("marketing.catalog.admin_only")),
        ]))
    if context.isAdmin { body.append(uploadSection(context: context)) }
    body.append(
      H.section(
        [.class("card"), .aria(.labelledby, "mk-channels")],
        [
          H.h2(L("marketing.catalog.channels"), [.id("mk-channels")]),
          H.ul(
            [.class("mk-catalog-list")],
            stored.catalog.channels.map { channel in
              let prices = channel.packages.map { MarketingFormat.price($0, locale: locale) }
              return H.li(
                [],
                [
                  H.strong([], [H.text(channel.name)]),
                  H.span(
                    [.class("muted")],
                    " \u{2014} "
                      + (prices.isEmpty
                        ? L("marketing.catalog.channel_packages", count: channel.packages.count)
                        : L(
                          "marketing.catalog.channel_packages_prices",
                          count: channel.packages.count,
                          ["prices": prices.joined(separator: ", ")]))),
                ])
            }),
        ]))
    return H.group(body)
  }

  private func uploadSection(context: PageContext) -> HTMLNode {
    var nodes: [HTMLNode] = [
      H.h2(L("marketing.catalog.upload_heading"), [.id("mk-upload")]),
      H.p(
        [.class("hint")],
        L(
          "marketing.catalog.upload_hint",
          ["file": "\(MarketingCatalog.targetingDocumentID).json"])),
    ]
    if !importProblems.isEmpty {
      nodes.append(
        H.div(
          [.class("form-error"), .role("alert"), .id("mk-import-errors")],
          [
            H.p([], L("marketing.catalog.not_imported")),
            H.ul([], importProblems.map { H.li([], [H.text($0.text)]) }),
          ]))
    }
    nodes.append(
      postForm(
        action: Routes.marketingCatalogImport.href(), csrf: context.csrf,
        attributes: [.class("stack")], multipart: true,
        [
          H.div(
            [.class(importProblems.isEmpty ? "field" : "field field-invalid")],
            [
              H.label([.`for`("field-files")], [H.text(L("marketing.catalog.files_label"))]),
              H.input([
                .id("field-files"), .name("files[]"), .type("file"), .multiple,
                .accept(".json,application/json"), .required,
              ]),
            ]),
          H.button(L("marketing.catalog.upload"), [.class("button")]),
        ]))
    return H.section([.class("card"), .aria(.labelledby, "mk-upload")], nodes)
  }
}

/// The overview card: how many plans the account has.
enum MarketingHomeCard {
  struct Model: Sendable {
    var planCount: Int
  }

  static func render(_ model: Model?) -> HTMLNode {
    guard let model else { return H.empty }
    return H.div(
      [.class("card"), .id("home-marketing")],
      [
        H.h2(L("nav.marketing_plans")),
        H.p(
          [],
          model.planCount == 0
            ? L("marketing.home.empty")
            : L("marketing.home.plan_count", count: model.planCount)),
        H.a(Routes.marketing.href(), [.class("button")], text: L("marketing.home.open")),
      ])
  }
}
