import BackofficeCore
import Foundation

/// The expenses list: filters, totals for the filtered set and per category, the month's chart,
/// one page of rows with edit and delete, and the "Undo" banner after a delete.
struct ExpenseIndex: PageView {
  struct Model: Sendable {
    var currency: String
    var rows: [ExpenseStore.Row]
    var filter: ExpenseFilter
    /// The filter values as typed, kept in the form even when one is wrong.
    var typed: [String: String] = [:]
    var filterErrors: [String: String] = [:]
    var totals: ExpenseTotals
    var chart: ExpenseChart
    var page: Int
    var pageCount: Int
    /// The list's own address, so edit and delete come back to the same filter and page.
    var back: String
    var undo: Undo? = nil
    /// The workspace's fundraisers (id as lowercase text, purpose), for the filter and the
    /// rows' labels.
    var fundraisers: [(id: String, purpose: String)] = []
    /// Each listed expense's receipts.
    var receipts: [UUID: [ExpenseReceipts.Ref]] = [:]
  }

  /// A just-deleted expense that can still be restored.
  struct Undo: Sendable {
    var id: UUID
    var title: String
  }

  var model: Model

  var title: String { L("nav.expenses") }
  var section: NavSection? { .expenses }
  var scripts: [String] { ["expenses.js"] }

  func content(context: PageContext) -> HTMLNode {
    let locale = context.locale
    return H.div(
      [.class("expenses-page")],
      [
        H.div(
          [.class("page-head")],
          [
            H.h1(title),
            H.div(
              [.class("page-actions")],
              [
                whenWriting(
                  context,
                  H.a(
                    Routes.expenseNew.href(query: ["back": model.back]),
                    [.class("button button-primary")], text: L("expenses.add"))),
                whenWriting(
                  context,
                  H.a(
                    Routes.expensesImport.href(), [.class("button")],
                    text: L("expenses.index.import_csv"))),
                H.a(
                  Routes.expensesExport.href(query: model.filter.query), [.class("button")],
                  text: L("expenses.index.export_csv")),
              ]),
          ]),
        undoBanner(context: context),
        filterFold(locale: locale),
        // The list comes first (on a phone, the first thing under the buttons); the totals
        // and the chart follow it, or sit beside it on a wide screen (app.css).
        H.div(
          [.class("expense-layout")],
          [
            H.div([.class("expense-main")], [list(context: context), pagination()]),
            H.div(
              [.class("expense-overview")],
              [totalsCard(locale: locale), chartCard(locale: locale)]),
          ]),
      ])
  }

  /// The filters, folded under one line that says what they select; open when one of them is
  /// wrong (and on wide screens, where `expenses.js` opens it).
  func filterFold(locale: BackofficeLocale) -> HTMLNode {
    H.details(
      [.class("card filter-fold"), .data("wide-open", "")]
        + (model.filterErrors.isEmpty ? [] : [.open]),
      [
        H.summary(
          [],
          [
            H.span([.class("filter-fold-title")], [H.text(L("expenses.filter.heading"))]),
            H.span(
              [.class("muted small filter-fold-summary")], [H.text(filterSummary(locale: locale))]),
          ]),
        filters(),
      ])
  }

  // MARK: pieces

  func undoBanner(context: PageContext) -> HTMLNode {
    guard let undo = model.undo else { return H.empty }
    return H.div(
      [.class("flash flash-success undo-flash"), .role("status")],
      [
        H.p([], L("expenses.index.deleted", ["title": undo.title])),
        postForm(
          action: Routes.expenseRestore.href(id: undo.id), csrf: context.csrf,
          attributes: [.class("inline-form")],
          [
            H.input([.type("hidden"), .name("back"), .value(model.back)]),
            H.button(L("expenses.undo"), [.class("button")]),
          ]),
      ])
  }

  func filters() -> HTMLNode {
    let typed = model.typed
    let categoryOptions =
      [("", L("expenses.filter.all_categories"))]
      + ExpenseCategory.allCases.map { ($0.rawValue, $0.displayName) }
    return H.form(
      [
        .method("get"), .action(Routes.expenses.href()),
        .class("expense-filters"), .role("search"),
        .aria(.label, L("expenses.filter.label")),
      ],
      [
        H.div(
          [.class("filter-grid")],
          [
            SelectView(
              name: "category", label: L("expenses.field.category"), options: categoryOptions,
              selected: typed["category"] ?? model.filter.category?.rawValue ?? "",
              error: model.filterErrors["category"]
            ).render(),
            FieldView(
              name: "month", label: L("expenses.filter.month"), type: "month",
              value: typed["month"] ?? model.filter.month?.description ?? "",
              error: model.filterErrors["month"], extra: [.placeholder("2025-11")]
            ).render(),
            FieldView(
              name: "from", label: L("expenses.filter.from"), type: "date",
              value: typed["from"] ?? model.filter.from?.description ?? "",
              error: model.filterErrors["from"]
            ).render(),
            FieldView(
              name: "to", label: L("expenses.filter.to"), type: "date",
              value: typed["to"] ?? model.filter.to?.description ?? "",
              error: model.filterErrors["to"]
            ).render(),
            FieldView(
              name: "q", label: L("expenses.filter.text"), type: "search",
              value: typed["q"] ?? model.filter.text
            ).render(),
            fundraiserFilter(),
          ]),
        H.div(
          [.class("filter-actions")],
          [
            H.button(L("expenses.filter.apply"), [.class("button button-primary")]),
            model.filter.isEmpty && model.filterErrors.isEmpty
              ? H.empty
              : H.a(Routes.expenses.href(), [.class("button")], text: L("expenses.filter.clear")),
          ]),
      ])
  }

