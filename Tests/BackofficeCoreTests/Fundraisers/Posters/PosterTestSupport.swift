import Foundation
import Testing

@testable import BackofficeCore

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Inputs shared by the poster tests.
enum PosterFixtures {
  static let nbsp = "\u{00A0}"

  static func decimal(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0
  }

  /// The input every snapshot is rendered with.
  static let snapshotInput = PosterInput(
    purpose: "Збираємо на FPV-дрони для 93 ОМБр «Холодний Яр»",
    goal: decimal("150000"),
    photo: PosterPhoto(href: "/fundraisers/42/photo", scale: 1.25, offsetX: 12, offsetY: -8),
    progress: PosterProgress(collected: decimal("87345.5"), fraction: 0.58),
    share: PosterShare(
      link: "https://send.monobank.ua/jar/8Xd9vZqKpL", callToAction: "Долучайся!"))

  /// As long as a purpose may be (500 characters), with hyphenated words.
  static let longPurpose = String(
    repeating: "Збираємо на FPV-дрони та РЕБ для розвідник-кулеметник 93 ОМБр «Холодний Яр» ",
    count: 8
  ).prefix(CampaignDraft.purposeMaxLength).trimmingCharacters(in: .whitespaces)

  /// The QR block of a jar with the longest id a jar link may have.
  static let share = PosterShare(
    link: "https://send.monobank.ua/jar/" + String(repeating: "Z", count: 40),
    callToAction: "Долучайся!")

  /// A spread of awkward inputs for the layout checks.
  static let layoutInputs: [(name: String, input: PosterInput)] = {
    let photo = PosterPhoto(href: "data:image/png;base64,iVBORw0KGgo=")
    let progress = PosterProgress(collected: decimal("1234567.89"), fraction: 0.4)
    return [
      ("short", PosterInput(purpose: "Дрони", goal: decimal("15000"), photo: photo)),
      ("snapshot", snapshotInput),
      (
        "long with everything",
        PosterInput(
          purpose: longPurpose, goal: decimal("999999999999.99"), photo: photo,
          progress: progress)
      ),
      ("long, nothing else", PosterInput(purpose: longPurpose)),
      (
        "one endless word",
        PosterInput(
          purpose: String(repeating: "Ґ", count: 120), goal: decimal("5000"), progress: progress)
      ),
      (
        "many short lines",
        PosterInput(
          purpose: (1...12).map { "Рядок \($0)" }.joined(separator: "\n"), goal: decimal("1"))
      ),
      ("progress only", PosterInput(purpose: "На авто", progress: progress)),
      ("blank", PosterInput(purpose: "  \n\t ")),
      (
        "long with QR",
        PosterInput(
          purpose: longPurpose, goal: decimal("999999999999999"), photo: photo,
          progress: progress, share: share)
      ),
      (
        "short with QR and a long call",
        PosterInput(
          purpose: "Дрони", goal: decimal("15000"), photo: photo,
          share: PosterShare(
            link: "https://send.monobank.ua/jar/8Xd9vZqKpL",
            callToAction: String(repeating: "Ш", count: CampaignDraft.callToActionMaxLength)))
      ),
    ]
  }()
}

/// Whether `text` parses as XML; the parser's error when it does not.
func xmlParseError(_ text: String) -> String? {
  let parser = XMLParser(data: Data(text.utf8))
  let ok = parser.parse()
  return ok ? nil : (parser.parserError.map { "\($0)" } ?? "unknown XML error")
}

/// Collects element names and text, to look inside rendered SVG without string matching.
final class SVGCollector: NSObject, XMLParserDelegate {
  var elements: [(name: String, attributes: [String: String])] = []
  var texts: [String] = []
  private var currentText: String?

  static func parse(_ svg: String) -> SVGCollector {
    let collector = SVGCollector()
    let parser = XMLParser(data: Data(svg.utf8))
    parser.delegate = collector
    _ = parser.parse()
    return collector
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
  ) {
    elements.append((elementName, attributeDict))
    if elementName == "tspan" { currentText = "" }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    currentText? += string
  }

  func parser(
    _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
    qualifiedName qName: String?
  ) {
    if elementName == "tspan", let text = currentText {
      texts.append(text)
      currentText = nil
    }
  }

  func first(_ name: String) -> [String: String]? {
    elements.first { $0.name == name }?.attributes
  }
}
