import Foundation
import Testing

@testable import BackofficeCore

@Suite("Poster layout")
struct PosterLayoutTests {
  /// Every combination, for the checks that must hold for all of them.
  static let cases: [(PosterTemplate, PosterFormat, String)] = PosterTemplate.allCases.flatMap {
    template in
    PosterFormat.allCases.flatMap { format in
      PosterFixtures.layoutInputs.map { (template, format, $0.name) }
    }
  }

  static func input(named name: String) -> PosterInput {
    PosterFixtures.layoutInputs.first { $0.name == name }!.input
  }

  @Test(
    "the story has its own composition: the photo leads across the top, the text in one column",
    arguments: PosterTemplate.allCases, PosterFixtures.layoutInputs.map(\.name))
  func storyComposition(template: PosterTemplate, inputName: String) {
    let layout = PosterRenderer.layout(
      Self.input(named: inputName), template: template, format: .story)
    let photo = layout.photoSlot.bounds
    #expect(photo.height >= 0.4 * 1080, "photo \(photo) is too small to lead")
    #expect(photo.minY < 0.25 * 1920, "the photo starts in the top quarter")
    for group in layout.textGroups {
      #expect(group.bounds.minY >= photo.maxY, "\(group.kind) \(group.bounds) beside the photo")
      #expect(group.rotation == 0, "\(group.kind) is tilted")
    }
    let ordered = layout.textGroups.filter { $0.kind != .share }
    #expect(ordered.first?.kind == .purpose, "the purpose comes first under the photo")
  }

  @Test("text stays in the text area, readable, without overlaps", arguments: cases)
  func textFits(template: PosterTemplate, format: PosterFormat, inputName: String) {
    let layout = PosterRenderer.layout(
      Self.input(named: inputName), template: template, format: format)

    #expect(layout.canvas == PosterRect(x: 0, y: 0, width: 1080, height: Double(format.height)))
    #expect(layout.textArea.minY == Double(format.safeTop))
    #expect(layout.textArea.maxY == Double(format.height - format.safeBottom))
    #expect(layout.textGroups.contains { $0.kind == .purpose })

    for group in layout.textGroups {
      #expect(
        layout.textArea.contains(group.bounds),
        "\(group.kind) \(group.bounds) leaves \(layout.textArea)")
      for paragraph in group.paragraphs {
        #expect(layout.textArea.contains(paragraph.bounds))
        #expect(paragraph.fontSize >= 14, "\(paragraph.role) shrank to \(paragraph.fontSize)")
        #expect(!paragraph.lines.isEmpty)
        #expect(paragraph.lines.allSatisfy { !$0.isEmpty && $0 == $0.trimmed })
      }
      if let bar = group.progressBar { #expect(layout.textArea.contains(bar)) }
    }
    for (index, group) in layout.textGroups.enumerated() {
      for other in layout.textGroups.dropFirst(index + 1) {
        #expect(!group.bounds.intersects(other.bounds), "\(group.kind) overlaps \(other.kind)")
      }
    }
  }

  @Test("no purpose text is lost up to the maximum length", arguments: cases)
  func nothingCut(template: PosterTemplate, format: PosterFormat, inputName: String) throws {
    let input = Self.input(named: inputName)
    let layout = PosterRenderer.layout(input, template: template, format: format)
    let purpose = try #require(layout.textGroups.first { $0.kind == .purpose })
    let shown = purpose.paragraphs.flatMap(\.lines).joined()
    var expected = input.purpose.filter { !$0.isWhitespace }
    if expected.isEmpty { expected = PosterInput.placeholderPurpose.filter { $0 != " " } }
    #expect(shown.filter { !$0.isWhitespace } == expected)
  }

