import BackofficeCore
import Plot

/// Body-level HTML node. Views are built from these and rendered by Plot.
typealias HTMLNode = Node<HTML.BodyContext>

/// One HTML attribute. Plot writes attribute values verbatim, so every value is escaped here.
struct Attr: Sendable {
  var name: String
  /// `nil` renders a boolean attribute (`required`, `checked`).
  var value: String?

  static func `class`(_ value: String) -> Attr { Attr(name: "class", value: value) }
  static func id(_ value: String) -> Attr { Attr(name: "id", value: value) }
  static func href(_ value: String) -> Attr { Attr(name: "href", value: value) }
  static func name(_ value: String) -> Attr { Attr(name: "name", value: value) }
  static func type(_ value: String) -> Attr { Attr(name: "type", value: value) }
  static func value(_ value: String) -> Attr { Attr(name: "value", value: value) }
  static func aria(_ name: String, _ value: String) -> Attr {
    Attr(name: "aria-\(name)", value: value)
  }
  static func data(_ name: String, _ value: String) -> Attr {
    Attr(name: "data-\(name)", value: value)
  }
  static func flag(_ name: String) -> Attr { Attr(name: name, value: nil) }
  static func custom(_ name: String, _ value: String) -> Attr { Attr(name: name, value: value) }
}

enum H {
  static func el(_ name: String, _ attributes: [Attr] = [], _ children: [HTMLNode] = [])
    -> HTMLNode
  {
    .element(named: name, nodes: attributes.map(node) + children)
  }

  /// Elements that have no closing tag.
  static func void(_ name: String, _ attributes: [Attr] = []) -> HTMLNode {
    .selfClosedElement(
      named: name,
      attributes: attributes.map { attribute in
        Attribute<HTML.BodyContext>(
          name: attribute.name, value: attribute.value.map(escapeAttribute),
          ignoreIfValueIsEmpty: false)
      })
  }

  static func text(_ string: String) -> HTMLNode { .raw(escapeText(string)) }
  static func raw(_ html: String) -> HTMLNode { .raw(html) }
  static func group(_ nodes: [HTMLNode]) -> HTMLNode { .group(nodes) }
  static var empty: HTMLNode { .group([]) }

  static func div(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    el("div", attributes, children)
  }
  static func p(_ attributes: [Attr] = [], _ text: String) -> HTMLNode {
    el("p", attributes, [self.text(text)])
  }
  static func a(_ href: String, _ attributes: [Attr] = [], _ children: [HTMLNode]) -> HTMLNode {
    el("a", [.href(href)] + attributes, children)
  }
  static func a(_ href: String, _ attributes: [Attr] = [], text: String) -> HTMLNode {
    a(href, attributes, [self.text(text)])
  }
  static func h1(_ text: String, _ attributes: [Attr] = []) -> HTMLNode {
    el("h1", attributes, [self.text(text)])
  }
  static func h2(_ text: String, _ attributes: [Attr] = []) -> HTMLNode {
    el("h2", attributes, [self.text(text)])
  }
  static func span(_ attributes: [Attr] = [], _ text: String) -> HTMLNode {
    el("span", attributes, [self.text(text)])
  }
  static func button(_ text: String, _ attributes: [Attr] = []) -> HTMLNode {
    el(
      "button",
      attributes.contains { $0.name == "type" } ? attributes : [.type("submit")] + attributes,
      [self.text(text)])
  }
  static func section(_ attributes: [Attr] = [], _ children: [HTMLNode]) -> HTMLNode {
    el("section", attributes, children)
  }
  static func ul(_ attributes: [Attr] = [], _ items: [HTMLNode]) -> HTMLNode {
    el("ul", attributes, items.map { el("li", [], [$0]) })
  }

  private static func node(_ attribute: Attr) -> HTMLNode {
    if let value = attribute.value {
      return .attribute(
        named: attribute.name, value: escapeAttribute(value), ignoreIfValueIsEmpty: false)
    }
    return .attribute(named: attribute.name)
  }

  static func escapeText(_ string: String) -> String { HTMLEscaping.text(string) }

  static func escapeAttribute(_ string: String) -> String { HTMLEscaping.attribute(string) }
}
