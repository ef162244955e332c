import Foundation
import Testing

@testable import BackofficeCore

/// Inputs for the report poster tests.
enum ReportFixtures {
  static let nbsp = "\u{00A0}"
  static let link = "https://example.org/f/abc123"

  static func decimal(_ text: String) -> Decimal { PosterFixtures.decimal(text) }

  /// Ukrainian words with a hyphenated one and punctuation, cut to `length` characters.
  static func text(_ length: Int) -> String {
    let source = String(
      repeating: "Тепловізор Mavic 3T, FPV-дрони та РЕБ для 93 ОМБр «Холодний Яр»; ",
      count: length / 60 + 1)
    return String(source.prefix(length)).trimmingCharacters(in: .whitespaces)
  }

  static let lengths = [0, 1, 40, 200, 10_000]

  static func purchases(_ count: Int, titleLength: Int) -> [ReportPurchase] {
    (0..<count).map { index in
      ReportPurchase(
        title: text(titleLength),
        amount: index == 0 ? decimal("999999999999.99") : decimal("\(1234 + 517 * index).5"))
    }
  }

  /// Every length for the purpose and the titles, with few, five and many purchases.
  static let inputs: [(name: String, input: ReportPosterInput)] = {
    var result: [(String, ReportPosterInput)] = []
    for length in lengths {
      for count in [0, 5, 12] {
        result.append(
          (
            "purpose \(length), \(count) purchases of \(length)",
            ReportPosterInput(
              purpose: text(length), raised: decimal("52300"), spent: decimal("48120.5"),
              purchases: purchases(count, titleLength: length), link: link)
          ))
      }
    }
    result.append(
      (
        "huge amounts, long link, one purchase",
        ReportPosterInput(
          purpose: text(200), raised: decimal("999999999999.99"),
          spent: decimal("999999999999.99"), purchases: purchases(1, titleLength: 40),
          link: "https://example.org/f/" + String(repeating: "z", count: 120),
          callToAction: String(repeating: "Дякуємо ", count: 20))
      ))
    return result
  }()

  /// One word of 10 000 letters everywhere: the only case where a word may be cut.
  static let endlessWord = ReportPosterInput(
    purpose: String(repeating: "Ґ", count: 10_000), raised: 1, spent: 1,
    purchases: (1...7).map {
      ReportPurchase(title: String(repeating: "Ж", count: 10_000), amount: Decimal($0))
    },
    link: link)

  static let hostile = ReportPosterInput(
    purpose:
      "<script>alert('x')</script> & \"лапки\" \u{202E}עברית\u{202C} 🇺🇦👍🏽 \u{0}\u{7}\u{1B}\u{FFFE}]]>",
    raised: 100, spent: 50,
    purchases: [
      ReportPurchase(title: "</text><g onload=\"x\">", amount: 10),
      ReportPurchase(title: "A & B 'quoted' \u{8}\u{FFFF}", amount: 5),
      ReportPurchase(title: "مرحبا بالعالم 😀", amount: 1),
    ],
    link: "https://example.org/f/abc?x=1&y=<2>", callToAction: "Звіт & <чеки>")

  static let cases: [(PosterTemplate, PosterFormat, String)] = PosterTemplate.allCases.flatMap {
    template in
    PosterFormat.allCases.flatMap { format in inputs.map { (template, format, $0.name) } }
  }

  static func input(named name: String) -> ReportPosterInput {
    inputs.first { $0.name == name }!.input
  }
}

@Suite("Report poster")
struct ReportPosterTests {
  static let combinations: [(PosterTemplate, PosterFormat)] = PosterTemplate.allCases.flatMap {
    template in PosterFormat.allCases.map { (template, $0) }
  }

