import Foundation

/// Draws fundraiser posters as SVG 1.1, in pure Swift.
///
/// The same input always gives the same bytes: element ids come from the template and format,
/// and numbers are printed with at most two decimals.
public enum PosterRenderer {
  /// Where everything goes on the poster, without drawing it.
  public static func layout(
    _ input: PosterInput, template: PosterTemplate, format: PosterFormat
  ) -> PosterLayout {
    let frame = PosterFrame(format)
    let design = PosterDesigns.design(template, frame: frame, content: PosterContent(input))
    return PosterLayout(
      template: template, format: format,
      canvas: PosterRect(x: 0, y: 0, width: frame.width, height: frame.height),
      textArea: frame.textArea, photoSlot: design.slot, textGroups: design.groups,
      background: design.background)
  }

  /// The poster as a standalone SVG document (`width`, `height` and `viewBox` in pixels).
  public static func render(
    _ input: PosterInput, template: PosterTemplate, format: PosterFormat,
    options: PosterRenderOptions = PosterRenderOptions()
  ) -> String {
    let layout = layout(input, template: template, format: format)
    var writer = PosterSVGWriter(
      idPrefix: sanitizedPrefix(options.idPrefix) ?? "p\(template.number)\(format.rawValue)")
    // An empty address would draw a broken image; show the placeholder instead.
    let photo = input.photo.flatMap { $0.href.isEmpty ? nil : $0 }
    return writer.document(layout, photo: photo, embedFont: options.embedFont)
  }

  /// Keeps ids valid XML names: letters, digits, `-` and `_`, starting with a letter.
  private static func sanitizedPrefix(_ prefix: String?) -> String? {
    guard let prefix else { return nil }
    let kept = String(
      prefix.unicodeScalars.filter {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-" || $0 == "_"
      })
    guard !kept.isEmpty else { return nil }
    if let first = kept.unicodeScalars.first, ("0"..."9").contains(first) || first == "-" {
      return "p" + kept
    }
    return kept
  }
}

/// Builds the SVG text for a layout.
struct PosterSVGWriter {
  let idPrefix: String
  private var out = ""

  init(idPrefix: String) {
    self.idPrefix = idPrefix
  }

  private func id(_ name: String) -> String { idPrefix + "-" + name }

  private mutating func number(_ value: Double) {
    out += SVGText.number(value)
  }

  /// Appends ` name="value"` with a number value.
  private mutating func attr(_ name: String, _ value: Double) {
    out += " "
    out += name
    out += "=\""
    out += SVGText.number(value)
    out += "\""
  }

  private mutating func attr(_ name: String, _ value: String) {
    out += " "
    out += name
    out += "=\""
    SVGText.appendEscaped(value, to: &out)
    out += "\""
  }

  private mutating func fill(_ color: PosterColor, _ name: String = "fill") {
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
    out += " xmlns:xlink=\"http://www.w3.org/1999/xlink\" version=\"1.1\""
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
    slotDefinitions(layout.photoSlot, hasPhoto: photo != nil)
    if layout.textGroups.contains(where: \.style.textShadow) {
      shadowFilter(id("text-shadow"), blur: 0.004 * width, dy: 0.002 * width, opacity: 0.45)
    }
    out += "</defs>\n"
    background(layout.background, width: width, height: height)
    slot(layout.photoSlot, photo: photo)
    out += "<g font-family=\"\(PosterFont.familyList)\" font-weight=\"700\" fill=\"#FFFFFF\""
    out += " text-rendering=\"geometricPrecision\">\n"
    for group in layout.textGroups { textGroup(group) }
    out += "</g>\n</svg>\n"
    return out
  }

  // MARK: Background

  private mutating func stops(_ stops: [GradientStop], map: (Double) -> Double = { $0 }) {
    for stop in stops {
      out += "<stop"
      attr("offset", min(1, max(0, map(stop.location))))
      attr("stop-color", stop.color.hex)
      if stop.color.opacity < 1 { attr("stop-opacity", stop.color.opacity) }
      out += "/>"
    }
  }

