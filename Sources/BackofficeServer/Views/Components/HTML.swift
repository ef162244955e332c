import BackofficeCore

/// A piece of a page: views are built from these (through `H`, which names every element) and
/// the page is written once, by `render()`.
///
/// The app's own type rather than a library's: a page of products is about 2 000 nodes, and
/// the HTML library used before (Plot) spent half of the page's processor time rendering them
/// (a buffer object and attribute bookkeeping for every element). Writing a tree of plain
/// values into one string is all the views need; the bytes are the ones Plot wrote (the view
/// snapshots compare them).
indirect enum HTMLNode: Sendable {
  /// An element with its attributes and children: `<name a="v">children</name>`.
  case element(String, [Attr], [HTMLNode])
  /// An element without a closing tag: `<name a="v"/>`.
  case void(String, [Attr])
  /// Text written as it is: markup, or text already escaped.
  case raw(String)
  /// Text escaped as it is written (`H.text`): `&`, `<` and `>` become entities.
  case text(String)
  /// Nodes one after another, without an element around them.
  case group([HTMLNode])

  /// The node as HTML, as a string (a part of a page embedded in another node, or a test).
  func render() -> String {
    var out: [UInt8] = []
    out.reserveCapacity(1024)
    write(into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Writes the node's HTML at the end of `out`. A page is written into one array of bytes
  /// that becomes the response's buffer (`Layout.render`); no string of it is made.
  func write(into out: inout [UInt8]) {
    switch self {
    case .raw(let text):
      Self.append(text, to: &out)
    case .text(let text):
      HTMLEscaping.write(text, quotes: false, into: &out)
    case .group(let nodes):
      for node in nodes { node.write(into: &out) }
    case .element(let name, let attributes, let children):
      Self.openTag(name, attributes, into: &out)
      out.append(UInt8(ascii: ">"))
      for child in children { child.write(into: &out) }
      out.append(UInt8(ascii: "<"))
      out.append(UInt8(ascii: "/"))
      Self.append(name, to: &out)
      out.append(UInt8(ascii: ">"))
    case .void(let name, let attributes):
      Self.openTag(name, attributes, into: &out)
      out.append(UInt8(ascii: "/"))
      out.append(UInt8(ascii: ">"))
    }
  }

  /// A string's UTF-8 bytes, copied in one piece (`utf8`'s sequence copies them one by one
  /// when the string is short enough to live inside its value).
  private static func append(_ string: String, to out: inout [UInt8]) {
    var string = string
    string.withUTF8 { out.append(contentsOf: $0) }
  }

  /// `<name` and the attributes; a name given twice keeps its first place and its last value.
  private static func openTag(_ name: String, _ attributes: [Attr], into out: inout [UInt8]) {
    out.append(UInt8(ascii: "<"))
    append(name, to: &out)
    for (index, attribute) in attributes.enumerated() {
      if attributes[..<index].contains(where: { $0.name == attribute.name }) { continue }
      let last = attributes[index...].last { $0.name == attribute.name } ?? attribute
      out.append(UInt8(ascii: " "))
      append(attribute.name, to: &out)
      // An empty value is written as the bare name, as for a boolean attribute.
      if let value = last.value, !value.isEmpty {
        out.append(UInt8(ascii: "="))
        out.append(UInt8(ascii: "\""))
        HTMLEscaping.write(value, quotes: true, into: &out)
        out.append(UInt8(ascii: "\""))
      }
    }
  }
}

/// One HTML attribute, built only through the typed constructors below, so a misspelt
/// attribute name does not compile. Values are escaped when the page is written (`HTMLNode`).
struct Attr: Sendable {
  let name: String
  /// `nil` renders a boolean attribute (`required`, `checked`).
  let value: String?

  fileprivate init(_ name: String, _ value: String?) {
    self.name = name
    self.value = value
  }

  static func `class`(_ value: String) -> Attr { Attr("class", value) }
  static func id(_ value: String) -> Attr { Attr("id", value) }
  static func href(_ value: String) -> Attr { Attr("href", value) }
  static func name(_ value: String) -> Attr { Attr("name", value) }
  static func type(_ value: String) -> Attr { Attr("type", value) }
  static func value(_ value: String) -> Attr { Attr("value", value) }
  /// `data-*` attributes are the app's own vocabulary between views and scripts.
  static func data(_ name: String, _ value: String) -> Attr { Attr("data-\(name)", value) }
  static func aria(_ name: ARIA, _ value: String) -> Attr { Attr("aria-\(name.rawValue)", value) }

  /// The `aria-*` attributes the views use.
  enum ARIA: String, Sendable {
    case label
    case labelledby
    case describedby
    case invalid
    case live
    case current
    case hidden
    case pressed
    case controls
    case roledescription
    case expanded
    case busy
    case modal
    case atomic
    case valuenow
    case valuemin
    case valuemax
    case valuetext
    case haspopup
    case errormessage
    case disabled
    case selected
    case checked
    case level
    case sort
  }

  static func accept(_ value: String) -> Attr { Attr("accept", value) }
  static func action(_ value: String) -> Attr { Attr("action", value) }
  static func alt(_ value: String) -> Attr { Attr("alt", value) }
  static func autocapitalize(_ value: String) -> Attr { Attr("autocapitalize", value) }
  static func autocomplete(_ value: String) -> Attr { Attr("autocomplete", value) }
  static func charset(_ value: String) -> Attr { Attr("charset", value) }
  static func cols(_ value: String) -> Attr { Attr("cols", value) }
  static func colspan(_ value: String) -> Attr { Attr("colspan", value) }
  static func content(_ value: String) -> Attr { Attr("content", value) }
  /// Open Graph names: `<meta property="og:image">`.
  static func property(_ value: String) -> Attr { Attr("property", value) }
  static func cx(_ value: String) -> Attr { Attr("cx", value) }
  static func cy(_ value: String) -> Attr { Attr("cy", value) }
  static func d(_ value: String) -> Attr { Attr("d", value) }
  static func datetime(_ value: String) -> Attr { Attr("datetime", value) }
  static func decoding(_ value: String) -> Attr { Attr("decoding", value) }
  static func dir(_ value: String) -> Attr { Attr("dir", value) }
  static func dominantBaseline(_ value: String) -> Attr { Attr("dominant-baseline", value) }
  static func download(_ value: String) -> Attr { Attr("download", value) }
  static func enctype(_ value: String) -> Attr { Attr("enctype", value) }
  static func enterkeyhint(_ value: String) -> Attr { Attr("enterkeyhint", value) }
  static func fill(_ value: String) -> Attr { Attr("fill", value) }
  static func focusable(_ value: String) -> Attr { Attr("focusable", value) }
  static func `for`(_ value: String) -> Attr { Attr("for", value) }
  static func form(_ value: String) -> Attr { Attr("form", value) }
  static func formaction(_ value: String) -> Attr { Attr("formaction", value) }
  static func height(_ value: String) -> Attr { Attr("height", value) }
  static func httpEquiv(_ value: String) -> Attr { Attr("http-equiv", value) }
  static func inputmode(_ value: String) -> Attr { Attr("inputmode", value) }
  static func label(_ value: String) -> Attr { Attr("label", value) }
  static func lang(_ value: String) -> Attr { Attr("lang", value) }
  static func list(_ value: String) -> Attr { Attr("list", value) }
  static func loading(_ value: String) -> Attr { Attr("loading", value) }
  static func max(_ value: String) -> Attr { Attr("max", value) }
  static func maxlength(_ value: String) -> Attr { Attr("maxlength", value) }
  static func media(_ value: String) -> Attr { Attr("media", value) }
  static func method(_ value: String) -> Attr { Attr("method", value) }
  static func min(_ value: String) -> Attr { Attr("min", value) }
  static func minlength(_ value: String) -> Attr { Attr("minlength", value) }
  static func offset(_ value: String) -> Attr { Attr("offset", value) }
  static func pattern(_ value: String) -> Attr { Attr("pattern", value) }
  static func placeholder(_ value: String) -> Attr { Attr("placeholder", value) }
  static func points(_ value: String) -> Attr { Attr("points", value) }
  static func preserveAspectRatio(_ value: String) -> Attr { Attr("preserveAspectRatio", value) }
  static func r(_ value: String) -> Attr { Attr("r", value) }
  static func rel(_ value: String) -> Attr { Attr("rel", value) }
  static func role(_ value: String) -> Attr { Attr("role", value) }
  static func rows(_ value: String) -> Attr { Attr("rows", value) }
  static func rowspan(_ value: String) -> Attr { Attr("rowspan", value) }
  static func rx(_ value: String) -> Attr { Attr("rx", value) }
  static func ry(_ value: String) -> Attr { Attr("ry", value) }
  static func scope(_ value: String) -> Attr { Attr("scope", value) }
  static func sizes(_ value: String) -> Attr { Attr("sizes", value) }
  static func spellcheck(_ value: String) -> Attr { Attr("spellcheck", value) }
  static func src(_ value: String) -> Attr { Attr("src", value) }
  static func step(_ value: String) -> Attr { Attr("step", value) }
  static func stopColor(_ value: String) -> Attr { Attr("stop-color", value) }
  static func stroke(_ value: String) -> Attr { Attr("stroke", value) }
  static func strokeLinejoin(_ value: String) -> Attr { Attr("stroke-linejoin", value) }
  static func strokeWidth(_ value: String) -> Attr { Attr("stroke-width", value) }
  static func style(_ value: String) -> Attr { Attr("style", value) }
  static func tabindex(_ value: String) -> Attr { Attr("tabindex", value) }
  static func target(_ value: String) -> Attr { Attr("target", value) }
  static func textAnchor(_ value: String) -> Attr { Attr("text-anchor", value) }
  static func title(_ value: String) -> Attr { Attr("title", value) }
  static func transform(_ value: String) -> Attr { Attr("transform", value) }
  static func translate(_ value: String) -> Attr { Attr("translate", value) }
  static func viewBox(_ value: String) -> Attr { Attr("viewBox", value) }
  static func width(_ value: String) -> Attr { Attr("width", value) }
  static func x(_ value: String) -> Attr { Attr("x", value) }
  static func x1(_ value: String) -> Attr { Attr("x1", value) }
  static func x2(_ value: String) -> Attr { Attr("x2", value) }
  static func xmlns(_ value: String) -> Attr { Attr("xmlns", value) }
  static func y(_ value: String) -> Attr { Attr("y", value) }
  static func y1(_ value: String) -> Attr { Attr("y1", value) }
  static func y2(_ value: String) -> Attr { Attr("y2", value) }

  static var hidden: Attr { Attr("hidden", nil) }
  static var checked: Attr { Attr("checked", nil) }
  static var required: Attr { Attr("required", nil) }
  static var selected: Attr { Attr("selected", nil) }
  static var novalidate: Attr { Attr("novalidate", nil) }
  static var disabled: Attr { Attr("disabled", nil) }
  static var autofocus: Attr { Attr("autofocus", nil) }
  static var readonly: Attr { Attr("readonly", nil) }
  static var open: Attr { Attr("open", nil) }
  static var multiple: Attr { Attr("multiple", nil) }
  static var inert: Attr { Attr("inert", nil) }
  static var reversed: Attr { Attr("reversed", nil) }
}

/// The element vocabulary of the views: one function per element, so a misspelt element does
/// not compile. Add a function here when a view needs a new element.
enum H {
  static func html(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("html", attributes, children)
  }
  static func head(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("head", attributes, children)
  }
  static func body(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("body", attributes, children)
  }
  static func header(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("header", attributes, children)
  }
  static func footer(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("footer", attributes, children)
  }
  static func main(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("main", attributes, children)
  }
  static func nav(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("nav", attributes, children)
  }
  static func article(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("article", attributes, children)
  }
  static func aside(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("aside", attributes, children)
  }
  static func strong(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("strong", attributes, children)
  }
  static func em(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("em", attributes, children)
  }
  static func small(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("small", attributes, children)
  }
  static func code(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("code", attributes, children)
  }
  static func pre(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("pre", attributes, children)
  }
  static func label(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("label", attributes, children)
  }
  static func legend(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("legend", attributes, children)
  }
  static func fieldset(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("fieldset", attributes, children)
  }
  static func form(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("form", attributes, children)
  }
  static func select(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("select", attributes, children)
  }
  static func option(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("option", attributes, children)
  }
  static func datalist(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("datalist", attributes, children)
  }
  static func textarea(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("textarea", attributes, children)
  }
  static func ul(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("ul", attributes, children)
  }
  static func ol(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("ol", attributes, children)
  }
  static func li(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("li", attributes, children)
  }
  static func dl(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("dl", attributes, children)
  }
  static func dt(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("dt", attributes, children)
  }
  static func dd(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("dd", attributes, children)
  }
  static func details(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("details", attributes, children)
  }
  static func summary(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("summary", attributes, children)
  }
  static func table(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("table", attributes, children)
  }
  static func caption(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("caption", attributes, children)
  }
  static func thead(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("thead", attributes, children)
  }
  static func tbody(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("tbody", attributes, children)
  }
  static func tr(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("tr", attributes, children)
  }
  static func th(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("th", attributes, children)
  }
  static func td(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("td", attributes, children)
  }
  static func figure(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("figure", attributes, children)
  }
  static func figcaption(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("figcaption", attributes, children)
  }
  static func time(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("time", attributes, children)
  }
  static func progress(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("progress", attributes, children)
  }
  static func canvas(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("canvas", attributes, children)
  }
  static func title(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("title", attributes, children)
  }
  static func script(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("script", attributes, children)
  }
  static func h3(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("h3", attributes, children)
  }
  static func output(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("output", attributes, children)
  }
  static func template(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("template", attributes, children)
  }
  static func noscript(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("noscript", attributes, children)
  }
  static func p(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("p", attributes, children)
  }
  static func span(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("span", attributes, children)
  }
  static func h1(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("h1", attributes, children)
  }
  static func h2(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("h2", attributes, children)
  }
  static func button(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("button", attributes, children)
  }
  static func svg(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("svg", attributes, children)
  }
  static func g(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("g", attributes, children)
  }
  static func desc(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("desc", attributes, children)
  }
  static func svgText(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("text", attributes, children)
  }
  static func tspan(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("tspan", attributes, children)
  }
  static func defs(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("defs", attributes, children)
  }
  static func linearGradient(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("linearGradient", attributes, children)
  }
  static func stop(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("stop", attributes, children)
  }
  static func input(_ attributes: [Attr] = []) -> HTMLNode { voidElement("input", attributes) }
  static func img(_ attributes: [Attr] = []) -> HTMLNode { voidElement("img", attributes) }
  static func meta(_ attributes: [Attr] = []) -> HTMLNode { voidElement("meta", attributes) }
  static func link(_ attributes: [Attr] = []) -> HTMLNode { voidElement("link", attributes) }
  static func br(_ attributes: [Attr] = []) -> HTMLNode { voidElement("br", attributes) }
  static func wbr() -> HTMLNode { voidElement("wbr", []) }
  /// An email address that a narrow column breaks where a reader expects, before the `@` and
  /// before each `.` of the domain, instead of in the middle of a word. (A part longer than the
  /// column still breaks anywhere: `overflow-wrap` where it is shown.)
  static func email(_ address: String) -> [HTMLNode] {
    guard let at = address.firstIndex(of: "@") else { return [text(address)] }
    var nodes: [HTMLNode] = [text(String(address[..<at])), wbr()]
    let domain = address[at...].split(separator: ".", omittingEmptySubsequences: false)
    for (index, part) in domain.enumerated() {
      if index > 0 { nodes.append(wbr()) }
      nodes.append(text((index > 0 ? "." : "") + part))
    }
    return nodes
  }
  static func hr(_ attributes: [Attr] = []) -> HTMLNode { voidElement("hr", attributes) }
  static func rect(_ attributes: [Attr] = []) -> HTMLNode { voidElement("rect", attributes) }
  static func circle(_ attributes: [Attr] = []) -> HTMLNode { voidElement("circle", attributes) }
  /// A circle with content, such as a `<title>` a pointer shows.
  static func circle(_ attributes: [Attr], _ children: [HTMLNode]) -> HTMLNode {
    element("circle", attributes, children)
  }
  static func line(_ attributes: [Attr] = []) -> HTMLNode { voidElement("line", attributes) }
  static func path(_ attributes: [Attr] = []) -> HTMLNode { voidElement("path", attributes) }
  static func polyline(_ attributes: [Attr] = []) -> HTMLNode {
    voidElement("polyline", attributes)
  }
  static func polygon(_ attributes: [Attr] = []) -> HTMLNode { voidElement("polygon", attributes) }
  static func source(_ attributes: [Attr] = []) -> HTMLNode { voidElement("source", attributes) }

  static func text(_ string: String) -> HTMLNode { .text(string) }
  static func group(_ nodes: [HTMLNode]) -> HTMLNode { .group(nodes) }
  static var empty: HTMLNode { .group([]) }

  static func div(_ attributes: [Attr] = [], _ children: [HTMLNode] = []) -> HTMLNode {
    element("div", attributes, children)
  }
  static func section(_ attributes: [Attr] = [], _ children: [HTMLNode]) -> HTMLNode {
    element("section", attributes, children)
  }
  static func p(_ attributes: [Attr] = [], _ text: String) -> HTMLNode {
    element("p", attributes, [self.text(text)])
  }
  static func a(_ href: String, _ attributes: [Attr] = [], _ children: [HTMLNode]) -> HTMLNode {
    element("a", [.href(href)] + attributes, children)
  }
  static func a(_ href: String, _ attributes: [Attr] = [], text: String) -> HTMLNode {
    a(href, attributes, [self.text(text)])
  }
  static func h1(_ text: String, _ attributes: [Attr] = []) -> HTMLNode {
    element("h1", attributes, [self.text(text)])
  }
  static func h2(_ text: String, _ attributes: [Attr] = []) -> HTMLNode {
    element("h2", attributes, [self.text(text)])
  }
  static func span(_ attributes: [Attr] = [], _ text: String) -> HTMLNode {
    element("span", attributes, [self.text(text)])
  }
  /// A button with a label; a submit button unless `attributes` set another type.
  static func button(_ text: String, _ attributes: [Attr] = []) -> HTMLNode {
    element(
      "button",
      attributes.contains { $0.name == "type" } ? attributes : [.type("submit")] + attributes,
      [self.text(text)])
  }
  /// A `<ul>` with each node in an `<li>` of its own.
  static func itemList(_ attributes: [Attr] = [], _ items: [HTMLNode]) -> HTMLNode {
    element("ul", attributes, items.map { element("li", [], [$0]) })
  }

  fileprivate static func element(_ name: String, _ attributes: [Attr], _ children: [HTMLNode])
    -> HTMLNode
  {
    .element(name, attributes, children)
  }

  /// Elements that have no closing tag.
  fileprivate static func voidElement(_ name: String, _ attributes: [Attr]) -> HTMLNode {
    .void(name, attributes)
  }
}