  @Test(
    "text stays in the text area, apart from the QR card and from each other",
    arguments: ReportFixtures.cases)
  func textFits(template: PosterTemplate, format: PosterFormat, inputName: String) throws {
    let input = ReportFixtures.input(named: inputName)
    let layout = ReportPosterRenderer.layout(input, template: template, format: format)
    let card = try #require(layout.share?.card)
    #expect(layout.textArea.contains(card))
    #expect(layout.textGroups.map(\.kind).prefix(2) == [.headline, .totals])
    #expect(layout.textGroups.contains { $0.kind == .purchases } == !input.purchases.isEmpty)
    for group in layout.textGroups {
      #expect(
        layout.textArea.contains(group.bounds),
        "\(group.kind) \(group.bounds) leaves \(layout.textArea)")
      #expect(!group.bounds.intersects(card), "\(group.kind) \(group.bounds) under the card")
      for paragraph in group.paragraphs {
        #expect(group.bounds.contains(paragraph.bounds))
        #expect(paragraph.fontSize >= 14, "\(paragraph.role) shrank to \(paragraph.fontSize)")
        #expect(!paragraph.lines.isEmpty)
        #expect(paragraph.lines.allSatisfy { !$0.isEmpty && $0 == $0.trimmed })
      }
    }
    for (index, group) in layout.textGroups.enumerated() {
      for other in layout.textGroups.dropFirst(index + 1) {
        #expect(!group.bounds.intersects(other.bounds), "\(group.kind) overlaps \(other.kind)")
      }
    }
    // The headline is the largest type.
    let headline = try #require(layout.textGroups.first?.paragraphs.first)
    #expect(headline.role == .headline)
    #expect(headline.lines.joined(separator: " ") == "Зібрали! Дякуємо")
    let others = layout.textGroups.flatMap(\.paragraphs).dropFirst()
    #expect(others.allSatisfy { $0.fontSize < headline.fontSize })
  }

  @Test(
    "lines break between words; a shortened text ends in \"…\" after a whole word",
    arguments: ReportFixtures.cases)
  func wordsStayWhole(template: PosterTemplate, format: PosterFormat, inputName: String) {
    let input = ReportFixtures.input(named: inputName)
    let layout = ReportPosterRenderer.layout(input, template: template, format: format)
    // The fixtures cut their text anywhere, so the last word of each may be a piece.
    let words = Set(
      ReportFixtures.lengths.flatMap { ReportFixtures.text($0).split(separator: " ") }.map(
        String.init) + [ReportPosterContent.untitledPurchase])
    let stems = Set(words.map { String($0.reversed().drop { ",.;:-–—".contains($0) }.reversed()) })
    for paragraph in layout.textGroups.flatMap(\.paragraphs)
    where [.purpose, .purchase].contains(paragraph.role) {
      // A line ending in a hyphen continues the word on the next line.
      var tokens: [String] = []
      for line in paragraph.lines {
        let pieces = line.split(separator: " ").map(String.init)
        if let last = tokens.last, last.hasSuffix("-"), let first = pieces.first {
          tokens[tokens.count - 1] = last + first
          tokens += pieces.dropFirst()
        } else {
          tokens += pieces
        }
      }
      for (index, token) in tokens.enumerated() {
        if paragraph.role == .purchase, index == tokens.count - 1 {
          #expect(token.hasPrefix("—\u{00A0}") && token.hasSuffix("грн."), "\(token)")
          continue
        }
        if token.hasSuffix("…") {
          #expect(
            index == tokens.count - (paragraph.role == .purchase ? 2 : 1),
            "an ellipsis only ends the text: \(paragraph.lines)")
          #expect(stems.contains(String(token.dropLast())), "cut inside a word: \(token)")
        } else {
          #expect(words.contains(token), "\(paragraph.role) splits a word: \(paragraph.lines)")
        }
      }
    }
  }

  @Test(
    "amounts are whole, on one line with \"грн.\", and each purchase takes one or two lines",
    arguments: ReportFixtures.cases)
  func amountsWhole(template: PosterTemplate, format: PosterFormat, inputName: String) throws {
    let input = ReportFixtures.input(named: inputName)
    let layout = ReportPosterRenderer.layout(input, template: template, format: format)
    let nbsp = ReportFixtures.nbsp
    let totals = try #require(layout.textGroups.first { $0.kind == .totals })
    let raised = Hryvnia.formatNumber(input.raised) + nbsp + "грн."
    let spent = Hryvnia.formatNumber(input.spent) + nbsp + "грн."
    #expect(totals.paragraphs.map(\.role) == [.collected, .spent])
    #expect(totals.paragraphs[0].lines.joined(separator: " ") == "Зібрано: " + raised)
    #expect(totals.paragraphs[1].lines.joined(separator: " ") == "Витрачено: " + spent)
    #expect(totals.paragraphs[0].lines.last?.hasSuffix(raised) == true)
    #expect(totals.paragraphs[1].lines.last?.hasSuffix(spent) == true)

    let shown = ReportPosterRenderer.shownPurchases(input.purchases)
    let list = layout.textGroups.first { $0.kind == .purchases }
    let items = list?.paragraphs.filter { $0.role == .purchase } ?? []
    #expect(items.count == shown.count)
    for (item, purchase) in zip(items, shown) {
      #expect((1...2).contains(item.lines.count), "\(item.lines)")
      let amount = "—" + nbsp + Hryvnia.formatNumber(purchase.amount) + nbsp + "грн."
      #expect(item.lines.last?.hasSuffix(amount) == true, "\(item.lines)")
    }
    let hidden = input.purchases.count - shown.count
    let more = list?.paragraphs.last { $0.role == .morePurchases }
    #expect(more?.lines == (hidden > 0 ? ["і ще \(hidden) покупок"] : nil))
  }

  @Test(
    "a text too long for its lines is shortened, one that fits is shown whole",
    arguments: ReportFixtures.lengths)
  func shortening(length: Int) throws {
    let input = ReportPosterInput(
      purpose: ReportFixtures.text(length), raised: 1, spent: 1,
      purchases: [ReportPurchase(title: ReportFixtures.text(length), amount: 7)],
      link: ReportFixtures.link)
    let layout = ReportPosterRenderer.layout(input, template: .blueLinear, format: .post)
    let paragraphs = layout.textGroups.flatMap(\.paragraphs)
    let purpose = paragraphs.first { $0.role == .purpose }
    let purchase = try #require(paragraphs.first { $0.role == .purchase })
    let title = purchase.lines.joined(separator: " ")
    switch length {
    case 0:
      #expect(purpose == nil)
      #expect(title == "Покупка —\u{00A0}7\u{00A0}грн.")
    case 1, 40:
      #expect(purpose?.lines.joined(separator: " ") == ReportFixtures.text(length))
      #expect(title == ReportFixtures.text(length) + " —\u{00A0}7\u{00A0}грн.")
    default:
      #expect(purpose?.lines.last?.hasSuffix("…") == true)
      #expect((purpose?.lines.count ?? 0) <= 3)
      #expect(title.contains("… —\u{00A0}7\u{00A0}грн."))
    }
  }

  @Test("a word longer than a line is cut between letters, still inside the area")
  func endlessWord() throws {
    for (template, format) in Self.combinations {
      let layout = ReportPosterRenderer.layout(
        ReportFixtures.endlessWord, template: template, format: format)
      let card = try #require(layout.share?.card)
      for group in layout.textGroups {
        #expect(layout.textArea.contains(group.bounds))
        #expect(!group.bounds.intersects(card))
      }
      let paragraphs = layout.textGroups.flatMap(\.paragraphs)
      let purpose = try #require(paragraphs.first { $0.role == .purpose })
      #expect(purpose.lines.count == 1)
      #expect(purpose.lines[0].hasSuffix("Ґ…"))
      for item in paragraphs where item.role == .purchase {
        #expect(item.lines.count <= 2)
        #expect(item.lines.joined(separator: " ").hasPrefix("ЖЖЖ"))
        #expect(item.lines.last?.hasSuffix("грн.") == true)
      }
    }
  }

  @Test("every text keeps 4.5:1 against what is under it", arguments: PosterTemplate.allCases)
  func contrast(template: PosterTemplate) {
    for format in PosterFormat.allCases {
      for (name, input) in ReportFixtures.inputs {
        let layout = ReportPosterRenderer.layout(input, template: template, format: format)
        let measured = PosterContrast.lowest(in: layout)
        // Nothing is left out as if it lay on a photo.
        #expect(measured.count == layout.textGroups.flatMap(\.paragraphs).count)
        for item in measured {
          #expect(
            item.ratio >= PosterContrast.minimumRatio,
            "\(format) \(name): \(item.group) \(item.role) at \((item.ratio * 100).rounded() / 100):1"
          )
        }
      }
    }
  }

  @Test("the background is the campaign poster's", arguments: PosterTemplate.allCases)
  func background(template: PosterTemplate) throws {
    for format in PosterFormat.allCases {
      let report = ReportPosterRenderer.layout(
        ReportFixtures.inputs[4].input, template: template, format: format)
      let campaign = PosterRenderer.layout(
        PosterInput(
          purpose: "Дрони", goal: 1,
          share: PosterShare(link: ReportFixtures.link, callToAction: "Звіт і чеки")),
        template: template, format: format)
      for x in stride(from: 0.0, through: 1080, by: 270) {
        for y in stride(from: 0.0, through: Double(format.height), by: 270) {
          let point = PosterPoint(x: x, y: y)
          #expect(
            PosterContrast.color(of: report.background, at: point)
              == PosterContrast.color(of: campaign.background, at: point))
        }
      }
      let svg = ReportPosterRenderer.render(
        ReportFixtures.inputs[4].input, template: template, format: format,
        options: PosterRenderOptions(embedFont: false))
      #expect(!svg.contains("clip-path"), "a report poster draws no photo slot")
    }
  }

  @Test("the QR card encodes exactly the report link", arguments: combinations)
  func qrCode(template: PosterTemplate, format: PosterFormat) throws {
    let input = ReportFixtures.inputs[7].input
    let svg = ReportPosterRenderer.render(input, template: template, format: format)
    let block = try #require(
      ReportPosterRenderer.layout(input, template: template, format: format).share)
    #expect(block.code == (try QRCode(ReportFixtures.link)))
    let path = block.code.svgPath(
      moduleSize: block.moduleSize, originX: Int(block.symbol.x), originY: Int(block.symbol.y))
    #expect(svg.contains("d=\"\(path)\""))
    #expect(svg.contains(">example.org/f/abc123</tspan>"))
    #expect(svg.contains(">Звіт і чеки</tspan>"))
  }

  @Test("the call to action: the volunteer's own, or the default; no link, no card")
  func callToAction() throws {
    var input = ReportFixtures.inputs[1].input
    input.callToAction = "  Дивіться звіт  "
    let layout = ReportPosterRenderer.layout(input, template: .linearGreen, format: .portrait)
    #expect(layout.share?.text.paragraphs.first?.lines == ["Дивіться звіт"])
    input.link = " "
    let bare = ReportPosterRenderer.layout(input, template: .linearGreen, format: .portrait)
    #expect(bare.share == nil)
    #expect(
      !ReportPosterRenderer.render(input, template: .linearGreen, format: .post)
        .contains("crispEdges"))
  }

  @Test("the five largest purchases, largest first, equal amounts in input order")
  func shownPurchases() {
    let amounts = ["10", "50", "20", "50", "5", "70", "20", "1", "NaN"]
    let purchases = amounts.enumerated().map {
      ReportPurchase(title: "p\($0.offset)", amount: ReportFixtures.decimal($0.element))
    }
    let shown = ReportPosterRenderer.shownPurchases(purchases)
    #expect(shown.map(\.title) == ["p5", "p1", "p3", "p2", "p6"])
    #expect(
      ReportPosterRenderer.shownPurchases(Array(purchases.prefix(3))).map(\.title) == [
        "p1", "p2", "p0",
      ])
    #expect(ReportPosterRenderer.shownPurchases([]).isEmpty)
    let same = (0..<8).map { ReportPurchase(title: "s\($0)", amount: 3) }
    #expect(
      ReportPosterRenderer.shownPurchases(same).map(\.title) == ["s0", "s1", "s2", "s3", "s4"])

    let layout = ReportPosterRenderer.layout(
      ReportPosterInput(
        purpose: "", raised: 1, spent: 1, purchases: purchases, link: ReportFixtures.link),
      template: .pinkAngular, format: .story)
    let list = layout.textGroups.first { $0.kind == .purchases }?.paragraphs ?? []
    #expect(
      list.map { $0.lines.joined(separator: " ") } == [
        "p5 —\u{00A0}70\u{00A0}грн.", "p1 —\u{00A0}50\u{00A0}грн.", "p3 —\u{00A0}50\u{00A0}грн.",
        "p2 —\u{00A0}20\u{00A0}грн.", "p6 —\u{00A0}20\u{00A0}грн.", "і ще 4 покупки",
      ])
  }

  @Test(
    "\"і ще N покупок\" in the right form",
    arguments: [
      (1, "покупка"), (2, "покупки"), (4, "покупки"), (5, "покупок"), (11, "покупок"),
      (12, "покупок"), (14, "покупок"), (21, "покупка"), (22, "покупки"), (25, "покупок"),
      (111, "покупок"), (101, "покупка"), (1_000, "покупок"),
    ])
  func plural(count: Int, word: String) {
    #expect(ReportPosterContent.purchasesWord(count) == word)
    let purchases = (0..<(5 + count)).map { ReportPurchase(title: "x", amount: Decimal($0)) }
    let content = ReportPosterContent(
      ReportPosterInput(purpose: "", raised: 0, spent: 0, purchases: purchases, link: ""))
    #expect(content.more == "і ще \(count) \(word)")
  }

  @Test("the same input gives the same bytes", arguments: combinations)
  func deterministic(template: PosterTemplate, format: PosterFormat) {
    let input = ReportFixtures.inputs[10].input
    let first = ReportPosterRenderer.render(input, template: template, format: format)
    let second = ReportPosterRenderer.render(input, template: template, format: format)
    #expect(first == second)
    #expect(first.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
    // Ids (conic backgrounds have none) are the report's own, apart from a campaign poster's.
    for id in first.components(separatedBy: " id=\"").dropFirst() {
      #expect(id.hasPrefix("r\(template.number)\(format.rawValue)-"), "\(id.prefix(20))")
    }
  }

  @Test("hostile text makes well-formed XML with the text kept", arguments: combinations)
  func hostile(template: PosterTemplate, format: PosterFormat) {
    let svg = ReportPosterRenderer.render(
      ReportFixtures.hostile, template: template, format: format,
      options: PosterRenderOptions(embedFont: false, idPrefix: "\"><x"))
    #expect(xmlParseError(svg) == nil)
    let collector = SVGCollector.parse(svg)
    let text = collector.texts.joined(separator: "\n")
    #expect(text.contains("<script>alert('x')</script>"))
    #expect(text.contains("\"лапки\""))
    #expect(text.contains("</text><g onload=\"x\">"))
    #expect(text.contains("Звіт & <чеки>"))
    #expect(text.contains("עברית"))
    #expect(text.contains("🇺🇦👍🏽"))
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    #expect(!collector.elements.contains { $0.name == "script" || $0.name == "x" })
    let layout = ReportPosterRenderer.layout(
      ReportFixtures.hostile, template: template, format: format)
    for group in layout.textGroups { #expect(layout.textArea.contains(group.bounds)) }
  }
}

extension String {
  fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}
