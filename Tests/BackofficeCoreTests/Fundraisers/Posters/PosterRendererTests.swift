import Foundation
import Testing

@testable import BackofficeCore

@Suite("Poster rendering")
struct PosterRendererTests {
  static let tricky = PosterInput(
    purpose: "<script>alert(\"x\")</script> & 'Tom' ]]> \u{0001}\u{FFFE} 🇺🇦 Ґанок",
    goal: 1000,
    photo: PosterPhoto(href: "/photo?a=1&b=\"2\"<3>", scale: .nan, offsetX: .infinity),
    progress: PosterProgress(collected: 5, fraction: .nan))

  @Test("every SVG is well-formed XML", arguments: PosterTemplate.allCases, PosterFormat.allCases)
  func wellFormed(template: PosterTemplate, format: PosterFormat) {
    for input in [PosterFixtures.snapshotInput, Self.tricky, PosterInput(purpose: "")] {
      let svg = PosterRenderer.render(input, template: template, format: format)
      #expect(xmlParseError(svg) == nil, "\(template) \(format): \(xmlParseError(svg) ?? "")")
    }
  }

  @Test("size attributes are exact", arguments: PosterFormat.allCases)
  func size(format: PosterFormat) throws {
    let svg = PosterRenderer.render(
      PosterFixtures.snapshotInput, template: .pinkAngular, format: format)
    let root = try #require(SVGCollector.parse(svg).first("svg"))
    #expect(root["width"] == "1080")
    #expect(root["height"] == String(format.height))
    #expect(root["viewBox"] == "0 0 1080 \(format.height)")
    #expect(root["version"] == "1.1")
  }

  @Test("text and attributes are escaped")
  func escaping() {
    let svg = PosterRenderer.render(
      Self.tricky, template: .blueLinear, format: .post,
      options: PosterRenderOptions(embedFont: false))
    #expect(!svg.contains("<script"))
    #expect(svg.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
    #expect(svg.contains("&amp; &apos;Tom&apos;"))
    #expect(svg.contains("]]&gt;"))
    #expect(svg.contains("xlink:href=\"/photo?a=1&amp;b=&quot;2&quot;&lt;3&gt;\""))
    #expect(!svg.unicodeScalars.contains("\u{0001}"))
    #expect(!svg.unicodeScalars.contains("\u{FFFE}"))

    let collector = SVGCollector.parse(svg)
    let shown = collector.texts.joined(separator: " ")
    #expect(shown.contains("<script>alert(\"x\")</script> & 'Tom'"))
    #expect(shown.contains("🇺🇦"))
  }

  @Test("same input, same bytes; ids differ between templates and formats")
  func deterministic() {
    let input = PosterFixtures.snapshotInput
    for template in PosterTemplate.allCases {
      let a = PosterRenderer.render(input, template: template, format: .story)
      let b = PosterRenderer.render(input, template: template, format: .story)
      #expect(a == b)
    }
    let post = PosterRenderer.render(input, template: .blueLinear, format: .post)
    let story = PosterRenderer.render(input, template: .blueLinear, format: .story)
    #expect(post.contains("id=\"p1post-clip\""))
    #expect(story.contains("id=\"p1story-clip\""))
    let custom = PosterRenderer.render(
      input, template: .blueLinear, format: .post,
      options: PosterRenderOptions(idPrefix: "7 card<>"))
    #expect(custom.contains("id=\"p7card-clip\""))
    #expect(custom.contains("url(#p7card-clip)"))
  }

  @Test("the font is embedded by default and can be left out")
  func font() throws {
    let input = PosterFixtures.snapshotInput
    let embedded = PosterRenderer.render(input, template: .linearGreen, format: .post)
    #expect(embedded.contains("@font-face{font-family:'BackofficePosterRoboto'"))
    #expect(embedded.contains("src:url(data:font/woff2;base64,\(PosterFont.woff2Base64))"))
    #expect(embedded.contains("font-family=\"BackofficePosterRoboto, Roboto"))

    let bare = PosterRenderer.render(
      input, template: .linearGreen, format: .post, options: PosterRenderOptions(embedFont: false))
    #expect(!bare.contains("@font-face"))
    #expect(bare.count < embedded.count - 10_000)

    let data = try #require(Data(base64Encoded: PosterFont.woff2Base64))
    #expect(data.prefix(4) == Data("wOF2".utf8))
  }

  @Test("the embedded font is the one shipped in Public/fonts")
  func shippedFont() throws {
    let root = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let file = root.appendingPathComponent("Public/fonts/Roboto-Bold-subset.woff2")
    let licence = root.appendingPathComponent("Public/fonts/LICENSE-Roboto.txt")
    guard FileManager.default.fileExists(atPath: file.path) else {
      // Only a checkout has Public/; say so instead of passing silently.
      Issue.record("Public/fonts not found next to the sources (\(file.path))")
      return
    }
    #expect(try Data(contentsOf: file) == Data(base64Encoded: PosterFont.woff2Base64))
    #expect(try String(contentsOf: licence, encoding: .utf8).contains("Apache License"))
  }