  private mutating func backgroundDefinition(_ background: PosterBackground) {
    switch background {
    case .linear(let from, let to, let colorStops):
      out += "<linearGradient"
      attr("id", id("bg"))
      out += " gradientUnits=\"userSpaceOnUse\""
      attr("x1", from.x)
      attr("y1", from.y)
      attr("x2", to.x)
      attr("y2", to.y)
      out += ">"
      stops(colorStops)
      out += "</linearGradient>\n"
    case .radial(let center, let startRadius, let endRadius, let colorStops):
      // SVG 1.1 has no start radius: map the stops onto 0…endRadius instead.
      let radius = max(endRadius, 0.01)
      out += "<radialGradient"
      attr("id", id("bg"))
      out += " gradientUnits=\"userSpaceOnUse\""
      attr("cx", center.x)
      attr("cy", center.y)
      attr("r", radius)
      out += ">"
      stops(colorStops) { (startRadius + $0 * (radius - startRadius)) / radius }
      out += "</radialGradient>\n"
    case .conic:
      break
    }
  }

  private mutating func background(_ background: PosterBackground, width: Double, height: Double) {
    switch background {
    case .linear, .radial:
      out += "<rect width=\"100%\" height=\"100%\""
      attr("fill", "url(#\(id("bg")))")
      out += "/>\n"
    case .conic(let center, let startAngle, let colorStops):
      conic(center: center, startAngle: startAngle, stops: colorStops, width: width, height: height)
    }
  }

  /// SVG has no conic gradient: draw it as 1° wedges of interpolated colour (runs of equal colour
  /// merged), each overlapping the next a little so no hairline seams show.
  private mutating func conic(
    center: PosterPoint, startAngle: Double, stops: [GradientStop], width: Double, height: Double
  ) {
    let corners = [(0.0, 0.0), (width, 0), (width, height), (0, height)]
    let distances = corners.map { corner in
      let dx = corner.0 - center.x
      let dy = corner.1 - center.y
      return (dx * dx + dy * dy).squareRoot()
    }
    let radius = (distances.max() ?? 0) * 1.05 + 10
    // Angles (relative to the start angle, 0…360) that can reach the canvas.
    var visible: [(Double, Double)] = [(0, 360)]
    let inside = center.x > 0 && center.x < width && center.y > 0 && center.y < height
    let angles = zip(corners, distances).compactMap { corner, distance -> Double? in
      guard distance > 1 else { return nil }
      var angle = atan2(corner.1 - center.y, corner.0 - center.x) * 180 / .pi - startAngle
      angle = angle.truncatingRemainder(dividingBy: 360)
      return angle < 0 ? angle + 360 : angle
    }.sorted()
    if !inside, let first = angles.first, let last = angles.last {
      // The canvas lies within the shortest arc holding every corner: drop the largest gap.
      var largestGap = 360 - last + first
      var gapEnd = first
      for (a, b) in zip(angles, angles.dropFirst()) where b - a > largestGap {
        largestGap = b - a
        gapEnd = b
      }
      let from = gapEnd - 1
      let to = gapEnd + (360 - largestGap) + 1
      visible = [(from, to), (from - 360, to - 360), (from + 360, to + 360)]
    }
    func color(at location: Double) -> PosterColor {
      guard let first = stops.first, let last = stops.last else { return .black }
      if location <= first.location { return first.color }
      if location >= last.location { return last.color }
      for (a, b) in zip(stops, stops.dropFirst()) where location <= b.location {
        let t = b.location > a.location ? (location - a.location) / (b.location - a.location) : 1
        return a.color.mixed(with: b.color, t)
      }
      return last.color
    }
    var runs: [(from: Double, to: Double, hex: String)] = []
    for degree in 0..<360 {
      let a = Double(degree)
      guard visible.contains(where: { a + 1 > $0.0 && a < $0.1 }) else { continue }
      let hex = color(at: (a + 0.5) / 360).hex
      if let last = runs.last, last.hex == hex, last.to == a {
        runs[runs.count - 1].to = a + 1
      } else {
        runs.append((a, a + 1, hex))
      }
    }
    out += "<g>\n"
    for (index, run) in runs.enumerated() {
      let overlap = index == runs.count - 1 ? 0 : 0.5
      let from = startAngle + run.from
      let to = startAngle + run.to + overlap
      out += "<path d=\"M"
      number(center.x)
      out += " "
      number(center.y)
      // Points along the arc at most 15° apart keep the chords outside the canvas.
      let steps = max(1, Int(((to - from) / 15).rounded(.up)))
      for step in 0...steps {
        let angle = (from + (to - from) * Double(step) / Double(steps)) * .pi / 180
        out += "L"
        number(center.x + radius * cos(angle))
        out += " "
        number(center.y + radius * sin(angle))
      }
      out += "Z\" fill=\""
      out += run.hex
      out += "\"/>\n"
    }
    out += "</g>\n"
  }