  /// The fundraiser filter, when the workspace has fundraisers (or the address names one).
  func fundraiserFilter() -> HTMLNode {
    let selected =
      model.typed["fundraiser"] ?? model.filter.fundraiser?.uuidString.lowercased() ?? ""
    guard !model.fundraisers.isEmpty || !selected.isEmpty else { return H.empty }
    var options: [(value: String, label: String)] = [
      ("", L("expenses.filter.all_fundraisers"))
    ]
    options += model.fundraisers.map { ($0.id, ExpenseForm.shortPurpose($0.purpose)) }
    if !selected.isEmpty, !options.contains(where: { $0.value == selected }) {
      options.append((selected, L("expenses.filter.unknown_fundraiser")))
    }
    return SelectView(
      name: "fundraiser", label: L("expenses.field.fundraiser"), options: options,
      selected: selected, error: model.filterErrors["fundraiser"]
    ).render()
  }

  /// The purpose of the workspace's fundraiser `id`, as the filter and rows show it.
  func fundraiserName(_ id: UUID) -> String? {
    let key = id.uuidString.lowercased()
    return model.fundraisers.first { $0.id == key }.map { ExpenseForm.shortPurpose($0.purpose) }
  }

  /// "Food · November 2025 · titles with “tea”", or "All expenses".
  func filterSummary(locale: BackofficeLocale) -> String {
    var parts: [String] = []
    if let category = model.filter.category { parts.append(category.displayName) }
    if let month = model.filter.month { parts.append(month.title(locale: locale)) }
    switch (model.filter.from, model.filter.to) {
    case (let from?, let to?):
      parts.append("\(from.formatted(locale: locale)) – \(to.formatted(locale: locale))")
    case (let from?, nil):
      parts.append(L("expenses.filter.summary_from", ["day": from.formatted(locale: locale)]))
    case (nil, let to?):
      parts.append(L("expenses.filter.summary_until", ["day": to.formatted(locale: locale)]))
    case (nil, nil): break
    }
    if !model.filter.text.isEmpty {
      parts.append(L("expenses.filter.summary_text", ["text": model.filter.text]))
    }
    if let fundraiser = model.filter.fundraiser {
      parts.append(
        L(
          "expenses.filter.summary_fundraiser",
          ["purpose": fundraiserName(fundraiser) ?? L("expenses.filter.unknown_fundraiser")]))
    }
    return parts.isEmpty ? L("expenses.filter.summary_all") : parts.joined(separator: " · ")
  }

  func totalsCard(locale: BackofficeLocale) -> HTMLNode {
    let totals = model.totals
    let money = { (amount: Decimal) in
      MoneyFormat.currency(amount, currency: model.currency, locale: locale)
    }
    let lines = totals.nonEmptyLines
    return H.section(
      [.class("card expense-totals"), .aria(.labelledby, "expense-totals-heading")],
      [
        H.h2(L("expenses.totals.heading"), [.id("expense-totals-heading")]),
        H.p([.class("muted small")], filterSummary(locale: locale)),
        H.p(
          [.class("total-figure")],
          [
            H.strong([.id("expense-total")], [H.text(money(totals.total))]),
            H.span(
              [.class("muted")], " " + L("expenses.count", count: totals.count)),
          ]),
        lines.isEmpty
          ? H.empty
          : H.table(
            [.class("category-totals")],
            [
              H.caption(
                [.class("visually-hidden")], [H.text(L("expenses.totals.per_category"))]),
              H.thead(
                [],
                [
                  H.tr(
                    [],
                    [
                      H.th([.scope("col")], [H.text(L("expenses.field.category"))]),
                      H.th([.scope("col"), .class("num")], [H.text(L("expenses.totals.count"))]),
                      H.th([.scope("col"), .class("num")], [H.text(L("expenses.field.amount"))]),
                    ])
                ]),
              H.tbody(
                [],
                lines.map { line in
                  H.tr(
                    [.data("category", line.category.rawValue)],
                    [
                      H.th(
                        [.scope("row")],
                        [
                          H.span(
                            [.class("swatch cat-\(line.category.rawValue.lowercased())")], ""),
                          H.text(line.category.displayName),
                        ]),
                      H.td([.class("num")], [H.text(String(line.count))]),
                      H.td([.class("num")], [H.text(money(line.amount))]),
                    ])
                }),
            ]),
      ])
  }

