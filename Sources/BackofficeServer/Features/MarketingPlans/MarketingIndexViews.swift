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

  var title: String { "Marketing plans" }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  func content(context: PageContext) -> HTMLNode {
    let newPlan = postForm(
      action: Routes.marketingPlanCreate.href(), csrf: context.csrf,
      attributes: [.class("inline-form")],
      [H.button("New plan", [.class("button button-primary")])])
    var body: [HTMLNode] = [
      H.div([.class("mk-titlebar")], [H.h1("Marketing plans"), newPlan]),
      H.p(
        [.class("lead")],
        "Pick targets, channels and one package per channel; see the monthly cost and send the "
          + "plan by email. Plans are saved as you click."),
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
          title: "No marketing plans yet",
          message: "Create a plan to choose targets, channels and packages, then send it by email.",
          action: newPlan))
      return H.group(body)
    }
    body.append(
      H.ul(
        [.class("mk-plans")],
        rows.map { row in
          let step = MarketingStep.resume(row.selection)
          return H.li(
            [.class("card mk-plan")],
            [
              H.div(
                [.class("mk-plan-main")],
                [
                  H.h2(
                    [],
                    [H.a(step.href(plan: row.id), [.class("mk-plan-link")], text: row.name)]),
                  H.p(
                    [.class("muted small")],
                    "Updated "
                      + (row.updatedAt.map { MarketingFormat.dateTime($0, locale: context.locale) }
                        ?? "—")),
                  H.p(
                    [.class("small")],
                    "\(row.selection.targetNames.count) target\(row.selection.targetNames.count == 1 ? "" : "s") · "
                      + row.totals.countsText),
                  H.p(
                    [.class("mk-plan-total")],
                    "Total Monthly Cost: " + row.totals.formatted(locale: context.locale)),
                ]),
              H.div(
                [.class("mk-row mk-plan-actions")],
                [
                  H.a(step.href(plan: row.id), [.class("button")], text: "Open"),
                  postForm(
                    action: Routes.marketingPlanDuplicate.href(id: row.id), csrf: context.csrf,
                    attributes: [.class("inline-form")],
                    [H.button("Duplicate", [.class("button")])]),
                  confirmButton(
                    action: Routes.marketingPlanDelete.href(id: row.id), csrf: context.csrf,
                    label: "Delete",
                    confirm: "Delete \u{201C}\(row.name)\u{201D}? This cannot be undone.",
                    confirmLabel: "Yes, delete"),
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
          "Catalog: \(stored.catalog.targets.count) targets, \(stored.catalog.channels.count) "
            + "channels, \(stored.packageCount) packages — "
            + MarketingCatalogPage.sourceText(stored, locale: context.locale) + "."),
        H.a(Routes.marketingCatalog.href(), [], text: "Manage catalog"),
      ])
  }
}

/// `/marketing/catalog`: where the catalog came from, refresh, upload and download.
struct MarketingCatalogPage: PageView {
  var stored: StoredMarketingCatalog?
  var baseURL: String
  var importProblems: [MarketingCatalogImport.Problem] = []

  var title: String { "Marketing catalog" }
  var section: NavSection? { .marketingPlans }
  var scripts: [String] { ["marketing-plans.js"] }

  static func sourceText(_ stored: StoredMarketingCatalog, locale: BackofficeLocale) -> String {
    let date = MarketingFormat.dateTime(stored.fetchedAt, locale: locale)
    switch stored.source {
    case .bundled: return "bundled with Backoffice, installed \(date)"
    case .refresh: return "refreshed from \(stored.sourceDetail ?? "the catalog host") on \(date)"
    case .upload: return "uploaded on \(date)"
    }
  }

  func content(context: PageContext) -> HTMLNode {
    let locale = context.locale
    var body: [HTMLNode] = [
      H.a(Routes.marketing.href(), [.class("mk-back")], text: "All plans"),
      H.h1("Marketing catalog"),
      H.p(
        [.class("lead")],
        "The targets, channels and packages every plan is built from. It is shared by all "
          + "accounts on this server."),
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
      case .ok: lastAttempt = "\(when): succeeded"
      // What went wrong is in the banner above; said once.
      case .offline: lastAttempt = "\(when): offline"
      case .error: lastAttempt = "\(when): failed"
      }
    } else {
      lastAttempt = "never"
    }
    body.append(
      H.section(
        [.class("card"), .aria(.labelledby, "mk-source")],
        [
          H.h2("Current catalog", [.id("mk-source")]),
          H.dl(
            [.class("facts")],
            [
              H.dt([], [H.text("Source")]),
              H.dd([.id("mk-catalog-source")], [H.text(Self.sourceText(stored, locale: locale))]),
              H.dt([], [H.text("Contents")]),
              H.dd(
                [],
                [
                  H.text(
                    "\(stored.catalog.targets.count) targets, \(stored.catalog.channels.count) "
                      + "channels, \(stored.packageCount) packages")
                ]),
              H.dt([], [H.text("Last refresh")]),
              H.dd([.id("mk-last-refresh")], [H.text(lastAttempt)]),
              H.dt([], [H.text("Refresh from")]),
              H.dd([], [H.code([], [H.text(baseURL)])]),
            ]),
          H.div(
            [.class("mk-row")],
            [
              context.isAdmin
                ? postForm(
                  action: Routes.marketingCatalogRefresh.href(), csrf: context.csrf,
                  attributes: [.class("inline-form"), .data("mk-busy", "Refreshing…")],
                  [H.button("Refresh catalog", [.class("button button-primary")])])
                : H.empty,
              H.a(
                Routes.marketingCatalogExport.href(), [.class("button"), .download("")],
                text: "Download catalog (JSON)"),
            ]),
          context.isAdmin
            ? H.empty
            : H.p(
              [.class("hint"), .id("mk-admin-only")],
              "Only the server's administrator can refresh or upload the catalog, because "
                + "every account's plans use it."),
        ]))
    if context.isAdmin { body.append(uploadSection(context: context)) }
    body.append(
      H.section(
        [.class("card"), .aria(.labelledby, "mk-channels")],
        [
          H.h2("Channels", [.id("mk-channels")]),
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
                    " — \(channel.packages.count) packages"
                      + (prices.isEmpty ? "" : ": " + prices.joined(separator: ", "))),
                ])
            }),
        ]))
    return H.group(body)
  }

  private func uploadSection(context: PageContext) -> HTMLNode {
    var nodes: [HTMLNode] = [
      H.h2("Upload a catalog", [.id("mk-upload")]),
      H.p(
        [.class("hint")],
        "Choose the seven JSON documents (the targeting document \(MarketingCatalog.targetingDocumentID).json "
          + "and one file per channel, each named after its id), or one combined file as "
          + "downloaded above. Nothing changes unless every file is valid."),
    ]
    if !importProblems.isEmpty {
      nodes.append(
        H.div(
          [.class("form-error"), .role("alert"), .id("mk-import-errors")],
          [
            H.p([], "The catalog was not imported:"),
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
              H.label([.`for`("field-files")], [H.text("Catalog files")]),
              H.input([
                .id("field-files"), .name("files[]"), .type("file"), .multiple,
                .accept(".json,application/json"), .required,
              ]),
            ]),
          H.button("Upload catalog", [.class("button")]),
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
        H.h2("Marketing plans"),
        H.p(
          [],
          model.planCount == 0
            ? "No plans yet. Build one from targets, channels and packages."
            : "\(model.planCount) plan\(model.planCount == 1 ? "" : "s")"),
        H.a(Routes.marketing.href(), [.class("button")], text: "Open marketing plans"),
      ])
  }
}
