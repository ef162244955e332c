import BackofficeCore
import Foundation

/// "Add expense" and "Edit expense". Like the original app, the title and the amount each have
/// a footer that is red ("Title must be filled!") until the field is filled and then green
/// ("Approved!"); the server renders it and `expenses.js` keeps it live while typing. Every rule
/// is checked again by the server, so the form works the same without scripts.
struct ExpenseForm: PageView {
  enum Mode: Sendable, Equatable {
    case new
    case edit(UUID)
  }

  struct Model: Sendable {
    var mode: Mode
    var draft: ExpenseDraft
    /// The "Date (optional)" switch.
    var hasDate: Bool
    var errors = ExpenseValidationErrors()
    var currency: String
    /// Decimals the amount may have in this currency (at most 2).
    var places: Int
    /// Shown in the date picker when the expense has no date yet: now, in UTC.
    var defaultDate: String
    /// The list address to return to.
    var back: String?
    /// The version the form was opened at (edit); see `RecordVersion`.
    var version = 0
    /// Set when a save was refused because the expense changed meanwhile (409).
    var conflict: String? = nil
    /// The saved values (title, amount, category, date) that differ from the typed ones.
    var saved: [String: String] = [:]
    /// The workspace's fundraisers to pick from: id (lowercase text) and purpose.
    var fundraisers: [(id: String, purpose: String)] = []
    /// The picked fundraiser's id as the form sends it; empty for none.
    var fundraiser = ""
    /// The expense's stored receipts (edit).
    var receipts: [ExpenseReceipts.Ref] = []
    /// Stored receipts ticked "show on the public report".
    var publicReceipts: Set<UUID> = []
    /// Stored receipts ticked "remove".
    var removeReceipts: Set<UUID> = []
    /// Whether new receipts go on the public report (off unless ticked).
    var newReceiptsPublic = false
    /// Messages for the fields Core does not check: `fundraiser`, `receipts`.
    var fieldErrors: [String: String] = [:]
    /// The largest photo the server takes, for the hint and the script's check.
    var maxUploadBytes = ImageUpload.defaultMaxBytes
  }

  static var changedMessage: String { L("expenses.form.changed", ["update": updateLabel]) }

  /// The edit form's save button, which `changedMessage` names.
  static var updateLabel: String { L("expenses.form.update") }

  var model: Model

  var title: String { model.mode == .new ? L("expenses.add") : L("expenses.form.edit_title") }
  var section: NavSection? { .expenses }
  var scripts: [String] { ["expenses.js"] }

  var action: String {
    switch model.mode {
    case .new: Routes.expenseCreate.href()
    case .edit(let id): Routes.expenseUpdate.href(id: id)
    }
  }

  var cancelHref: String { model.back ?? Routes.expenses.href() }

  func content(context: PageContext) -> HTMLNode {
    let locale = context.locale
    var nodes: [HTMLNode] = [
      H.a(cancelHref, [.class("back-link")], text: "← " + L("nav.expenses")),
      H.h1(title),
    ]
    if let conflict = model.conflict { nodes.append(conflictNotice(conflict)) }
    if !model.errors.isEmpty || !model.fieldErrors.isEmpty {
      nodes.append(
        H.div(
          [.class("form-error"), .role("alert")],
          [H.text(L("expenses.form.not_saved"))]))
    }
    nodes.append(
      postForm(
        action: action, csrf: context.csrf,
        attributes: [
          .class("stack expense-form card"), .data("expense-form", ""),
          .data("title-missing", ExpenseMessages.titleMissing),
          .data("amount-missing", ExpenseMessages.amountMissing),
          .data("approved", ExpenseMessages.approved),
        ],
        multipart: true,
        [
          model.back.map { H.input([.type("hidden"), .name("back"), .value($0)]) }
            ?? H.empty,
          model.mode == .new ? H.empty : VersionField.hidden(model.version),
          titleField(),
          savedNode("title"),
          amountField(locale: locale),
          savedNode("amount"),
          SelectView(
            name: "category", label: L("expenses.field.category"),
            options: ExpenseCategory.allCases.map { ($0.rawValue, $0.displayName) },
            selected: ExpenseCategory(label: model.draft.category)?.rawValue
              ?? model.draft.category,
            error: model.errors.category
          ).render(),
          savedNode("category"),
          dateFields(),
          savedNode("date", empty: L("expenses.no_date")),
          fundraiserField(),
          receiptsField(),
          H.div(
            [.class("form-actions")],
            [
              H.button(
                model.mode == .new ? L("expenses.form.save") : Self.updateLabel,
                [.class("button button-primary"), .data("save", "")]),
              H.a(cancelHref, [.class("button")], text: L("expenses.form.cancel")),
            ]),
        ]))
    if case .edit(let id) = model.mode {
      nodes.append(
        postForm(
          action: Routes.expenseDelete.href(id: id), csrf: context.csrf,
          attributes: [.class("delete-form")],
          [
            model.back.map { H.input([.type("hidden"), .name("back"), .value($0)]) }
              ?? H.empty,
            H.button(L("expenses.form.delete"), [.class("button button-danger-quiet")]),
            H.p(
              [.class("hint")],
              L("expenses.form.undo_hint", count: Int(ExpenseStore.undoWindow / 60))),
          ]))
    }
    return H.div([.class("expenses-page expense-form-page")], nodes)
  }

