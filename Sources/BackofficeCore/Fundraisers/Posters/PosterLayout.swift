import Foundation

/// Where everything on one poster goes, in poster pixels. `PosterRenderer.layout` computes it;
/// `PosterRenderer.render` draws it. Useful on its own to check that text fits and to map drag
/// gestures on a preview to photo offsets (`photoSlot.offsetUnit`).
public struct PosterLayout: Sendable {
  public let template: PosterTemplate
  public let format: PosterFormat
  /// The whole poster: (0, 0, width, height).
  public let canvas: PosterRect
  /// Where text may go: the canvas minus the story's unsafe top and bottom.
  public let textArea: PosterRect
  /// The photo's slot. A report poster has no photo: its slot is empty, at the origin.
  public let photoSlot: PosterPhotoSlot
  /// Text blocks: the purpose, and the goal/progress block when there is one; on a report
  /// poster the headline with the purpose, the totals and the purchases.
  public let textGroups: [PosterTextGroup]
  /// The QR card along the bottom, when the poster has one. Its text is not in `textGroups`.
  public let share: PosterShareBlock?

  let background: PosterBackground
  /// False on a report poster, which draws neither a photo nor its placeholder.
  var drawsPhotoSlot = true
}

/// The shape the photo is clipped to.
public struct PosterPhotoSlot: Sendable, Hashable {
  public enum Shape: Sendable, Hashable {
    case roundedRect(cornerRadius: Double)
    case circle
    case hexagon
  }

  public let shape: Shape
  /// The slot before rotation.
  public let frame: PosterRect
  /// Clockwise rotation around the frame's centre, in degrees.
  public let rotation: Double
  /// Poster pixels per unit of `PosterPhoto.offsetX`/`offsetY` (longer frame side ÷ 300).
  public var offsetUnit: Double { max(frame.width, frame.height) / PosterPhoto.referenceSide }
  /// Bounding box after rotation.
  public var bounds: PosterRect {
    if case .circle = shape { return frame }
    return frame.rotated(by: rotation, aroundX: frame.midX, y: frame.midY)
  }

  var decoration: SlotDecoration
}

/// One block of text, with its optional backdrop and progress bar.
public struct PosterTextGroup: Sendable {
  public enum Kind: Sendable, Hashable {
    /// The fundraiser's purpose.
    case purpose
    /// The goal and/or collected amount with the progress bar.
    case goal
    /// The call to action and the jar link beside the QR code.
    case share
    /// A report poster's "Зібрали! Дякуємо" with the purpose under it.
    case headline
    /// A report poster's amounts raised and spent.
    case totals
    /// A report poster's list of the largest purchases.
    case purchases
  }

  public let kind: Kind
  public let paragraphs: [PosterParagraph]
  /// Bounding box of the progress bar, when shown.
  public let progressBar: PosterRect?
  /// Bounding box of everything in the group, backdrop included, after rotation.
  public let bounds: PosterRect

  // Drawing details.
  let frame: PosterRect
  let rotation: Double
  let style: GroupStyle
  let barFrame: PosterRect?
  let barFraction: Double
}

/// Lines of text set in one size.
public struct PosterParagraph: Sendable, Hashable {
  public enum Role: Sendable, Hashable {
    case purpose
    /// "ціль збору:"
    case goalLabel
    /// "15 000 грн.", or the whole goal phrase in templates that have no label.
    case goalValue
    /// "Зібрано: 7 500 грн."
    case collected
    /// "Долучайся!" beside the QR code.
    case callToAction
    /// "send.monobank.ua/jar/…" under the call to action.
    case link
    /// "Зібрали! Дякуємо" on a report poster.
    case headline
    /// "Витрачено: 48 120,50 грн." on a report poster (the raised amount is `collected`).
    case spent
    /// One purchase on a report poster: "Тепловізор — 52 000 грн.", on one or two lines.
    case purchase
    /// "і ще 7 покупок" under the purchases a report poster lists.
    case morePurchases
  }

