import Foundation

/// Contrast of poster text against what is drawn under it, as WCAG 2 defines it: the relative
/// luminance of sRGB colours and the ratio `(L1 + 0.05) / (L2 + 0.05)`. Text needs 4.5:1 for
/// level AA.
enum PosterContrast {
  static let minimumRatio = 4.5

  /// Relative luminance of an opaque colour, 0 (black) … 1 (white).
  static func luminance(_ color: PosterColor) -> Double {
    func channel(_ value: Double) -> Double {
      let c = value / 255
      return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * channel(color.red) + 0.7152 * channel(color.green)
      + 0.0722 * channel(color.blue)
  }

  static func ratio(_ a: PosterColor, _ b: PosterColor) -> Double {
    let (la, lb) = (luminance(a), luminance(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
  }

  /// `top` (with its opacity) painted over the opaque `bottom`.
  static func blend(_ top: PosterColor, over bottom: PosterColor) -> PosterColor {
    let a = min(1, max(0, top.opacity))
    return PosterColor(
      red: top.red * a + bottom.red * (1 - a), green: top.green * a + bottom.green * (1 - a),
      blue: top.blue * a + bottom.blue * (1 - a))
  }

  /// The background's colour at a point, as the SVG writer draws it.
  static func color(of background: PosterBackground, at point: PosterPoint) -> PosterColor {
    switch background {
    case .linear(let from, let to, let stops):
      let dx = to.x - from.x
      let dy = to.y - from.y
      let length = dx * dx + dy * dy
      let t = length > 0 ? ((point.x - from.x) * dx + (point.y - from.y) * dy) / length : 0
      return interpolate(stops, at: t)
    case .radial(let center, let startRadius, let endRadius, let stops):
      let distance = hypot(point.x - center.x, point.y - center.y)
      let span = endRadius - startRadius
      return interpolate(stops, at: span > 0 ? (distance - startRadius) / span : 0)
    case .conic(let center, let startAngle, let stops):
      var degrees = atan2(point.y - center.y, point.x - center.x) * 180 / .pi - startAngle
      degrees = degrees.truncatingRemainder(dividingBy: 360)
      if degrees < 0 { degrees += 360 }
      return interpolate(stops, at: degrees / 360)
    }
  }

  static func interpolate(_ stops: [GradientStop], at location: Double) -> PosterColor {
    guard let first = stops.first, let last = stops.last else { return .black }
    let t = min(1, max(0, location.isFinite ? location : 0))
    if t <= first.location { return first.color }
    for (a, b) in zip(stops, stops.dropFirst()) where t <= b.location {
      let span = b.location - a.location
      let f = span > 0 ? (t - a.location) / span : 1
      return PosterColor(
        red: a.color.red + (b.color.red - a.color.red) * f,
        green: a.color.green + (b.color.green - a.color.green) * f,
        blue: a.color.blue + (b.color.blue - a.color.blue) * f)
    }
    return last.color
  }

  /// The lowest contrast of each paragraph of `layout` against the background under it,
  /// sampled on a grid over the paragraph; points over the photo slot are left out (a photo
  /// can be anything). Text on a box is measured against the box painted over the background.
  static func lowest(in layout: PosterLayout) -> [(
    group: PosterTextGroup.Kind, role: PosterParagraph.Role, ratio: Double
  )] {
    var result: [(PosterTextGroup.Kind, PosterParagraph.Role, Double)] = []
    let slot = layout.photoSlot.bounds
    for group in layout.textGroups {
      let text = group.style.textColor ?? .white
      var box: PosterColor?
      if case .fill(let color) = group.style.backdrop { box = color }
      for paragraph in group.paragraphs {
        var lowest = Double.infinity
        let b = paragraph.bounds
        for i in 0...4 {
          for j in 0...4 {
            let point = PosterPoint(
              x: b.minX + b.width * Double(i) / 4, y: b.minY + b.height * Double(j) / 4)
            if slot.contains(PosterRect(x: point.x, y: point.y, width: 0, height: 0)) { continue }
            var under = color(of: layout.background, at: point)
            if let box { under = blend(box, over: under) }
            lowest = min(lowest, ratio(text, under))
          }
        }
        if lowest.isFinite { result.append((group.kind, paragraph.role, lowest)) }
      }
    }
    return result
  }
}