  // MARK: fields

  /// "Saved now: …" under a field whose saved value differs from the typed one; `empty` is
  /// shown for an empty saved value (else the shared "(empty)").
  func savedNode(_ field: String, empty: String? = nil) -> HTMLNode {
    model.saved[field].map { text in
      var saved = SavedValue(text: text)
      if let empty { saved.empty = empty }
      return saved.render(id: "field-\(field)-saved")
    } ?? H.empty
  }

  /// The footer under the title: the server's message after a failed save, else the
  /// original's red/green state.
  var titleFeedback: (text: String, ok: Bool) {
    if let error = model.errors.title { return (error, false) }
    if Expense.normalizedTitle(model.draft.title).isEmpty {
      return (ExpenseMessages.titleMissing, false)
    }
    return (ExpenseMessages.approved, true)
  }

  var amountFeedback: (text: String, ok: Bool) {
    if let error = model.errors.amount { return (error, false) }
    if model.draft.amount.trimmingCharacters(in: .whitespaces).isEmpty {
      return (ExpenseMessages.amountMissing, false)
    }
    return (ExpenseMessages.approved, true)
  }

  func titleField() -> HTMLNode {
    // Longer text is cut, as the original did while typing; the save cuts it again.
    let value = String(model.draft.title.prefix(Expense.maxTitleLength))
    let feedback = titleFeedback
    return H.div(
      [.class(model.errors.title == nil ? "field" : "field field-invalid")],
      [
        H.label([.`for`("field-title")], [H.text(L("expenses.field.title"))]),
        H.input(
          [
            .id("field-title"), .name("title"), .type("text"), .value(value),
            .autocomplete("off"), .data("max-length", String(Expense.maxTitleLength)),
            .aria(.describedby, "field-title-feedback field-title-count"),
          ] + (model.errors.title == nil ? [] : [.aria(.invalid, "true")])),
        H.div(
          [.class("field-footer")],
          [
            feedbackNode(id: "field-title-feedback", feedback),
            H.span(
              [.class("counter muted"), .id("field-title-count")],
              "\(value.count)/\(Expense.maxTitleLength)"),
          ]),
      ])
  }

  func amountField(locale: BackofficeLocale) -> HTMLNode {
    let feedback = amountFeedback
    let example = MoneyFormat.editable(
      Decimal(125) / 10, fractionDigits: model.places, locale: locale)
    let hint =
      model.places == 0
      ? L("expenses.form.amount_hint_whole")
      : L(
        "expenses.form.amount_hint", count: model.places,
        ["separator": String(locale.decimalSeparator), "example": example])
    return H.div(
      [.class(model.errors.amount == nil ? "field" : "field field-invalid")],
      [
        H.label(
          [.`for`("field-amount")],
          [H.text(L("expenses.form.amount_label", ["currency": model.currency]))]),
        H.input(
          [
            .id("field-amount"), .name("amount"), .type("text"), .value(model.draft.amount),
            .inputmode("decimal"), .autocomplete("off"),
            .placeholder(example),
            .data(
              "pattern", AmountTyping.regexPattern(for: locale, maxFractionDigits: model.places)),
            .aria(.describedby, "field-amount-hint field-amount-feedback"),
          ] + (model.errors.amount == nil ? [] : [.aria(.invalid, "true")])),
        H.p([.class("hint"), .id("field-amount-hint")], hint),
        feedbackNode(id: "field-amount-feedback", feedback),
      ])
  }

  func feedbackNode(id: String, _ feedback: (text: String, ok: Bool)) -> HTMLNode {
    H.p(
      [
        .class(feedback.ok ? "feedback feedback-ok" : "feedback feedback-error"), .id(id),
        .aria(.live, "polite"),
      ],
      [H.text(feedback.text)])
  }

  func dateFields() -> HTMLNode {
    let error = model.errors.date
    let value = model.draft.date.isEmpty ? model.defaultDate : model.draft.date
    return H.group([
      H.div(
        [.class("field date-switch")],
        [
          H.label(
            [.class("switch"), .`for`("field-has-date")],
            [
              H.input(
                [
                  .id("field-has-date"), .name("has_date"), .type("checkbox"), .value("1"),
                  .data("date-toggle", ""), .aria(.controls, "date-picker"),
                ] + (model.hasDate ? [.checked] : [])),
              H.text(ExpenseMessages.dateSwitch),
            ])
        ]),
      H.div(
        [
          .class(error == nil ? "field date-picker" : "field date-picker field-invalid"),
          .id("date-picker"), .data("date-picker", ""),
        ],
        [
          H.label([.`for`("field-date")], [H.text(L("expenses.form.date_label"))]),
          H.input(
            [
              .id("field-date"), .name("date"), .type("datetime-local"), .step("60"),
              .value(value), .data("now", model.defaultDate),
              .aria(.describedby, "field-date-error"),
            ] + (error == nil ? [] : [.aria(.invalid, "true")])),
          FieldView(name: "date", label: "", error: error).errorNode,
        ]),
    ])
  }