  public let role: Role
  public let lines: [String]
  public let fontSize: Double
  /// Bounding box of the lines (line height included), after rotation.
  public let bounds: PosterRect

  // Drawing details (before rotation).
  let anchorX: Double
  let baselines: [Double]
}

// MARK: - Building blocks used by the designs

enum TextAlign: Sendable {
  case left, center, right

  var svgAnchor: String {
    switch self {
    case .left: "start"
    case .center: "middle"
    case .right: "end"
    }
  }
}

enum Backdrop: Sendable {
  case none
  case fill(PosterColor)
  case outline(PosterColor, width: Double)
}

struct GroupStyle: Sendable {
  var align: TextAlign
  var backdrop: Backdrop = .none
  var padding: Double = 0
  var cornerRadius: Double = 0
  var rotation: Double = 0
  /// Soft shadow under text drawn straight on the background, for legibility.
  var textShadow: Bool = false
  /// Text colour when not the poster's white.
  var textColor: PosterColor?
}

struct ParagraphSpec: Sendable {
  var role: PosterParagraph.Role
  var text: PreparedText
  var style: TextStyle
  var gapBefore: Double
}

struct BarSpec: Sendable {
  var height: Double
  var minWidth: Double
  var fraction: Double
  var gapBefore: Double
}

/// A text group with its lines fitted but not yet placed.
struct MeasuredGroup: Sendable {
  var kind: PosterTextGroup.Kind
  var style: GroupStyle
  var roles: [PosterParagraph.Role]
  var fits: [TextFit]
  var gaps: [Double]
  var bar: BarSpec?
  var innerWidth: Double
  var innerHeight: Double

  var width: Double { innerWidth + 2 * style.padding }
  var height: Double { innerHeight + 2 * style.padding }

  /// Size of the bounding box once rotated.
  var rotatedSize: (width: Double, height: Double) {
    guard style.rotation != 0 else { return (width, height) }
    let radians = style.rotation * .pi / 180
    let c = abs(cos(radians))
    let s = abs(sin(radians))
    return (width * c + height * s, width * s + height * c)
  }

  /// Fits every paragraph into `maxWidth` (outer, padding included) and `maxHeight` (outer).
  /// The first paragraph gets whatever height the others leave at their smallest.
  init(
    kind: PosterTextGroup.Kind, paragraphs: [ParagraphSpec], bar: BarSpec?, style: GroupStyle,
    maxWidth: Double, maxHeight: Double
  ) {
    self.kind = kind
    self.style = style
    self.bar = bar
    // Rotation makes the bounding box taller; keep the budget for the rotated box.
    let radians = abs(style.rotation) * .pi / 180
    let textWidth = max(1, maxWidth - 2 * style.padding)
    var budget =
      (maxHeight - maxWidth * sin(radians)) / max(cos(radians), 0.5) - 2 * style.padding
    if let bar { budget -= bar.height + bar.gapBefore }
    var fits: [TextFit] = []
    var gaps: [Double] = []
    var roles: [PosterParagraph.Role] = []
    let live = paragraphs.filter { !$0.text.isEmpty }
    for (index, paragraph) in live.enumerated() {
      let gap = index == 0 ? 0 : paragraph.gapBefore
      let reserved = live.dropFirst(index + 1).reduce(0.0) { total, next in
        total + next.gapBefore + next.style.minFontSize * next.style.lineSpacing
      }
      let fit = TextFitter.fit(
        paragraph.text, style: paragraph.style, maxWidth: textWidth,
        maxHeight: max(paragraph.style.minFontSize, budget - gap - reserved))
      budget -= gap + fit.height
      fits.append(fit)
      gaps.append(gap)
      roles.append(paragraph.role)
    }
    self.fits = fits
    self.gaps = gaps
    self.roles = roles
    var width = fits.map(\.width).max() ?? 0
    var height = zip(fits, gaps).reduce(0.0) { $0 + $1.0.height + $1.1 }
    if let bar {
      width = min(textWidth, max(width, bar.minWidth))
      height += (fits.isEmpty ? 0 : bar.gapBefore) + bar.height
    }
    innerWidth = width
    innerHeight = height
  }

