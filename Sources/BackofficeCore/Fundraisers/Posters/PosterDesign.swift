import Foundation

struct PosterPoint: Hashable, Sendable {
  var x: Double
  var y: Double
}

struct GradientStop: Hashable, Sendable {
  var location: Double
  var color: PosterColor
}

/// A poster background, in poster pixels.
enum PosterBackground: Sendable {
  case linear(from: PosterPoint, to: PosterPoint, stops: [GradientStop])
  /// Colours spread from `startRadius` (first stop) to `endRadius` (last stop).
  case radial(center: PosterPoint, startRadius: Double, endRadius: Double, stops: [GradientStop])
  /// Colours sweep clockwise from `startAngle` (degrees, 0 = pointing right) over a full turn.
  case conic(center: PosterPoint, startAngle: Double, stops: [GradientStop])
}

struct SlotDecoration: Hashable, Sendable {
  enum Stroke: Hashable, Sendable {
    case solid(PosterColor, width: Double)
    /// Fades from `from` at the top of the slot to `to` at the bottom.
    case gradient(from: PosterColor, to: PosterColor, width: Double)
  }

  var stroke: Stroke?
  var shadow = false
}

/// The canvas of one format, and the part of it the composition uses.
struct PosterFrame: Sendable {
  /// Designs are drawn for a square of this side; every format is this wide.
  static let side = 1080.0

  let width: Double
  let height: Double
  /// Text stays between `top` and `bottom`.
  let top: Double
  let bottom: Double

  init(_ format: PosterFormat) {
    width = Double(format.width)
    height = Double(format.height)
    top = Double(format.safeTop)
    bottom = Double(format.height - format.safeBottom)
  }

  private init(width: Double, height: Double, top: Double, bottom: Double) {
    self.width = width
    self.height = height
    self.top = top
    self.bottom = bottom
  }

  /// The same canvas with the text area ending at `bottom`, for a band kept below it.
  func ending(at bottom: Double) -> PosterFrame {
    PosterFrame(width: width, height: height, top: top, bottom: min(self.bottom, bottom))
  }

  /// Height a design keeps for its photo beside the text: `preferred`, or less when a band
  /// below leaves the square less than its side (never under a quarter of it).
  func photoReserve(_ preferred: Double) -> Double {
    let shortfall = max(0, Self.side - contentHeight)
    return max(0.25 * Self.side, preferred - shortfall)
  }

  var contentHeight: Double { bottom - top }
  /// Height beyond the square design: 0 (post), 270 (portrait), 390 (story).
  var extra: Double { max(0, contentHeight - Self.side) }
  /// 0 for the square, 1 for the story; scales how much a design grows.
  var grow: Double { extra / 390 }
  /// More lines of purpose text before shrinking it in the taller formats: 1 portrait, 2 story.
  var extraLines: Int { grow > 0.9 ? 2 : grow > 0.5 ? 1 : 0 }
  var centerY: Double { top + contentHeight / 2 }
  /// Vertical offsets given for the square scale with the content height.
  var verticalScale: Double { contentHeight / Self.side }
  /// Gradient radii given for the square scale with the diagonal.
  var radiusScale: Double {
    (width * width + height * height).squareRoot() / (Self.side * 2.0.squareRoot())
  }
  var textArea: PosterRect { PosterRect(x: 0, y: top, width: width, height: contentHeight) }
}

/// What one template draws in one format: the background, the photo slot and the texts.
struct PosterDesign {
  var background: PosterBackground
  var slot: PosterPhotoSlot
  var groups: [PosterTextGroup]
}
