import BackofficeCore
import Foundation

/// Another entry with the same link, for the duplicate warning.
struct AdPaymentRef: Sendable, Equatable {
  var id: UUID
  var name: String

  var href: String { Routes.adPaymentEdit.href(id: id) }
}

/// The warning shown after saving an entry whose link another entry already has.
struct AdPaymentDuplicateNotice: Codable, Sendable, Equatable {
  var savedName: String
  var existingID: UUID
  var existingName: String
}

/// "This link is already saved as …" with a link to the other entry; `id` lets the form's script
/// find and refill it.
func adPaymentDuplicateWarning(_ others: [AdPaymentRef], id: String? = nil) -> HTMLNode {
  var attributes: [Attr] = [.class("flash ad-payment-warning"), .role("status")]
  if let id { attributes.append(.id(id)) }
  guard let first = others.first else {
    return H.div(attributes + [.hidden], [])
  }
  let link = H.a(first.href, text: L("ad_payments.quoted_name", ["name": first.name]))
  let template =
    others.count > 1
    ? L("ad_payments.duplicate.saved_as_more", count: others.count - 1)
    : L("ad_payments.duplicate.saved_as")
  return H.div(attributes, [H.p([], sentence(template, slot: "link", link))])
}

// MARK: - list

struct AdPaymentIndex: PageView {
  struct Row: Sendable, Equatable {
    var id: UUID
    var name: String
    var url: String
  }

  var rows: [Row]
  var search: String = ""
  var page: Int = 1
  var pageCount: Int = 1
  /// Entries matching the search (all entries when there is none).
  var matching: Int
  /// Entries in the account, to tell "nothing saved yet" from "nothing matches".
  var accountTotal: Int
  var duplicateNotice: AdPaymentDuplicateNotice? = nil

  static let perPage = 50