  var isEmpty: Bool { fits.isEmpty && bar == nil }

  /// Places the group so that its rotated bounding box starts at (`left`, `top`).
  func placed(left: Double, top: Double) -> PosterTextGroup {
    let size = rotatedSize
    let centerX = left + size.width / 2
    let centerY = top + size.height / 2
    let frame = PosterRect(
      x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
    return placed(frame: frame)
  }

  /// Places the group by its rotated bounding box, aligned to the given edges.
  func placed(
    horizontally align: TextAlign, in span: (Double, Double), top: Double
  ) -> PosterTextGroup {
    let size = rotatedSize
    let left: Double
    switch align {
    case .left: left = span.0
    case .center: left = (span.0 + span.1 - size.width) / 2
    case .right: left = span.1 - size.width
    }
    return placed(left: left, top: top)
  }

  private func placed(frame: PosterRect) -> PosterTextGroup {
    let inner = PosterRect(
      x: frame.x + style.padding, y: frame.y + style.padding, width: innerWidth,
      height: innerHeight)
    let anchorX: Double
    switch style.align {
    case .left: anchorX = inner.minX
    case .center: anchorX = inner.midX
    case .right: anchorX = inner.maxX
    }
    let rotate: (PosterRect) -> PosterRect = { rect in
      rect.rotated(by: style.rotation, aroundX: frame.midX, y: frame.midY)
    }
    var y = inner.minY
    var paragraphs: [PosterParagraph] = []
    for (index, fit) in fits.enumerated() {
      y += gaps[index]
      let capHeight = fit.fontSize * PosterFont.capHeight / PosterFont.unitsPerEm
      let baselines = (0..<fit.lines.count).map { line in
        y + Double(line) * fit.lineHeight + (fit.lineHeight + capHeight) / 2
      }
      let left: Double
      switch style.align {
      case .left: left = anchorX
      case .center: left = anchorX - fit.width / 2
      case .right: left = anchorX - fit.width
      }
      let box = PosterRect(x: left, y: y, width: fit.width, height: fit.height)
      paragraphs.append(
        PosterParagraph(
          role: roles[index], lines: fit.lines, fontSize: fit.fontSize, bounds: rotate(box),
          anchorX: anchorX, baselines: baselines))
      y += fit.height
    }
    var barFrame: PosterRect?
    if let bar {
      if !fits.isEmpty { y += bar.gapBefore }
      let barWidth = innerWidth
      let left: Double
      switch style.align {
      case .left: left = inner.minX
      case .center: left = inner.midX - barWidth / 2
      case .right: left = inner.maxX - barWidth
      }
      barFrame = PosterRect(x: left, y: y, width: barWidth, height: bar.height)
    }
    let hasBackdrop: Bool
    if case .none = style.backdrop { hasBackdrop = false } else { hasBackdrop = true }
    var bounds = rotate(hasBackdrop ? frame : inner)
    if !hasBackdrop, let first = paragraphs.first {
      bounds = paragraphs.dropFirst().reduce(first.bounds) { $0.union($1.bounds) }
      if let barFrame { bounds = bounds.union(rotate(barFrame)) }
    }
    return PosterTextGroup(
      kind: kind, paragraphs: paragraphs, progressBar: barFrame.map(rotate), bounds: bounds,
      frame: frame, rotation: style.rotation, style: style, barFrame: barFrame,
      barFraction: bar.map { min(1, max(0, $0.fraction.isFinite ? $0.fraction : 0)) } ?? 0)
  }
}
