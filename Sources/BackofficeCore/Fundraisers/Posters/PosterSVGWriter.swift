import Foundation

/// Builds the SVG text for a layout.
struct PosterSVGWriter {
  let idPrefix: String
  /// The document so far; the drawing parts (`+Background`, `+PhotoSlot`) append to it.
  var out = ""

  init(idPrefix: String) {
    self.idPrefix = idPrefix
  }

  func id(_ name: String) -> String { idPrefix + "-" + name }

  mutating func number(_ value: Double) {
    out += SVGText.number(value)
  }

  /// Appends ` name="value"` with a number value.
  mutating func attr(_ name: String, _ value: Double) {
    out += " "
    out += name
    out += "=\""
    out += SVGText.number(value)
    out += "\""
  }

  mutating func attr(_ name: String, _ value: String) {
    out += " "
    out += name
    out += "=\""
    SVGText.appendEscaped(value, to: &out)
    out += "\""
  }

  mutating func fill(_ color: PosterColor, _ name: String = "fill") {
    attr(name, color.hex)
    if color.opacity < 1 { attr(name + "-opacity", color.opacity) }
  }

  mutating func document(_ layout: PosterLayout, photo: PosterPhoto?, embedFont: Bool) -> String {
    out = ""
    out.reserveCapacity(
      (embedFont ? PosterFont.fontFaceCSS.utf8.count : 0) + (photo?.href.utf8.count ?? 0) + 16_384)
    let width = layout.canvas.width
    let height = layout.canvas.height
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\""
    // Posters speak Ukrainian in every interface language: said here, so a page that shows one
    // inside English text marks it as Ukrainian.
    out += " xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\" lang=\"uk\""
    attr("width", width)
    attr("height", height)
    out += " viewBox=\"0 0 "
    number(width)
    out += " "
    number(height)
    out += "\">\n<defs>\n"
    if embedFont {
      out += "<style type=\"text/css\">"
      out += PosterFont.fontFaceCSS
      out += "</style>\n"
    }
    backgroundDefinition(layout.background)
    if layout.drawsPhotoSlot { slotDefinitions(layout.photoSlot, hasPhoto: photo != nil) }
    if layout.textGroups.contains(where: \.style.textShadow) {
      shadowFilter(id("text-shadow"), blur: 0.004 * width, dy: 0.002 * width, opacity: 0.45)
    }
    out += "</defs>\n"
    background(layout.background, width: width, height: height)
    if layout.drawsPhotoSlot { slot(layout.photoSlot, photo: photo) }
    out += "<g font-family=\"\(PosterFont.familyList)\" font-weight=\"700\" fill=\"#FFFFFF\""
    out += " text-rendering=\"geometricPrecision\">\n"
    for group in layout.textGroups { textGroup(group) }
    out += "</g>\n"
    if let share = layout.share { shareBlock(share) }
    out += "</svg>\n"
    return out
  }

  /// The white card, the QR code's dark modules as one path, and the dark text beside it.
  private mutating func shareBlock(_ share: PosterShareBlock) {
    out += "<g>\n"
    backdropRect(share.card, radius: PosterShareBlock.cornerRadius)
    fill(PosterShareBlock.cardColor)
    out += "/>\n<path"
    fill(PosterShareBlock.moduleColor)
    out += " shape-rendering=\"crispEdges\" d=\""
    out += share.code.svgPath(
      moduleSize: share.moduleSize, originX: Int(share.symbol.x), originY: Int(share.symbol.y))
    out += "\"/>\n"
    out += "<g font-family=\"\(PosterFont.familyList)\" font-weight=\"700\""
    out += " text-rendering=\"geometricPrecision\">\n"
    textGroup(share.text)
    out += "</g>\n</g>\n"
  }

  // MARK: Text

  private mutating func textGroup(_ group: PosterTextGroup) {
    let frame = group.frame
    out += "<g"
    if group.rotation != 0 {
      out += " transform=\"rotate("
      number(group.rotation)
      out += " "
      number(frame.midX)
      out += " "
      number(frame.midY)
      out += ")\""
    }
    if group.style.textShadow {
      attr("filter", "url(#\(id("text-shadow")))")
    }
    if let color = group.style.textColor { fill(color) }
    out += ">\n"
    switch group.style.backdrop {
    case .none:
      break
    case .fill(let color):
      backdropRect(frame, radius: group.style.cornerRadius)
      fill(color)
      out += "/>\n"
    case .outline(let color, let width):
      // Inset by half the stroke so the outline stays inside the measured box.
      let inset = PosterRect(
        x: frame.x + width / 2, y: frame.y + width / 2, width: frame.width - width,
        height: frame.height - width)
      backdropRect(inset, radius: group.style.cornerRadius)
      out += " fill=\"none\""
      fill(color, "stroke")
      attr("stroke-width", width)
      out += "/>\n"
    }
    for paragraph in group.paragraphs {
      out += "<text"
      attr("font-size", paragraph.fontSize)
      // The box the text was measured into (x y width height, after rotation): the browser
      // test renders the poster with and without its text and checks every glyph stays inside.
      out += " data-bounds=\""
      let b = paragraph.bounds
      for (index, value) in [b.x, b.y, b.width, b.height].enumerated() {
        if index > 0 { out += " " }
        number(value)
      }
      out += "\""
      out += " text-anchor=\"\(group.style.align.svgAnchor)\" xml:space=\"preserve\">"
      for (line, baseline) in zip(paragraph.lines, paragraph.baselines) {
        out += "<tspan"
        attr("x", paragraph.anchorX)
        attr("y", baseline)
        out += ">"
        SVGText.appendEscaped(line, to: &out)
        out += "</tspan>"
      }
      out += "</text>\n"
    }
    if let bar = group.barFrame {
      let radius = bar.height / 2
      backdropRect(bar, radius: radius)
      out += " fill-opacity=\"0.3\"/>\n"
      if group.barFraction > 0 {
        let filled = PosterRect(
          x: bar.x, y: bar.y, width: max(bar.height, bar.width * group.barFraction),
          height: bar.height)
        backdropRect(filled, radius: radius)
        out += "/>\n"
      }
    }
    out += "</g>\n"
  }

  /// Opens a `<rect` for `rect`; the caller adds paint and closes it.
  private mutating func backdropRect(_ rect: PosterRect, radius: Double) {
    out += "<rect"
    attr("x", rect.x)
    attr("y", rect.y)
    attr("width", rect.width)
    attr("height", rect.height)
    if radius > 0 {
      attr("rx", radius)
      attr("ry", radius)
    }
  }
}
