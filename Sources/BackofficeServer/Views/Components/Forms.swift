/// A form that posts with the CSRF token already inside.
func postForm(
  action: String, csrf: String, attributes: [Attr] = [], multipart: Bool = false,
  _ children: [HTMLNode]
) -> HTMLNode {
  var attrs: [Attr] = [.action(action), .method("post")]
  if multipart { attrs.append(.enctype("multipart/form-data")) }
  return H.form(
    attrs + attributes,
    [H.input([.type("hidden"), .name(CSRFMiddleware.fieldName), .value(csrf)])] + children)
}

/// A labelled input with its hint and its error message right under it.
struct FieldView {
  var name: String
  var label: String
  var type: String = "text"
  var value: String = ""
  var error: String? = nil
  var hint: String? = nil
  var required: Bool = false
  var autocomplete: String? = nil
  var extra: [Attr] = []
  /// The value saved meanwhile by someone else, when it differs from `value` (a stale save).
  var saved: SavedValue? = nil
  /// The control's id when a page shows several fields of one name (see `SelectView`).
  var fieldID: String? = nil

  var id: String { fieldID ?? "field-\(name)" }

  func render() -> HTMLNode {
    var attrs: [Attr] = [.id(id), .name(name), .type(type)]
    if type != "password" { attrs.append(.value(value)) }
    if required { attrs.append(.required) }
    if let autocomplete { attrs.append(.autocomplete(autocomplete)) }
    var describedBy: [String] = []
    if hint != nil { describedBy.append("\(id)-hint") }
    if error != nil {
      describedBy.append("\(id)-error")
      attrs.append(.aria(.invalid, "true"))
    }
    if saved != nil { describedBy.append("\(id)-saved") }
    if !describedBy.isEmpty {
      attrs.append(.aria(.describedby, describedBy.joined(separator: " ")))
    }
    return H.div(
      [.class(error == nil ? "field" : "field field-invalid")],
      [
        H.label([.`for`(id)], [H.text(label)]),
        H.input(attrs + extra),
        hint.map { H.p([.class("hint"), .id("\(id)-hint")], $0) } ?? H.empty,
        saved.map { $0.render(id: "\(id)-saved") } ?? H.empty,
        errorNode,
      ])
  }

  var errorNode: HTMLNode {
    // Always present so scripts can fill it live; empty and hidden until there is a message.
    H.p(
      [.class("field-error"), .id("\(id)-error"), .role("alert")]
        + (error == nil ? [.hidden] : []),
      [H.text(error ?? "")])
  }
}

/// A `<select>` with a label and an error slot, like `FieldView`.
struct SelectView {
  var name: String
  var label: String
  var options: [(value: String, label: String)]
  var selected: String
  var error: String? = nil
  var hint: String? = nil
  /// The language of an option's label when it is not the page's (a language or locale named
  /// in itself), for `lang` on the option.
  var optionLanguage: @Sendable (String) -> String? = { _ in nil }
  /// The control's id when a page shows several selects of one name (one per row of a list):
  /// each needs its own, or two labels point at one control and the other has no name.
  var fieldID: String? = nil

  var id: String { fieldID ?? "field-\(name)" }

  func render() -> HTMLNode {
    H.div(
      [.class(error == nil ? "field" : "field field-invalid")],
      [
        H.label([.`for`(id)], [H.text(label)]),
        H.select(
          [.id(id), .name(name)]
            + (error == nil
              ? [] : [.aria(.invalid, "true"), .aria(.describedby, "\(id)-error")]),
          options.map { option in
            H.option(
              [.value(option.value)] + (option.value == selected ? [.selected] : [])
                + (optionLanguage(option.value).map { [.lang($0)] } ?? []),
              [H.text(option.label)])
          }),
        hint.map { H.p([.class("hint")], $0) } ?? H.empty,
        FieldView(name: name, label: label, error: error, fieldID: fieldID).errorNode,
      ])
  }
}

/// A destructive action that asks first. Built on `<details>`, so the question works without
/// scripts: the first click reveals it, the second one confirms.
func confirmButton(
  action: String, csrf: String, label: String, confirm: String, confirmLabel: String? = nil
) -> HTMLNode {
  H.details(
    [.class("confirm")],
    [
      H.summary([.class("button button-danger")], [H.text(label)]),
      H.div(
        [.class("confirm-panel"), .role("alertdialog")],
        [
          H.p([], confirm),
          postForm(
            action: action, csrf: csrf, attributes: [.class("inline-form")],
            [H.button(confirmLabel ?? label, [.class("button button-danger")])]),
        ]),
    ])
}

func emptyState(title: String, message: String, action: HTMLNode? = nil) -> HTMLNode {
  H.div(
    [.class("empty-state")],
    [H.h2([], [H.text(title)]), H.p([], message), action ?? H.empty])
}

/// `node` on the pages of a member who may change records; nothing on a viewer's, whose
/// role would refuse what it leads to.
func whenWriting(_ context: PageContext, _ node: @autoclosure () -> HTMLNode) -> HTMLNode {
  context.canWrite ? node() : H.empty
}

/// A link to a record's edit form for a member who may change it; its text alone for a
/// viewer.
func editLink(_ context: PageContext, _ href: String, _ attributes: [Attr] = [], text: String)
  -> HTMLNode
{
  context.canWrite ? H.a(href, attributes, text: text) : H.span(attributes, text)
}
