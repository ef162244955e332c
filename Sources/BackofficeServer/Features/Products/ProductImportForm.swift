import BackofficeCore
import Foundation

/// The CSV import page of the catalog: the expected columns, a file field, "Skip rows with
/// errors" and "Import rows that are already present".
struct ProductImportForm: PageView {
  /// Why the last upload imported nothing (an accepted one goes to the import's progress page).
  var refusal: CSVImport.Refusal? = nil
  var choices = CSVImport.Choices()

  var title: String { L("products.import.title") }
  var section: NavSection? { .products }

  private typealias Column = ProductCSV.Column

  /// A short file in the format the export writes, in the interface language (an import reads
  /// either language).
  static var sample: String {
    let header = Column.required.map(\.name)
    let row = [
      L("products.import.sample_name"), L("products.import.sample_type"), "1694.92", "18.00",
    ]
    return [header, row].map { $0.joined(separator: ",") + "\n" }.joined()
  }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("product-import-page")],
      [
        H.p(
          [.class("back-link")], [H.a(Routes.products.href(), text: L("products.back_to_list"))]),
        H.h1(title),
        refusal.map {
          CSVImport.refusalNode($0) { L("products.import.more_problems", count: $0) }
        } ?? H.empty,
        H.div(
          [.class("card")],
          [
            H.p(
              [],
              L(
                "products.import.intro",
                [
                  "name": Column.name.name, "type": Column.type.name, "price": Column.price.name,
                  "tax": Column.tax.name,
                ])),
            H.pre([.class("csv-sample")], [H.text(Self.sample)]),
            H.p([.class("hint")], L("products.import.hint")),
            H.p(
              [.class("hint")],
              L(
                "products.import.ignored",
                [
                  "favorite": Column.favorite.name, "image_url": Column.imageURL.name,
                  "created_at": Column.createdAt.name,
                ])),
            H.p([.class("hint")], L("products.import.photos")),
            postForm(
              action: Routes.productsImportSubmit.href(), csrf: context.csrf,
              attributes: [.class("stack")], multipart: true,
              [
                FieldView(
                  name: "file", label: L("products.import.file"), type: "file",
                  required: true, extra: [.accept(".csv,text/csv")]
                ).render(),
                CSVImport.choiceFields(
                  choices, skipErrorsHint: L("products.import.skip_errors_hint"),
                  duplicatesHint: L("products.import.duplicates_hint")),
                H.div(
                  [.class("form-actions")],
                  [
                    H.button(L("products.import.submit"), [.class("button button-primary")]),
                    H.a(
                      Routes.products.href(), [.class("button")],
                      text: L("products.form.cancel")),
                  ]),
              ]),
          ]),
      ])
  }
}
