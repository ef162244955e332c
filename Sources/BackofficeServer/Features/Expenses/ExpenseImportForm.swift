import BackofficeCore
import Foundation

/// The CSV import page: the expected format, a file field, "Skip rows with errors" and
/// "Import rows that are already present".
struct ExpenseImportForm: PageView {
  /// Why the last upload imported nothing (an accepted one goes to the import's progress page).
  var refusal: CSVImport.Refusal? = nil
  var choices = CSVImport.Choices()

  var title: String { L("expenses.import.title") }
  var section: NavSection? { .expenses }

  private typealias Column = ExpenseCSV.Column

  /// A short file in the format the export writes, in the interface language.
  static var sample: String {
    let rows = [
      ExpenseCSV.header,
      [
        "2025-11-22T15:05:00Z", L("expenses.import.sample_coffee"),
        ExpenseCategory.food.displayName, "3.50",
      ],
      ["", L("expenses.import.sample_gym"), ExpenseCategory.hobby.displayName, "25"],
    ]
    return rows.map { $0.joined(separator: ",") + "\n" }.joined()
  }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("expenses-page")],
      [
        H.a(Routes.expenses.href(), [.class("back-link")], text: "← " + L("nav.expenses")),
        H.h1(title),
        refusal.map { refusal in
          H.div(
            [.class("form-error"), .role("alert"), .id("import-error")],
            [
              H.p([], refusal.message),
              refusal.rows.isEmpty
                ? H.empty
                : H.ul([.class("row-errors")], refusal.rows.map { H.li([], [H.text($0)]) }),
            ])
        } ?? H.empty,
        H.section(
          [.class("card")],
          [
            H.h2(L("expenses.import.format_heading")),
            H.p(
              [],
              L(
                "expenses.import.format_intro",
                [
                  "date": Column.date.name, "title": Column.title.name,
                  "category": Column.category.name, "amount": Column.amount.name,
                ])),
            H.pre([.class("csv-sample")], [H.text(Self.sample)]),
            H.itemList(
              [.class("format-notes")],
              [
                H.text(L("expenses.import.note_amount", ["column": Column.amount.name])),
                H.text(
                  L(
                    "expenses.import.note_category",
                    [
                      "column": Column.category.name, "choices": ExpenseCategory.choices,
                      "default": ExpenseCategory.default.displayName,
                    ])),
                H.text(L("expenses.import.note_date", ["column": Column.date.name])),
                H.text(L("expenses.import.note_title", ["column": Column.title.name])),
                H.text(L("expenses.import.note_languages")),
              ]),
            H.p([.class("hint")], L("expenses.import.export_hint")),
          ]),
        postForm(
          action: Routes.expensesImportSubmit.href(), csrf: context.csrf,
          attributes: [.class("stack card")], multipart: true,
          [
            H.div(
              [.class("field")],
              [
                H.label([.`for`("field-file")], [H.text(L("expenses.import.file"))]),
                H.input([
                  .id("field-file"), .name("file"), .type("file"),
                  .accept(".csv,text/csv"), .required,
                ]),
              ]),
            H.label(
              [.class("switch"), .`for`("field-skip-errors")],
              [
                H.input(
                  [.id("field-skip-errors"), .name("skip_errors"), .type("checkbox"), .value("1")]
                    + (choices.skipErrors ? [.checked] : [])),
                H.text(CSVImport.Message.skipErrors),
              ]),
            H.p([.class("hint")], L("expenses.import.skip_errors_hint")),
            H.label(
              [.class("switch"), .`for`("field-import-duplicates")],
              [
                H.input(
                  [
                    .id("field-import-duplicates"), .name("import_duplicates"),
                    .type("checkbox"), .value("1"),
                    .aria(.describedby, "field-import-duplicates-hint"),
                  ] + (choices.importDuplicates ? [.checked] : [])),
                H.text(CSVImport.Message.importDuplicates),
              ]),
            H.p(
              [.class("hint"), .id("field-import-duplicates-hint")],
              L("expenses.import.duplicates_hint")),
            H.button(L("expenses.import.submit"), [.class("button button-primary")]),
          ]),
      ])
  }
}