  // MARK: fundraiser and receipts

  /// "Spent for": none, or one of the workspace's fundraisers (its purpose, shortened).
  func fundraiserField() -> HTMLNode {
    guard !model.fundraisers.isEmpty || !model.fundraiser.isEmpty else { return H.empty }
    var options: [(value: String, label: String)] = [("", L("expenses.form.fundraiser_none"))]
    options += model.fundraisers.map { ($0.id, Self.shortPurpose($0.purpose)) }
    return SelectView(
      name: "fundraiser", label: L("expenses.field.fundraiser"), options: options,
      selected: model.fundraiser, error: model.fieldErrors["fundraiser"],
      hint: L("expenses.form.fundraiser_hint")
    ).render()
  }

  /// A purpose as a one-line label: its first line, at most 60 characters.
  static func shortPurpose(_ purpose: String) -> String {
    let line = purpose.split(whereSeparator: \.isNewline).first.map(String.init) ?? purpose
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    return trimmed.count > 60 ? String(trimmed.prefix(59)) + "\u{2026}" : trimmed
  }

  /// The receipts: the stored ones (edit) with "public" and "remove" ticks, then a file field
  /// for more, from the camera or the files, with the "public" tick for the new ones and why it
  /// starts off.
  func receiptsField() -> HTMLNode {
    let id = "field-receipts"
    let error = model.fieldErrors["receipts"]
    let size = ImageUploadError.size(model.maxUploadBytes)
    var nodes: [HTMLNode] = [
      H.label([.`for`(id)], [H.text(L("expenses.field.receipts"))])
    ]
    if !model.receipts.isEmpty {
      nodes.append(H.input([.type("hidden"), .name("receipts_listed"), .value("1")]))
      nodes.append(
        H.ul(
          [.class("receipt-list")],
          model.receipts.enumerated().map { index, receipt in
            let number = index + 1
            let key = receipt.id.uuidString.lowercased()
            return H.li(
              [.class("receipt-item")],
              [
                H.a(
                  receipt.href, [.class("receipt-thumb"), .target("_blank")],
                  [
                    H.img([
                      .src(receipt.href),
                      .alt(L("expenses.receipts.alt", ["number": String(number)])),
                      .width("72"), .height("72"), .loading("lazy"),
                    ])
                  ]),
                H.label(
                  [.class("check")],
                  [
                    H.input(
                      [.type("checkbox"), .name("public_receipts[]"), .value(key)]
                        + (model.publicReceipts.contains(receipt.id) ? [.checked] : [])),
                    H.text(L("expenses.receipts.public")),
                  ]),
                H.label(
                  [.class("check")],
                  [
                    H.input(
                      [.type("checkbox"), .name("remove_receipts[]"), .value(key)]
                        + (model.removeReceipts.contains(receipt.id) ? [.checked] : [])),
                    H.text(L("expenses.receipts.remove")),
                  ]),
              ])
          }))
    }
    var input: [Attr] = [
      .id(id), .name("receipts[]"), .type("file"), .accept("image/jpeg,image/png"), .multiple,
      .data("max-bytes", String(model.maxUploadBytes)),
      .data("too-large", L("expenses.form.receipt_too_large", ["size": size])),
      .aria(.describedby, "\(id)-hint \(id)-error"),
    ]
    if error != nil { input.append(.aria(.invalid, "true")) }
    nodes += [
      H.input(input),
      H.p(
        [.class("hint"), .id("\(id)-hint")],
        L(
          "expenses.form.receipts_hint",
          ["size": size, "count": String(ExpenseReceipts.maxPerExpense)])),
      FieldView(name: "receipts", label: "", error: error).errorNode,
      H.label(
        [.class("check")],
        [
          H.input(
            [
              .type("checkbox"), .name("receipts_public"), .value("1"),
              .aria(.describedby, "field-receipts-public-hint"),
            ] + (model.newReceiptsPublic ? [.checked] : [])),
          H.text(L("expenses.form.receipts_public")),
        ]),
      H.p(
        [.class("hint"), .id("field-receipts-public-hint")],
        L("expenses.form.receipts_public_hint")),
    ]
    return H.div(
      [.class(error == nil ? "field receipts-field" : "field receipts-field field-invalid")],
      nodes)
  }
}
