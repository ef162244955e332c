import BackofficeCore
import Foundation

/// The CSV import page: the expected format, a file field, "Skip rows with errors" and
/// "Import rows that are already present".
struct ExpenseImportForm: PageView {
  /// Why the last upload imported nothing (an accepted one goes to the import's progress page).
  var refusal: CSVImport.Refusal? = nil
  var choices = CSVImport.Choices()

  var title: String { "Import expenses" }
  var section: NavSection? { .expenses }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("expenses-page")],
      [
        H.a(Routes.expenses.href(), [.class("back-link")], text: "← Expenses"),
        H.h1("Import expenses"),
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
            H.h2("File format"),
            H.p(
              [],
              "A CSV file (UTF-8) whose first line names the columns date, title, category and "
                + "amount, in any order. For example:"),
            H.pre(
              [.class("csv-sample")],
              [
                H.text(
                  "date,title,category,amount\n2025-11-22T15:05:00Z,Coffee,Food,3.50\n,Gym,Hobby,25\n"
                )
              ]),
            H.itemList(
              [.class("format-notes")],
              [
                H.text(
                  "amount: a dot before the decimals, at most 2 decimals, no thousands separators "
                    + "(12.50)."),
                H.text(
                  "category: Personal, Hobby, Transport, Food, Insurance or Savings; empty means "
                    + "Personal."),
                H.text(
                  "date: 2025-11-22, 2025-11-22T15:05 or with an offset (…Z, …+02:00); without an "
                    + "offset it is read as UTC; empty means no date."),
                H.text("title: longer than 15 characters is cut to 15."),
              ]),
            H.p(
              [.class("hint")],
              "The export of this page has exactly this format, so an exported file can be "
                + "imported again."),
          ]),
        postForm(
          action: Routes.expensesImportSubmit.href(), csrf: context.csrf,
          attributes: [.class("stack card")], multipart: true,
          [
            H.div(
              [.class("field")],
              [
                H.label([.`for`("field-file")], [H.text("CSV file")]),
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
                H.text("Skip rows with errors"),
              ]),
            H.p(
              [.class("hint")],
              "Without it, a file with any bad row imports nothing and lists what to fix."),
            H.label(
              [.class("switch"), .`for`("field-import-duplicates")],
              [
                H.input(
                  [
                    .id("field-import-duplicates"), .name("import_duplicates"),
                    .type("checkbox"), .value("1"),
                    .aria(.describedby, "field-import-duplicates-hint"),
                  ] + (choices.importDuplicates ? [.checked] : [])),
                H.text("Import rows that are already present"),
              ]),
            H.p(
              [.class("hint"), .id("field-import-duplicates-hint")],
              "Without it, a row is left out when the account already has an expense with the "
                + "same date and time, title, amount and category, so importing the same file "
                + "twice adds nothing the second time. A file with two such rows adds as many "
                + "as the account is missing."),
            H.button("Import", [.class("button button-primary")]),
          ]),
      ])
  }
}