  func chartCard(locale: BackofficeLocale) -> HTMLNode {
    let month = model.chart.month
    var keep = model.filter
    keep.from = nil
    keep.to = nil
    func link(_ target: ExpenseMonth?, _ symbol: String, _ label: String) -> HTMLNode {
      guard let target else { return H.empty }
      keep.month = target
      return H.a(
        Routes.expenses.href(query: keep.query),
        [.class("button month-step"), .aria(.label, "\(label): \(target.title(locale: locale))")],
        text: symbol)
    }
    return H.section(
      [.class("card expense-chart-card"), .aria(.labelledby, "expense-chart-heading")],
      [
        H.div(
          [.class("chart-head")],
          [
            link(month.previous, "‹", L("expenses.chart.previous_month")),
            H.h2(month.title(locale: locale), [.id("expense-chart-heading")]),
            link(month.next, "›", L("expenses.chart.next_month")),
          ]),
        model.chart.totals.count == 0
          ? H.p([.class("muted chart-empty")], L("expenses.chart.empty"))
          : H.figure([.class("chart-figure")], [model.chart.render(locale: locale)]),
      ])
  }

  func list(context: PageContext) -> HTMLNode {
    guard !model.rows.isEmpty else {
      if model.filter.isEmpty && model.page == 1 {
        return emptyState(
          title: L("expenses.index.empty_title"),
          message: L("expenses.index.empty_message"),
          action: whenWriting(
            context,
            H.a(
              Routes.expenseNew.href(), [.class("button button-primary")],
              text: L("expenses.add"))))
      }
      return emptyState(
        title: L("expenses.index.no_match_title"),
        message: L("expenses.index.no_match_message"),
        action: H.a(
          Routes.expenses.href(), [.class("button")], text: L("expenses.filter.clear")))
    }
    let locale = context.locale
    return H.ul(
      [.class("expense-list"), .aria(.label, L("nav.expenses"))],
      model.rows.map { row in
        let expense = row.expense
        let edit = Routes.expenseEdit.href(id: row.id, query: ["back": model.back])
        let slug = expense.category.rawValue.lowercased()
        let when: HTMLNode =
          expense.date.map { date in
            H.time(
              [.datetime(ExpenseDate.iso8601(date))],
              [H.text(locale.formatDateTime(date, timeZone: ExpenseStore.timeZone))])
          } ?? H.span([.class("no-date")], L("expenses.no_date"))
        return H.li(
          [.class("expense-row"), .id("expense-\(row.id.uuidString.lowercased())")],
          [
            H.div(
              [.class("expense-text")],
              [
                editLink(context, edit, [.class("expense-title")], text: expense.title),
                H.p(
                  [.class("expense-meta")],
                  [
                    H.span([.class("ex-chip cat-\(slug)")], expense.category.displayName), when,
                    row.fundraiserID.flatMap(fundraiserName).map { purpose in
                      H.a(
                        Routes.expenses.href(query: [
                          "fundraiser": row.fundraiserID?.uuidString.lowercased()
                        ]),
                        [.class("ex-fundraiser")], text: purpose)
                    } ?? H.empty,
                  ]),
                receiptThumbs(model.receipts[row.id] ?? [], title: expense.title),
              ]),
            H.p(
              [.class("expense-amount")],
              MoneyFormat.currency(expense.amount, currency: model.currency, locale: locale)),
            whenWriting(
              context,
              H.div(
                [.class("expense-actions")],
                [
                  H.a(
                    edit,
                    [
                      .class("button button-small"),
                      .aria(.label, L("expenses.index.edit_named", ["title": expense.title])),
                    ],
                    text: L("expenses.index.edit")),
                  postForm(
                    action: Routes.expenseDelete.href(id: row.id), csrf: context.csrf,
                    attributes: [.class("inline-form")],
                    [
                      H.input([.type("hidden"), .name("back"), .value(model.back)]),
                      H.button(
                        L("expenses.index.delete"),
                        [
                          .class("button button-small button-danger-quiet"),
                          .aria(.label, L("expenses.index.delete_named", ["title": expense.title])),
                        ]),
                    ]),
                ])),
          ])
      })
  }

  /// The first receipt as a small picture opening the full one, and how many more there are.
  func receiptThumbs(_ receipts: [ExpenseReceipts.Ref], title: String) -> HTMLNode {
    guard let first = receipts.first else { return H.empty }
    var nodes: [HTMLNode] = [
      H.a(
        first.href, [.class("receipt-thumb"), .target("_blank")],
        [
          H.img([
            .src(first.href),
            .alt(L("expenses.receipts.alt_named", ["title": title])),
            .width("48"), .height("48"), .loading("lazy"),
          ])
        ])
    ]
    for (index, more) in receipts.dropFirst().enumerated() {
      nodes.append(
        H.a(
          more.href, [.class("receipt-more"), .target("_blank")],
          text: L("expenses.receipts.number", ["number": String(index + 2)])))
    }
    return H.div([.class("expense-receipts")], nodes)
  }

  func pagination() -> HTMLNode {
    Pagination.nav(page: model.page, pageCount: model.pageCount, labels: .newerOlder) { page in
      var query = model.filter.query
      query["page"] = String(page)
      return Routes.expenses.href(query: query)
    }
  }
}