  // MARK: Photo slot

  private mutating func shape(_ slot: PosterPhotoSlot, extra: (inout PosterSVGWriter) -> Void) {
    let frame = slot.frame
    switch slot.shape {
    case .roundedRect(let radius):
      out += "<rect"
      attr("x", frame.x)
      attr("y", frame.y)
      attr("width", frame.width)
      attr("height", frame.height)
      if radius > 0 {
        attr("rx", radius)
        attr("ry", radius)
      }
    case .circle:
      out += "<circle"
      attr("cx", frame.midX)
      attr("cy", frame.midY)
      attr("r", min(frame.width, frame.height) / 2)
    case .hexagon:
      // Regular, pointy-top, as tall as the frame.
      let r = min(frame.width, frame.height) / 2
      let half = r * 3.0.squareRoot() / 2
      let cx = frame.midX
      let cy = frame.midY
      let points = [
        (cx, cy - r), (cx + half, cy - r / 2), (cx + half, cy + r / 2), (cx, cy + r),
        (cx - half, cy + r / 2), (cx - half, cy - r / 2),
      ]
      out += "<polygon points=\""
      for (index, point) in points.enumerated() {
        if index > 0 { out += " " }
        number(point.0)
        out += ","
        number(point.1)
      }
      out += "\""
    }
    extra(&self)
    out += "/>"
  }

  private mutating func slotDefinitions(_ slot: PosterPhotoSlot, hasPhoto: Bool) {
    out += "<clipPath"
    attr("id", id("clip"))
    out += ">"
    shape(slot) { _ in }
    out += "</clipPath>\n"
    if slot.decoration.shadow, hasPhoto {
      shadowFilter(
        id("shadow"), blur: 0.016 * PosterFrame.side, dy: 0.01 * PosterFrame.side, opacity: 0.4)
    }
    if case .gradient(let from, let to, _) = slot.decoration.stroke {
      out += "<linearGradient"
      attr("id", id("stroke"))
      out += " x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
      stops([GradientStop(location: 0, color: from), GradientStop(location: 1, color: to)])
      out += "</linearGradient>\n"
    }
  }

  private mutating func shadowFilter(_ name: String, blur: Double, dy: Double, opacity: Double) {
    out += "<filter"
    attr("id", name)
    out += " x=\"-20%\" y=\"-20%\" width=\"140%\" height=\"140%\">"
    out += "<feGaussianBlur in=\"SourceAlpha\""
    attr("stdDeviation", blur)
    out += "/><feOffset"
    attr("dy", dy)
    out += " result=\"blur\"/><feFlood flood-color=\"#000000\""
    attr("flood-opacity", opacity)
    out += "/><feComposite in2=\"blur\" operator=\"in\"/>"
    out += "<feMerge><feMergeNode/><feMergeNode in=\"SourceGraphic\"/></feMerge></filter>\n"
  }