  @Test("lines break at spaces and after hyphens, never inside a word", arguments: cases)
  func wordsStayWhole(template: PosterTemplate, format: PosterFormat, inputName: String) throws {
    guard inputName != "one endless word" else { return }
    let input = Self.input(named: inputName)
    let layout = PosterRenderer.layout(input, template: template, format: format)
    let groups = layout.textGroups + (layout.share.map { [$0.text] } ?? [])
    for paragraph in groups.flatMap(\.paragraphs) {
      for (line, next) in zip(paragraph.lines, paragraph.lines.dropFirst()) {
        let pieces = line.split(separator: " ", omittingEmptySubsequences: false)
        let firstNext = next.split(separator: " ").first.map(String.init) ?? ""
        // The line ends a word of the source text, or the word continues after its hyphen.
        let joined = String(pieces.last ?? "") + firstNext
        let source = input.purpose + " " + (input.share?.callToAction ?? "")
        let wholeWord = source.split(whereSeparator: \.isWhitespace).contains {
          $0 == pieces.last ?? ""
        }
        #expect(
          wholeWord || line.hasSuffix("-") || !source.contains(joined)
            || paragraph.role != .purpose,
          "\(paragraph.role) breaks inside a word: \(line) / \(next)")
      }
      if paragraph.role == .goalValue || paragraph.role == .collected {
        #expect(paragraph.lines.contains { $0.hasSuffix("грн.") }, "\(paragraph.lines)")
        #expect(!paragraph.lines.contains { $0.hasPrefix("рн") || $0.hasSuffix(" г") })
        // The amount and its currency share one line.
        let amountLine = try #require(paragraph.lines.last)
        #expect(amountLine.contains { $0.isNumber }, "\(paragraph.lines)")
      }
    }
  }

  @Test("the QR card sits at the bottom of the text area, apart from every text", arguments: cases)
  func shareBlock(template: PosterTemplate, format: PosterFormat, inputName: String) throws {
    let input = Self.input(named: inputName)
    let layout = PosterRenderer.layout(input, template: template, format: format)
    guard let share = input.share else {
      #expect(layout.share == nil)
      return
    }
    let block = try #require(layout.share)
    #expect(layout.textArea.contains(block.card), "\(block.card) leaves \(layout.textArea)")
    for group in layout.textGroups {
      #expect(!group.bounds.intersects(block.card), "\(group.kind) \(group.bounds) under the card")
    }
    // The quiet zone (4 modules) is card on every side of the symbol.
    let quiet = Double(4 * block.moduleSize)
    #expect(block.moduleSize >= 3)
    #expect(block.symbol.minX - quiet >= block.card.minX - 0.01)
    #expect(block.symbol.minY - quiet >= block.card.minY - 0.01)
    #expect(block.symbol.maxY + quiet <= block.card.maxY + 0.01)
    #expect(block.symbol.width == Double(block.code.size * block.moduleSize))
    #expect(try block.code == QRCode(share.link))
    // The call to action and the link sit on the card, right of the quiet zone, whole.
    #expect(block.card.contains(block.text.bounds))
    #expect(block.text.bounds.minX >= block.symbol.maxX + quiet - 0.01)
    let lines = block.text.paragraphs.map { $0.lines.joined(separator: " ") }
    #expect(lines == [share.callToAction, share.linkText] || lines.joined() != "")
    #expect(block.text.paragraphs.first?.lines.joined() == share.callToAction)
    #expect(block.text.paragraphs.last?.lines.joined() == share.linkText)
    #expect(block.text.paragraphs.allSatisfy { $0.fontSize >= 14 })
  }

  @Test("the poster draws the QR code's modules and the short link")
  func shareDrawn() throws {
    let share = PosterShare(
      link: "https://send.monobank.ua/jar/8Xd9vZqKpL", callToAction: "Долучайся!")
    let input = PosterInput(purpose: "Дрони", share: share)
    let svg = PosterRenderer.render(input, template: .angularYellowBlue, format: .story)
    let block = try #require(
      PosterRenderer.layout(input, template: .angularYellowBlue, format: .story).share)
    let path = block.code.svgPath(
      moduleSize: block.moduleSize, originX: Int(block.symbol.x), originY: Int(block.symbol.y))
    #expect(svg.contains("d=\"\(path)\""))
    #expect(svg.contains(">send.monobank.ua/jar/8Xd9vZqKpL</tspan>"))
    #expect(svg.contains(">Долучайся!</tspan>"))
    #expect(
      !PosterRenderer.render(
        PosterInput(purpose: "Дрони"), template: .angularYellowBlue, format: .story
      ).contains("crispEdges"))
  }

  @Test("photo slot sits on the canvas", arguments: PosterTemplate.allCases, PosterFormat.allCases)
  func photoSlot(template: PosterTemplate, format: PosterFormat) {
    for (_, input) in PosterFixtures.layoutInputs {
      let slot = PosterRenderer.layout(input, template: template, format: format).photoSlot
      let canvas = PosterRect(x: 0, y: 0, width: 1080, height: Double(format.height))
      #expect(canvas.contains(slot.bounds), "\(slot.bounds)")
      #expect(slot.frame.width >= 0.25 * 1080 && slot.frame.height >= 0.25 * 1080)
      #expect(slot.offsetUnit == max(slot.frame.width, slot.frame.height) / 300)
    }
  }

  @Test("long purposes wrap and shrink", arguments: PosterTemplate.allCases, PosterFormat.allCases)
  func longPurposesShrink(template: PosterTemplate, format: PosterFormat) throws {
    func purpose(_ text: String) throws -> PosterParagraph {
      let layout = PosterRenderer.layout(
        PosterInput(purpose: text, goal: 15000), template: template, format: format)
      return try #require(layout.textGroups.first { $0.kind == .purpose }?.paragraphs.first)
    }
    let short = try purpose("Дрони")
    let long = try purpose(String(PosterFixtures.longPurpose))
    #expect(short.lines == ["Дрони"])
    #expect(long.lines.count > 1)
    #expect(long.fontSize < short.fontSize)
  }

  @Test("a hyphenated word breaks after its hyphen, a short purpose grows")
  func hyphenAndGrowth() throws {
    let text = PreparedText("розвідник-кулеметник")
    #expect(text.paragraphs[0].map(\.text) == ["розвідник-", "кулеметник"])
    #expect(text.paragraphs[0].map(\.glued) == [false, true])
    #expect(PreparedText("-5 та -- і FPV- дрони").paragraphs[0].allSatisfy { !$0.glued })
    let style = TextStyle(fontSize: 40, minFontSize: 20, maxLines: 3)
    let narrow =
      max(PosterFont.units("розвідник-"), PosterFont.units("кулеметник")) * 40
      / PosterFont.unitsPerEm + 1
    let fit = TextFitter.fit(text, style: style, maxWidth: narrow, maxHeight: 1000)
    #expect(fit.lines == ["розвідник-", "кулеметник"])
    #expect(fit.fontSize == 40)
    let wide = TextFitter.fit(text, style: style, maxWidth: 2000, maxHeight: 1000)
    #expect(wide.lines == ["розвідник-кулеметник"])

    var growing = style
    growing.maxFontSize = 60
    let short = TextFitter.fit(PreparedText("Дрони"), style: growing, maxWidth: 900, maxHeight: 500)
    #expect(short.fontSize == 60)
    // Growing never adds a line: this one fills a line at 40 px already.
    let perLine = Int(900 / (PosterFont.units("ш") * 40 / PosterFont.unitsPerEm))
    let oneLine = String(repeating: "ш", count: perLine - 1)
    let full = TextFitter.fit(PreparedText(oneLine), style: growing, maxWidth: 900, maxHeight: 500)
    #expect(full.lines.count == 1)
    #expect(full.fontSize < 44)
  }

  @Test("an amount with its currency is never split, however narrow")
  func amountsStayWhole() {
    let amount = PreparedText("999\u{00A0}999\u{00A0}999\u{00A0}999\u{00A0}999\u{00A0}грн.")
    var style = TextStyle(fontSize: 80, minFontSize: 48, maxLines: 1)
    style.keepsWords = true
    let fit = TextFitter.fit(amount, style: style, maxWidth: 300, maxHeight: 200)
    #expect(fit.lines.count == 1)
    #expect(fit.width <= 300)
  }

  @Test("an over-long word is broken rather than overflowing")
  func longWord() throws {
    let word = String(repeating: "Ш", count: 80)
    let layout = PosterRenderer.layout(
      PosterInput(purpose: word), template: .blueLinear, format: .post)
    let paragraph = try #require(layout.textGroups.first?.paragraphs.first)
    #expect(paragraph.lines.count > 1)
    #expect(paragraph.lines.joined() == word)
    #expect(paragraph.bounds.width <= 1080 - 2 * 0.08 * 1080 + 0.01)
  }

  @Test("explicit line breaks are kept, other white space collapses")
  func lineBreaks() throws {
    let layout = PosterRenderer.layout(
      PosterInput(purpose: "  Перший\n\n\nДругий   рядок\t "), template: .linearGreen,
      format: .story)
    let paragraph = try #require(layout.textGroups.first?.paragraphs.first)
    #expect(paragraph.lines == ["Перший", "Другий рядок"])
  }

  @Test("goal wording per template", arguments: PosterTemplate.allCases)
  func goalWording(template: PosterTemplate) throws {
    let nbsp = PosterFixtures.nbsp
    let layout = PosterRenderer.layout(
      PosterInput(purpose: "Мета", goal: PosterFixtures.decimal("15000")), template: template,
      format: .post)
    let goal = try #require(layout.textGroups.first { $0.kind == .goal })
    let texts = goal.paragraphs.map { ($0.role, $0.lines.joined(separator: " ")) }
    switch template {
    case .linearPurple:
      #expect(texts.map(\.1) == ["Ціль: 15\(nbsp)000\(nbsp)грн."])
    case .linearSilverBlue:
      #expect(texts.map(\.1) == ["Збір на 15\(nbsp)000\(nbsp)грн."])
    default:
      #expect(texts.map(\.0) == [.goalLabel, .goalValue])
      #expect(texts.map(\.1) == ["ціль збору:", "15\(nbsp)000\(nbsp)грн."])
    }
    #expect(goal.progressBar == nil)
  }

  @Test("no goal and no progress: no goal block", arguments: PosterTemplate.allCases)
  func noGoal(template: PosterTemplate) {
    let layout = PosterRenderer.layout(
      PosterInput(purpose: "Мета"), template: template, format: .portrait)
    #expect(layout.textGroups.map(\.kind) == [.purpose])
  }

  @Test("progress adds the collected amount and a bar", arguments: PosterTemplate.allCases)
  func progress(template: PosterTemplate) throws {
    let nbsp = PosterFixtures.nbsp
    let layout = PosterRenderer.layout(
      PosterInput(
        purpose: "Мета", goal: 20000,
        progress: PosterProgress(collected: PosterFixtures.decimal("7500.5"), fraction: 0.375)),
      template: template, format: .post)
    let goal = try #require(layout.textGroups.first { $0.kind == .goal })
    let collected = try #require(goal.paragraphs.last)
    #expect(collected.role == .collected)
    #expect(collected.lines == ["Зібрано: 7\(nbsp)500,50\(nbsp)грн."])
    let bar = try #require(goal.progressBar)
    #expect(bar.minY >= collected.bounds.maxY)
    #expect(bar.width >= 0.3 * 1080 - 0.01)
  }

  @Test("empty and blank purposes show the placeholder", arguments: ["", "   ", "\n\t"])
  func placeholder(purpose: String) throws {
    for template in PosterTemplate.allCases {
      let layout = PosterRenderer.layout(
        PosterInput(purpose: purpose), template: template, format: .post)
      let paragraph = try #require(layout.textGroups.first?.paragraphs.first)
      #expect(paragraph.lines.joined(separator: " ") == "Текст текст")
    }
  }

  @Test("text fitting: preferred size when it fits, smaller when not, never wider than asked")
  func fitter() {
    let style = TextStyle(fontSize: 60, minFontSize: 36, maxLines: 2)
    let short = TextFitter.fit(
      PreparedText("Два слова"), style: style, maxWidth: 800, maxHeight: 500)
    #expect(short.fontSize == 60)
    #expect(short.lines == ["Два слова"])

    let text = PreparedText("Збираємо кошти на ремонт автомобіля для підрозділу на сході")
    let fitted = TextFitter.fit(text, style: style, maxWidth: 600, maxHeight: 500)
    #expect(fitted.fontSize < 60)
    #expect(fitted.width <= 600)
    #expect(fitted.lines.count <= 2 || fitted.fontSize <= 36)

    let tight = TextFitter.fit(text, style: style, maxWidth: 300, maxHeight: 90)
    #expect(tight.height <= 90)
    #expect(tight.width <= 300)
  }

  @Test("measuring uses the font's advance widths")
  func measuring() {
    // Roboto Bold: "0" is 1175 units of 2048; no-break space as wide as a space.
    #expect(PosterFont.units("0") == 1175)
    #expect(PosterFont.units("\u{00A0}") == PosterFont.units(" "))
    #expect(PosterFont.width("00", fontSize: 2048) == 2350)
    #expect(PosterFont.units("ґєії") > 0)
    #expect(PosterFont.units("\u{0301}") == 0)  // combining accent takes no room
  }
}

extension String {
  fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
