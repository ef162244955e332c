import Foundation

/// An axis-aligned rectangle in poster pixels (origin top-left, y down).
public struct PosterRect: Hashable, Sendable {
  public var x: Double
  public var y: Double
  public var width: Double
  public var height: Double

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var minX: Double { x }
  public var minY: Double { y }
  public var maxX: Double { x + width }
  public var maxY: Double { y + height }
  public var midX: Double { x + width / 2 }
  public var midY: Double { y + height / 2 }

  /// Whether `other` lies inside this rectangle (a hundredth of a pixel of slack for rounding).
  public func contains(_ other: PosterRect) -> Bool {
    let slack = 0.01
    return other.minX >= minX - slack && other.maxX <= maxX + slack
      && other.minY >= minY - slack && other.maxY <= maxY + slack
  }

  /// Whether the two rectangles share any area.
  public func intersects(_ other: PosterRect) -> Bool {
    let slack = 0.01
    return other.minX < maxX - slack && other.maxX > minX + slack
      && other.minY < maxY - slack && other.maxY > minY + slack
  }

  /// The smallest rectangle holding both.
  func union(_ other: PosterRect) -> PosterRect {
    let left = min(minX, other.minX)
    let top = min(minY, other.minY)
    return PosterRect(
      x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
  }

  /// Bounding box of this rectangle after rotating it by `degrees` around (`cx`, `cy`).
  func rotated(by degrees: Double, aroundX cx: Double, y cy: Double) -> PosterRect {
    guard degrees != 0 else { return self }
    let radians = degrees * .pi / 180
    let cosine = cos(radians)
    let sine = sin(radians)
    var left = Double.infinity
    var right = -Double.infinity
    var top = Double.infinity
    var bottom = -Double.infinity
    for (px, py) in [(minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY)] {
      let dx = px - cx
      let dy = py - cy
      let rx = cx + dx * cosine - dy * sine
      let ry = cy + dx * sine + dy * cosine
      left = min(left, rx)
      right = max(right, rx)
      top = min(top, ry)
      bottom = max(bottom, ry)
    }
    return PosterRect(x: left, y: top, width: right - left, height: bottom - top)
  }
}

/// An sRGB colour with opacity.
struct PosterColor: Hashable, Sendable {
  var red: Double
  var green: Double
  var blue: Double
  var opacity: Double = 1

  init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.opacity = opacity
  }

  /// From `0xRRGGBB`.
  init(hex: UInt32, opacity: Double = 1) {
    red = Double((hex >> 16) & 0xFF)
    green = Double((hex >> 8) & 0xFF)
    blue = Double(hex & 0xFF)
    self.opacity = opacity
  }

  static let white = PosterColor(hex: 0xFFFFFF)
  static let black = PosterColor(hex: 0x000000)

  func withOpacity(_ value: Double) -> PosterColor {
    PosterColor(red: red, green: green, blue: blue, opacity: value)
  }

  /// Straight sRGB interpolation, like the platform gradients the designs came from.
  func mixed(with other: PosterColor, _ t: Double) -> PosterColor {
    PosterColor(
      red: red + (other.red - red) * t, green: green + (other.green - green) * t,
      blue: blue + (other.blue - blue) * t, opacity: opacity + (other.opacity - opacity) * t)
  }

  /// `#RRGGBB`, ignoring opacity.
  var hex: String {
    let digits = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = [UInt8(ascii: "#")]
    for channel in [red, green, blue] {
      let value = Int(max(0, min(255, channel.rounded())))
      bytes.append(digits[value >> 4])
      bytes.append(digits[value & 0xF])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Deterministic number and text output for SVG.
enum SVGText {
  /// Up to two decimals, trailing zeros dropped, never exponent notation or "-0".
  static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let clamped = max(-1e12, min(1e12, value))
    let hundredths = Int64((clamped * 100).rounded())
    if hundredths == 0 { return "0" }
    let magnitude = hundredths.magnitude
    let whole = magnitude / 100
    let fraction = magnitude % 100
    var text = hundredths < 0 ? "-" : ""
    text += String(whole)
    if fraction != 0 {
      text += "."
      if fraction % 10 == 0 {
        text += String(fraction / 10)
      } else {
        if fraction < 10 { text += "0" }
        text += String(fraction)
      }
    }
    return text
  }

  /// Appends `text` with the five XML special characters escaped and characters XML 1.0 does
  /// not allow (most control characters, U+FFFE, U+FFFF) left out.
  static func appendEscaped(_ text: String, to output: inout String) {
    // Photos may come as multi-megabyte data URLs: scan bytes, copy in one go when clean.
    // 0xEF leads U+F000…U+FFFF, which holds the two non-characters; check those properly.
    func special(_ byte: UInt8) -> Bool {
      byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22
        || byte == 0x27 || byte == 0xEF
    }
    let needsWork =
      text.utf8.withContiguousStorageIfAvailable { $0.contains(where: special) }
      ?? text.utf8.contains(where: special)
    guard needsWork else {
      output += text
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&apos;"
      case "\t", "\n", "\r": output += " "
      default:
        if isAllowedInXML(scalar) { output.unicodeScalars.append(scalar) }
      }
    }
  }

  static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x20 { return value == 0x9 || value == 0xA || value == 0xD }
    return value != 0xFFFE && value != 0xFFFF
  }
}