  var title: String { L("nav.ad_payments") }
  var section: NavSection? { .adPayments }
  var scripts: [String] { ["ad-payments.js"] }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("ad-payments-page")],
      [
        H.div(
          [.class("page-head")],
          [
            H.h1(L("nav.ad_payments")),
            H.div(
              [.class("page-actions")],
              [
                whenWriting(
                  context,
                  H.a(
                    Routes.adPaymentNew.href(), [.class("button button-primary")],
                    text: L("ad_payments.index.add"))),
                whenWriting(
                  context,
                  H.a(
                    Routes.adPaymentImport.href(), [.class("button")],
                    text: L("ad_payments.index.import_csv"))),
                accountTotal > 0
                  ? H.a(
                    Routes.adPaymentExport.href(), [.class("button"), .download("")],
                    text: L("ad_payments.index.export_csv"))
                  : H.empty,
              ]),
          ]),
        duplicateNotice.map(noticeNode) ?? H.empty,
        accountTotal > 0 ? searchForm : H.empty,
        H.div([.id("ad-payment-results"), .aria(.live, "polite")], [results(context: context)]),
      ])
  }

  func noticeNode(_ notice: AdPaymentDuplicateNotice) -> HTMLNode {
    H.div(
      [.class("flash ad-payment-warning"), .role("status")],
      [
        H.p(
          [],
          sentence(
            L("ad_payments.notice.same_url"), slot: "link",
            H.a(
              Routes.adPaymentEdit.href(id: notice.existingID),
              text: L("ad_payments.quoted_name", ["name": notice.existingName])),
            values: ["name": notice.savedName]))
      ])
  }

  var searchForm: HTMLNode {
    H.form(
      [
        .action(Routes.adPayments.href()), .method("get"),
        .role("search"), .class("search-form"), .id("ad-payment-search"),
      ],
      [
        H.label([.`for`("ad-payment-q")], [H.text(L("ad_payments.search.label"))]),
        H.div(
          [.class("search-row")],
          [
            H.input([
              .type("search"), .id("ad-payment-q"), .name("q"), .value(search),
              .autocomplete("off"), .enterkeyhint("search"),
            ]),
            H.button(L("ad_payments.search.submit"), [.class("button")]),
            search.isEmpty
              ? H.empty
              : H.a(
                Routes.adPayments.href(), [.class("button")], text: L("ad_payments.search.clear")),
          ]),
      ])
  }

  func results(context: PageContext) -> HTMLNode {
    if accountTotal == 0 {
      return emptyState(
        title: L("ad_payments.empty.title"),
        message: L("ad_payments.empty.message"),
        action: whenWriting(
          context,
          H.a(
            Routes.adPaymentNew.href(), [.class("button button-primary")],
            text: L("ad_payments.index.add"))))
    }
    if rows.isEmpty {
      return H.div(
        [.class("empty-state")],
        [
          H.h2(
            search.isEmpty
              ? L("ad_payments.index.nothing_on_page")
              : L("ad_payments.index.no_match", ["search": search])),
          H.p([], L("ad_payments.index.no_match_hint")),
          H.a(
            Routes.adPayments.href(), [.class("button")], text: L("ad_payments.index.show_all")),
        ])
    }
    return H.group([
      H.p([.class("muted list-count")], countText),
      H.ul(
        [.class("ad-payment-list")],
        rows.map { row in rowNode(row, context: context) }),
      pagination,
    ])
  }

  var countText: String {
    if search.isEmpty { return L("ad_payments.index.count", count: matching) }
    return L("ad_payments.index.count_matching", count: matching, ["search": search])
  }

  /// The list's own query, so a delete returns to the same search and page.
  var listQuery: [String: String?] {
    ["q": search.isEmpty ? nil : search, "page": page > 1 ? String(page) : nil]
  }

  func rowNode(_ row: Row, context: PageContext) -> HTMLNode {
    let link: HTMLNode =
      AdPaymentURL.isValid(row.url)
      ? H.a(
        row.url,
        [
          .class("ad-payment-url"), .rel("noopener noreferrer nofollow"),
          .target("_blank"),
        ], text: row.url)
      : H.span([.class("ad-payment-url")], row.url)
    return H.li(
      [.class("ad-payment-row"), .id("entry-\(row.id.uuidString.lowercased())")],
      [
        H.div(
          [.class("ad-payment-main")],
          [H.strong([.class("ad-payment-name")], [H.text(row.name)]), link]),
        whenWriting(
          context,
          H.div(
            [.class("row-actions")],
            [
              H.a(
                Routes.adPaymentEdit.href(id: row.id),
                [
                  .class("button"),
                  .aria(.label, L("ad_payments.index.edit_label", ["name": row.name])),
                ],
                text: L("ad_payments.index.edit")),
              confirmButton(
                action: Routes.adPaymentDelete.href(id: row.id, query: listQuery),
                csrf: context.csrf, label: L("ad_payments.index.delete"),
                confirm: L("ad_payments.delete.confirm", ["name": row.name]),
                confirmLabel: L("ad_payments.delete.yes")),
            ])),
      ])
  }

  var pagination: HTMLNode {
    Pagination.nav(page: page, pageCount: pageCount) { number in
      Routes.adPayments.href(query: [
        "q": search.isEmpty ? nil : search, "page": number > 1 ? String(number) : nil,
      ])
    }
  }
}

// MARK: - add and edit

struct AdPaymentForm: PageView {
  enum Mode: Sendable, Equatable {
    case create
    case edit(UUID)
  }

  var mode: Mode
  var name: String = ""
  var url: String = ""
  var errors: [AdPaymentField: String] = [:]
  /// A database failure, in the original app's words.
  var formError: String? = nil
  var sameURL: [AdPaymentRef] = []
  /// The version the form was opened at (edit); see `RecordVersion`.
  var version = 0
  /// Set when a save was refused because the entry changed meanwhile (409).
  var conflict: String? = nil
  /// The saved values (name, url) that differ from the typed ones, after a refused save.
  var saved: [String: String] = [:]

  static var changedMessage: String { L("ad_payments.form.changed") }

  var title: String {
    switch mode {
    case .create: L("ad_payments.form.title_add")
    case .edit: L("ad_payments.form.title_edit")
    }
  }
  var section: NavSection? { .adPayments }
  var scripts: [String] { ["ad-payments.js"] }

  var action: String {
    switch mode {
    case .create: Routes.adPaymentCreate.href()
    case .edit(let id): Routes.adPaymentUpdate.href(id: id)
    }
  }

  var entryID: UUID? {
    if case .edit(let id) = mode { return id }
    return nil
  }

