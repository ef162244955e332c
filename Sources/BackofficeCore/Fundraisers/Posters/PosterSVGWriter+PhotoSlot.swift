import Foundation

// MARK: Photo slot: the shaped photo or its placeholder, with its border and shadow

extension PosterSVGWriter {
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

  mutating func slotDefinitions(_ slot: PosterPhotoSlot, hasPhoto: Bool) {
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

  mutating func shadowFilter(_ name: String, blur: Double, dy: Double, opacity: Double) {
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

  mutating func slot(_ slot: PosterPhotoSlot, photo: PosterPhoto?) {
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
}