  private mutating func slot(_ slot: PosterPhotoSlot, photo: PosterPhoto?) {
    let frame = slot.frame
    out += "<g"
    if slot.rotation != 0 {
      out += " transform=\"rotate("
      number(slot.rotation)
      out += " "
      number(frame.midX)
      out += " "
      number(frame.midY)
      out += ")\""
    }
    out += ">\n"
    // A translucent placeholder over a black shadow shape would look like a dark hole.
    if slot.decoration.shadow, photo != nil {
      shape(slot) { writer in
        writer.out += " fill=\"#000000\""
        writer.attr("filter", "url(#\(writer.id("shadow")))")
      }
      out += "\n"
    }
    out += "<g"
    attr("clip-path", "url(#\(id("clip")))")
    out += ">\n"
    if let photo {
      image(photo, slot: slot)
    } else {
      placeholder(frame)
    }
    out += "</g>\n"
    if let stroke = slot.decoration.stroke {
      shape(slot) { writer in
        writer.out += " fill=\"none\""
        switch stroke {
        case .solid(let color, let width):
          writer.fill(color, "stroke")
          writer.attr("stroke-width", width)
        case .gradient(_, _, let width):
          writer.attr("stroke", "url(#\(writer.id("stroke")))")
          writer.attr("stroke-width", width)
        }
      }
      out += "\n"
    }
    out += "</g>\n"
  }

  /// The photo covers the slot, then the user's zoom (around the slot's centre) and move apply.
  private mutating func image(_ photo: PosterPhoto, slot: PosterPhotoSlot) {
    let frame = slot.frame
    let scale = photo.scale.isFinite ? min(100, max(PosterPhoto.minimumScale, photo.scale)) : 1
    func offset(_ value: Double) -> Double {
      value.isFinite ? min(10_000, max(-10_000, value)) * slot.offsetUnit : 0
    }
    let tx = frame.midX * (1 - scale) + offset(photo.offsetX)
    let ty = frame.midY * (1 - scale) + offset(photo.offsetY)
    out += "<image"
    attr("x", frame.x)
    attr("y", frame.y)
    attr("width", frame.width)
    attr("height", frame.height)
    out += " preserveAspectRatio=\"xMidYMid slice\""
    if scale != 1 || tx != 0 || ty != 0 {
      out += " transform=\"matrix("
      number(scale)
      out += " 0 0 "
      number(scale)
      out += " "
      number(tx)
      out += " "
      number(ty)
      out += ")\""
    }
    attr("xlink:href", photo.href)
    out += "/>\n"
  }

  /// A neutral tint with a simple picture icon, so the layout reads without a photo.
  private mutating func placeholder(_ frame: PosterRect) {
    out += "<rect"
    attr("x", frame.x)
    attr("y", frame.y)
    attr("width", frame.width)
    attr("height", frame.height)
    out += " fill=\"#FFFFFF\" fill-opacity=\"0.18\"/>\n"
    let size = 0.25 * min(frame.width, frame.height, PosterFrame.side * 0.5)
    let left = frame.midX - size / 2
    let top = frame.midY - size * 0.4
    out += "<g fill=\"#FFFFFF\" fill-opacity=\"0.55\"><circle"
    attr("cx", left + size * 0.72)
    attr("cy", top + size * 0.18)
    attr("r", size * 0.12)
    out += "/><path d=\"M"
    let points = [
      (0.0, 0.8), (0.32, 0.3), (0.55, 0.62), (0.7, 0.45), (1.0, 0.8),
    ]
    for (index, point) in points.enumerated() {
      if index > 0 { out += "L" }
      number(left + point.0 * size)
      out += " "
      number(top + point.1 * size)
    }
    out += "Z\"/></g>\n"
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