  func content(context: PageContext) -> HTMLNode {
    // The first field with a problem gets the focus, in the order the rules are checked.
    let firstInvalid = AdPaymentField.allCases.first { errors[$0] != nil }
    var formAttributes: [Attr] = [
      .class("stack"), .id("ad-payment-form"), .novalidate,
      .data("check-url", Routes.adPaymentCheck.href()),
    ]
    if let entryID { formAttributes.append(.data("entry-id", entryID.uuidString.lowercased())) }
    return H.div(
      [.class("ad-payments-page")],
      [
        H.h1(title),
        conflict.map(conflictNotice) ?? H.empty,
        formError.map { H.div([.class("form-error"), .role("alert")], [H.text($0)]) }
          ?? H.empty,
        H.div(
          [.class("card")],
          [
            postForm(
              action: action, csrf: context.csrf, attributes: formAttributes,
              [
                entryID == nil ? H.empty : VersionField.hidden(version),
                FieldView(
                  name: AdPaymentField.name.rawValue, label: L("ad_payments.field.name"),
                  value: name, error: errors[.name], required: true, autocomplete: "off",
                  extra: firstInvalid == .name ? [.autofocus] : [],
                  saved: saved["name"].map { SavedValue(text: $0) }
                ).render(),
                FieldView(
                  name: AdPaymentField.url.rawValue, label: L("ad_payments.field.url"),
                  type: "url", value: url, error: errors[.url],
                  hint: L("ad_payments.field.url_hint"),
                  required: true, autocomplete: "url",
                  extra: [
                    .autocapitalize("none"), .spellcheck("false"),
                    .inputmode("url"),
                  ] + (firstInvalid == .url ? [.autofocus] : []),
                  saved: saved["url"].map { SavedValue(text: $0) }
                ).render(),
                adPaymentDuplicateWarning(sameURL, id: "ad-payment-duplicate"),
                H.div(
                  [.class("form-actions")],
                  [
                    H.button(L("ad_payments.form.save"), [.class("button button-primary")]),
                    H.a(
                      Routes.adPayments.href(), [.class("button")],
                      text: L("ad_payments.action.cancel")),
                  ]),
              ])
          ]),
        deleteSection(context: context),
      ])
  }

  func deleteSection(context: PageContext) -> HTMLNode {
    guard let entryID else { return H.empty }
    return H.div(
      [.class("danger-zone")],
      [
        confirmButton(
          action: Routes.adPaymentDelete.href(id: entryID), csrf: context.csrf,
          label: L("ad_payments.form.delete"),
          confirm: L("ad_payments.delete.confirm", ["name": name]),
          confirmLabel: L("ad_payments.delete.yes"))
      ])
  }
}

// MARK: - import

struct AdPaymentImportForm: PageView {
  /// Why the last upload imported nothing (an accepted one goes to the import's progress page).
  var refusal: CSVImport.Refusal? = nil
  var choices = CSVImport.Choices()

  var title: String { L("ad_payments.import.title") }
  var section: NavSection? { .adPayments }

  func content(context: PageContext) -> HTMLNode {
    // The columns as the export of this language writes them (an import reads either language).
    let header = AdPaymentCSV.header
    return H.div(
      [.class("ad-payments-page")],
      [
        H.h1(title),
        refusal.map {
          CSVImport.refusalNode($0) { L("ad_payments.import.more_problems", count: $0) }
        } ?? H.empty,
        H.div(
          [.class("card")],
          [
            H.p(
              [],
              L("ad_payments.import.intro", ["name": header[0], "url": header[1]])),
            H.pre(
              [.class("csv-sample")],
              [
                H.text(
                  header.joined(separator: ",") + "\n"
                    + L("ad_payments.import.sample_name")
                    + ",https://www.example.com/spring\n")
              ]),
            H.p([.class("hint")], L("ad_payments.import.hint")),
            postForm(
              action: Routes.adPaymentImportSubmit.href(), csrf: context.csrf,
              attributes: [.class("stack")], multipart: true,
              [
                FieldView(
                  name: "file", label: L("ad_payments.import.file"), type: "file",
                  required: true, extra: [.accept(".csv,text/csv")]
                ).render(),
                CSVImport.choiceFields(
                  choices, skipErrorsHint: L("ad_payments.import.skip_errors_hint"),
                  duplicatesHint: L("ad_payments.import.duplicates_hint")),
                H.div(
                  [.class("form-actions")],
                  [
                    H.button(L("ad_payments.import.submit"), [.class("button button-primary")]),
                    H.a(
                      Routes.adPayments.href(), [.class("button")],
                      text: L("ad_payments.action.cancel")),
                  ]),
              ]),
          ]),
      ])
  }
}
