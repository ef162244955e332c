import Foundation

// MARK: Background: the gradient under everything

extension PosterSVGWriter {
  /// `<stop>`s of a gradient (the background's, and the photo border's).
  mutating func stops(_ stops: [GradientStop], map: (Double) -> Double = { $0 }) {
    for stop in stops {
      out += "<stop"
      attr("offset", min(1, max(0, map(stop.location))))
      attr("stop-color", stop.color.hex)
      if stop.color.opacity < 1 { attr("stop-opacity", stop.color.opacity) }
      out += "/>"
    }
  }

  mutating func backgroundDefinition(_ background: PosterBackground) {
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

  mutating func background(_ background: PosterBackground, width: Double, height: Double) {
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
}