  @Test("the photo fills its clipped slot, then takes the user's zoom and move")
  func photo() throws {
    let input = PosterInput(
      purpose: "Мета",
      photo: PosterPhoto(href: "data:image/jpeg;base64,AAAA", scale: 2, offsetX: 30, offsetY: -15))
    let layout = PosterRenderer.layout(input, template: .blueLinear, format: .post)
    let slot = layout.photoSlot
    let svg = PosterRenderer.render(input, template: .blueLinear, format: .post)
    let image = try #require(SVGCollector.parse(svg).first("image"))
    #expect(image["preserveAspectRatio"] == "xMidYMid slice")
    #expect(image["xlink:href"] == "data:image/jpeg;base64,AAAA")
    #expect(image["width"] == SVGText.number(slot.frame.width))
    let tx = slot.frame.midX * (1 - 2) + 30 * slot.offsetUnit
    let ty = slot.frame.midY * (1 - 2) - 15 * slot.offsetUnit
    #expect(
      image["transform"] == "matrix(2 0 0 2 \(SVGText.number(tx)) \(SVGText.number(ty)))")
    #expect(svg.contains("<g clip-path=\"url(#p1post-clip)\">\n<image"))

    // Scale is kept at 0.1 or more; an unusable value falls back to no zoom.
    let tiny = PosterRenderer.render(
      PosterInput(purpose: "x", photo: PosterPhoto(href: "/p", scale: 0.01)), template: .blueLinear,
      format: .post)
    #expect(tiny.contains("matrix(0.1 0 0 0.1 "))
    #expect(
      !PosterRenderer.render(Self.tricky, template: .blueLinear, format: .post).contains("nan"))
  }

  @Test("each slot shape is clipped", arguments: PosterTemplate.allCases)
  func clipShapes(template: PosterTemplate) throws {
    let svg = PosterRenderer.render(
      PosterFixtures.snapshotInput, template: template, format: .post)
    let collector = SVGCollector.parse(svg)
    let index = try #require(collector.elements.firstIndex { $0.name == "clipPath" })
    let shape = collector.elements[index + 1].name
    switch template {
    case .tealPurpleRadial, .radialMintIndigo: #expect(shape == "circle")
    case .goldBlackLinear, .linearEmeraldBlack: #expect(shape == "polygon")
    default: #expect(shape == "rect")
    }
    let rotated = [
      PosterTemplate.cyanMagentaRadial, .goldBlackLinear, .tealPurpleRadial,
      .linearEmeraldBlack, .radialAquaPurple, .radialMintIndigo,
    ]
    #expect(
      (PosterRenderer.layout(
        PosterFixtures.snapshotInput, template: template, format: .post
      ).photoSlot.rotation != 0)
        == rotated.contains(template))
  }

  @Test("without a photo a placeholder fills the slot")
  func placeholderPhoto() {
    let svg = PosterRenderer.render(
      PosterInput(purpose: "Мета"), template: .radialRedBlack, format: .story)
    #expect(!svg.contains("<image"))
    #expect(svg.contains("fill-opacity=\"0.18\""))
    let emptyHref = PosterRenderer.render(
      PosterInput(purpose: "Мета", photo: PosterPhoto(href: "")), template: .radialRedBlack,
      format: .story)
    #expect(emptyHref == svg)
  }

  @Test("conic backgrounds are drawn as wedges, others as gradients")
  func backgrounds() {
    for template in PosterTemplate.allCases {
      let svg = PosterRenderer.render(
        PosterFixtures.snapshotInput, template: template, format: .portrait,
        options: PosterRenderOptions(embedFont: false))
      let conic = template == .pinkAngular || template == .angularYellowBlue
      #expect(svg.contains("Gradient id=\"p\(template.number)portrait-bg\"") != conic)
      #expect(svg.utf8.count < 40_000, "\(template) is \(svg.utf8.count) bytes")
    }
  }

  @Test(
    "numbers print with at most two decimals",
    arguments: [
      (0.0, "0"), (-0.001, "0"), (1.5, "1.5"), (1.006, "1.01"), (-12.346, "-12.35"),
      (1080, "1080"), (0.1 + 0.2, "0.3"), (.nan, "0"), (1e20, "1000000000000"),
    ])
  func numbers(value: Double, text: String) {
    #expect(SVGText.number(value) == text)
  }
}

@Suite("Poster input from a campaign")
struct PosterInputTests {
  @Test("campaign fields, clamped placement, progress only when switched on")
  func fromCampaign() throws {
    var campaign = Campaign(
      purpose: "Дрони", target: 20000, template: .linearGreen,
      imagePlacement: ImagePlacement(scale: 50, offsetX: 12, offsetY: -4))
    let progress = try #require(FundraiserProgress(collected: 5000, target: 20000, jarGoal: nil))

    let off = PosterInput(campaign: campaign, photoHref: "/p/1", progress: progress)
    #expect(off.purpose == "Дрони")
    #expect(off.goal == 20000)
    #expect(off.progress == nil)
    #expect(off.photo == PosterPhoto(href: "/p/1", scale: 10, offsetX: 12, offsetY: -4))

    campaign.showProgress = true
    let on = PosterInput(campaign: campaign, photoHref: nil, progress: progress)
    #expect(on.photo == nil)
    #expect(on.progress == PosterProgress(collected: 5000, fraction: 0.25))
  }
}
