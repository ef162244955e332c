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
  var nodes: [HTMLNode] = [
    H.text("This URL is already saved as "),
    H.a(first.href, text: "\u{201C}\(first.name)\u{201D}"),
  ]
  if others.count > 1 {
    nodes.append(H.text(" and \(others.count - 1) more"))
  }
  nodes.append(H.text(". You can still save it."))
  return H.div(attributes, [H.p([], nodes)])
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

  var title: String { "Ad payments" }
  var section: NavSection? { .adPayments }
  var scripts: [String] { ["ad-payments.js"] }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("ad-payments-page")],
      [
        H.div(
          [.class("page-head")],
          [
            H.h1("Ad payments"),
            H.div(
              [.class("page-actions")],
              [
                H.a(Routes.adPaymentNew.href(), [.class("button button-primary")], text: "Add"),
                H.a(Routes.adPaymentImport.href(), [.class("button")], text: "Import CSV"),
                accountTotal > 0
                  ? H.a(
                    Routes.adPaymentExport.href(), [.class("button"), .download("")],
                    text: "Export CSV")
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
          [
            H.text("\u{201C}\(notice.savedName)\u{201D} has the same URL as "),
            H.a(
              Routes.adPaymentEdit.href(id: notice.existingID),
              text: "\u{201C}\(notice.existingName)\u{201D}"),
            H.text("."),
          ])
      ])
  }

  var searchForm: HTMLNode {
    H.form(
      [
        .action(Routes.adPayments.href()), .method("get"),
        .role("search"), .class("search-form"), .id("ad-payment-search"),
      ],
      [
        H.label([.`for`("ad-payment-q")], [H.text("Search by name or URL")]),
        H.div(
          [.class("search-row")],
          [
            H.input([
              .type("search"), .id("ad-payment-q"), .name("q"), .value(search),
              .autocomplete("off"), .enterkeyhint("search"),
            ]),
            H.button("Search", [.class("button")]),
            search.isEmpty
              ? H.empty
              : H.a(Routes.adPayments.href(), [.class("button")], text: "Clear"),
          ]),
      ])
  }

  func results(context: PageContext) -> HTMLNode {
    if accountTotal == 0 {
      return emptyState(
        title: "No payments added yet",
        message: "Use the Add button to create your first payment entry",
        action: H.a(Routes.adPaymentNew.href(), [.class("button button-primary")], text: "Add"))
    }
    if rows.isEmpty {
      return H.div(
        [.class("empty-state")],
        [
          H.h2(
            search.isEmpty
              ? "Nothing on this page" : "No payments match \u{201C}\(search)\u{201D}"),
          H.p([], "Try another part of the name or the URL."),
          H.a(Routes.adPayments.href(), [.class("button")], text: "Show all payments"),
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
    let noun = matching == 1 ? "payment" : "payments"
    if search.isEmpty { return "\(matching) \(noun)" }
    return "\(matching) \(noun) match \u{201C}\(search)\u{201D}"
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
        H.div(
          [.class("row-actions")],
          [
            H.a(
              Routes.adPaymentEdit.href(id: row.id),
              [.class("button"), .aria(.label, "Edit \u{201C}\(row.name)\u{201D}")],
              text: "Edit"),
            confirmButton(
              action: Routes.adPaymentDelete.href(id: row.id, query: listQuery),
              csrf: context.csrf, label: "Delete",
              confirm: "Delete \u{201C}\(row.name)\u{201D}? This cannot be undone.",
              confirmLabel: "Yes, delete"),
          ]),
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

  static let changedMessage =
    "This payment was changed since you opened it, in another tab or by someone else, so your "
    + "changes are not saved yet. Nothing you typed is lost: where the saved payment now "
    + "differs, its value is shown under your own. Save again to keep yours."

  var title: String {
    switch mode {
    case .create: "Add Payments"
    case .edit: "Edit Ad Payment"
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
                  name: AdPaymentField.name.rawValue, label: "Name", value: name,
                  error: errors[.name], required: true, autocomplete: "off",
                  extra: firstInvalid == .name ? [.autofocus] : [],
                  saved: saved["name"].map { SavedValue(text: $0) }
                ).render(),
                FieldView(
                  name: AdPaymentField.url.rawValue, label: "URL", type: "url", value: url,
                  error: errors[.url], hint: "For example https://www.example.com",
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
                    H.button("Save", [.class("button button-primary")]),
                    H.a(Routes.adPayments.href(), [.class("button")], text: "Cancel"),
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
          label: "Delete this payment",
          confirm: "Delete \u{201C}\(name)\u{201D}? This cannot be undone.",
          confirmLabel: "Yes, delete")
      ])
  }
}

// MARK: - import

struct AdPaymentImportForm: PageView {
  /// Why the last upload imported nothing (an accepted one goes to the import's progress page).
  var refusal: CSVImport.Refusal? = nil
  var choices = CSVImport.Choices()

  static let shownProblems = 100

  var title: String { "Import ad payments" }
  var section: NavSection? { .adPayments }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("ad-payments-page")],
      [
        H.h1("Import ad payments"),
        refusal.map(refusalNode) ?? H.empty,
        H.div(
          [.class("card")],
          [
            H.p(
              [],
              "Upload a CSV file with a header row and one payment per row. The columns name and "
                + "url are required (in any order; other columns are ignored):"),
            H.pre(
              [.class("csv-sample")],
              [H.text("name,url\nSpring campaign,https://www.example.com/spring\n")]),
            H.p(
              [.class("hint")],
              "Every row is checked like the Add form. Comma, semicolon and tab separated files "
                + "saved as UTF-8 are read."),
            postForm(
              action: Routes.adPaymentImportSubmit.href(), csrf: context.csrf,
              attributes: [.class("stack")], multipart: true,
              [
                FieldView(
                  name: "file", label: "CSV file", type: "file", required: true,
                  extra: [.accept(".csv,text/csv")]
                ).render(),
                H.div(
                  [.class("field-check")],
                  [
                    H.input(
                      [.type("checkbox"), .id("field-skip-errors"), .name("skip_errors")]
                        + [.value("on")] + (choices.skipErrors ? [.checked] : [])
                        + [.aria(.describedby, "field-skip-errors-hint")]),
                    H.label(
                      [.`for`("field-skip-errors")],
                      [H.text("Skip rows with errors")]),
                    H.p(
                      [.class("hint"), .id("field-skip-errors-hint")],
                      "Import the valid rows and list the others. Without this, a file with any "
                        + "error imports nothing."),
                  ]),
                H.div(
                  [.class("field-check")],
                  [
                    H.input(
                      [
                        .type("checkbox"), .id("field-import-duplicates"),
                        .name("import_duplicates"), .value("on"),
                      ] + (choices.importDuplicates ? [.checked] : [])
                        + [.aria(.describedby, "field-import-duplicates-hint")]),
                    H.label(
                      [.`for`("field-import-duplicates")],
                      [H.text("Import rows that are already present")]),
                    H.p(
                      [.class("hint"), .id("field-import-duplicates-hint")],
                      "Without this, a row is left out when the list already has an entry with "
                        + "the same name and link, so importing the same file twice adds nothing "
                        + "the second time. A file with two such rows adds as many as the list "
                        + "is missing."),
                  ]),
                H.div(
                  [.class("form-actions")],
                  [
                    H.button("Import", [.class("button button-primary")]),
                    H.a(Routes.adPayments.href(), [.class("button")], text: "Cancel"),
                  ]),
              ]),
          ]),
      ])
  }

  func refusalNode(_ refusal: CSVImport.Refusal) -> HTMLNode {
    H.div(
      [.class("form-error import-report"), .role("alert")],
      [H.p([], refusal.message), problemList(refusal.rows)])
  }

  func problemList(_ rows: [String]) -> HTMLNode {
    guard !rows.isEmpty else { return H.empty }
    let shown = rows.prefix(Self.shownProblems).map { H.text($0) }
    var items = H.itemList([.class("problem-list")], Array(shown))
    if rows.count > Self.shownProblems {
      items = H.group([
        items, H.p([], "…and \(rows.count - Self.shownProblems) more rows with errors."),
      ])
    }
    return items
  }
}
