import BackofficeCore
import Foundation

/// Add and edit. Posts multipart (the photo) and works without scripts; `products.js` crops the
/// photo to a square before upload and, when offline, keeps a new product in the outbox.
struct ProductForm: PageView {
  enum Mode: Sendable, Equatable {
    case create
    case edit(UUID)
  }

  struct Values: Sendable, Equatable {
    var name = ""
    var type = ""
    var price = ""
    var tax = ""

    /// Keyed like the inputs.
    var fields: [String: String] { ["name": name, "type": type, "price": price, "tax": tax] }
  }

  static var changedMessage: String { L("products.form.changed") }

  var mode: Mode
  var values = Values()
  /// Messages by field name: name, type, price, tax, photo.
  var errors: [String: String] = [:]
  /// Existing types for the type picker, as the chips spell them.
  var types: [String] = []
  /// The current photo (edit).
  var photoHref: String? = nil
  /// Sent back with the form so a double submit saves one product (create).
  var idempotencyKey: String = ""
  /// The version the form was opened at (edit); see `RecordVersion`.
  var version = 0
  /// Set when a save was refused because the product changed meanwhile (409).
  var conflict: String? = nil
  /// The saved values of the fields that differ from the typed ones, after a refused save.
  var saved: [String: String] = [:]
  /// "Remove the photo" was ticked.
  var removePhoto = false
  var currency: String
  var maxUploadBytes: Int
  var outbox: OutboxSettings

  var title: String {
    switch mode {
    case .create: L("products.add_product")
    case .edit: L("products.form.edit_title")
    }
  }
  var section: NavSection? { .products }
  var scripts: [String] { ["products.js"] }

  var action: String {
    switch mode {
    case .create: Routes.productCreate.href()
    case .edit(let id): Routes.productUpdate.href(id: id)
    }
  }

  var isCreate: Bool { mode == .create }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("product-form-page")] + outbox.attributes,
      [
        H.p(
          [.class("back-link")], [H.a(Routes.products.href(), text: L("products.back_to_list"))]),
        H.h1(title),
        conflict.map(conflictNotice) ?? H.empty,
        OutboxSettings.statusNode,
        OutboxSettings.iconTemplates,
        OutboxSettings.searchRulesNode,
        H.div(
          [
            .id("product-form-status"), .class("form-status"), .role("status"),
            .aria(.live, "polite"), .hidden,
          ], []),
        H.div([.class("card")], [form(context: context)]),
        // The server's rules and messages, for the check before an offline save (data, never
        // run; read by /js/product-rules.js).
        H.script(
          [.type("application/json"), .id("product-rules")],
          [.raw(ProductRuleSheet(locale: outbox.locale).json())]),
        deleteNode(context: context),
      ])
  }

  func form(context: PageContext) -> HTMLNode {
    let locale = outbox.locale
    let example = MoneyFormat.number(Decimal(123_450) / 100, fractionDigits: 2, locale: locale)
    var attributes: [Attr] = [
      .class("stack product-form"), .id("product-form"), .novalidate,
    ]
    if isCreate { attributes.append(.data("outbox", "create")) }
    return postForm(
      action: action, csrf: context.csrf, attributes: attributes, multipart: true,
      [
        isCreate
          ? H.input([.type("hidden"), .name("idempotency_key"), .value(idempotencyKey)])
          : VersionField.hidden(version),
        FieldView(
          name: "name", label: L("products.form.name"), value: values.name, error: errors["name"],
          required: true, autocomplete: "off",
          extra: [.maxlength(String(Product.nameMaxLength))],
          saved: savedValue("name")
        ).render(),
        FieldView(
          name: "type", label: L("products.form.type"), value: values.type,
          error: errors["type"], hint: L("products.form.type_hint"), required: true,
          autocomplete: "off",
          extra: [
            .list("product-type-options"),
            .maxlength(String(Product.typeMaxLength)),
          ],
          saved: savedValue("type")
        ).render(),
        H.datalist(
          [.id("product-type-options")],
          types.map { H.option([.value($0)]) }),
        FieldView(
          name: "price", label: L("products.form.price", ["currency": currency]),
          value: values.price, error: errors["price"],
          hint: L("products.form.price_hint", ["example": example]), required: true,
          autocomplete: "off",
          extra: [.inputmode("decimal")], saved: savedValue("price")
        ).render(),
        FieldView(
          name: "tax", label: L("products.form.tax"), value: values.tax, error: errors["tax"],
          hint: L("products.form.tax_hint"), required: true, autocomplete: "off",
          extra: [.inputmode("decimal")], saved: savedValue("tax")
        ).render(),
        photoField,
        H.div(
          [.class("form-actions")],
          [
            H.button(
              isCreate ? L("products.form.upload") : L("products.form.save"),
              [.class("button button-primary"), .id("product-submit")]),
            H.a(Routes.products.href(), [.class("button")], text: L("products.form.cancel")),
          ]),
      ])
  }

  func savedValue(_ field: String) -> SavedValue? {
    saved[field].map { SavedValue(text: $0) }
  }

  var photoField: HTMLNode {
    let id = "field-photo"
    let error = errors[PhotoInput.field]
    let size = ImageUploadError.size(maxUploadBytes)
    var input: [Attr] = [
      .id(id), .name("photo"), .type("file"), .accept("image/jpeg,image/png"),
      .data("max-bytes", String(maxUploadBytes)), .aria(.describedby, "\(id)-hint \(id)-error"),
    ]
    if error != nil { input.append(.aria(.invalid, "true")) }
    return H.div(
      [.class(error == nil ? "field photo-field" : "field photo-field field-invalid")],
      [
        H.label([.`for`(id)], [H.text(L("products.form.photo"))]),
        photoHref.map { href in
          H.div(
            [.class("current-photo")],
            [
              H.img([
                .src(href), .alt(L("products.form.current_photo")), .width("96"),
                .height("96"),
              ]),
              H.label(
                [.class("check")],
                [
                  H.input(
                    [.type("checkbox"), .name("remove_photo"), .value("1")]
                      + (removePhoto ? [.checked] : [])),
                  H.text(" " + L("products.form.remove_saved_photo")),
                ]),
            ])
        } ?? H.empty,
        H.input(input),
        H.p(
          [
            .class("hint"), .id("\(id)-hint"),
            // What the script says instead, since with it the photo is made smaller first.
            .data("script-hint", L("products.form.photo_hint_script", ["size": size])),
          ],
          L("products.form.photo_hint", ["size": size])
        ),
        H.div(
          [.class("photo-crop"), .id("photo-crop"), .hidden],
          [
            H.canvas(
              [
                .id("photo-crop-canvas"), .width("320"), .height("320"),
                .role("img"), .aria(.label, L("products.form.crop_preview")),
              ], []),
            H.button(
              L("products.form.clear_photo"),
              [.type("button"), .class("button"), .id("photo-crop-clear")]),
          ]),
        FieldView(name: "photo", label: "", error: error).errorNode,
      ])
  }

  func deleteNode(context: PageContext) -> HTMLNode {
    guard case .edit(let id) = mode else { return H.empty }
    return H.div(
      [.class("danger-zone")],
      [
        confirmButton(
          action: Routes.productDelete.href(id: id), csrf: context.csrf,
          label: L("products.form.delete"),
          confirm: L("products.form.delete_confirm", ["name": values.name]),
          confirmLabel: L("products.form.delete_yes"))
      ])
  }
}
