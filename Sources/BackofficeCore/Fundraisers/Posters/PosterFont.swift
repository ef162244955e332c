/// The poster font (Roboto Bold, subset) and text measuring with its advance widths.
///
/// The tables live in generated files (`PosterFontData.swift`, `PosterFontMetrics.swift`,
/// made by `scripts/make-poster-font.py`), so nothing is parsed at run time.
enum PosterFont {
  /// Family name used inside the SVG. Unusual on purpose, so an installed font of the same
  /// name with other metrics is never picked instead of the embedded one.
  static let family = "BackofficePosterRoboto"

  /// `font-family` value: the embedded font, then look-alikes for viewers without it.
  static let familyList = "BackofficePosterRoboto, Roboto, Arial, sans-serif"

  /// The `@font-face` rule with the font as a data URL.
  static let fontFaceCSS =
    "@font-face{font-family:'\(family)';font-weight:700;font-style:normal;"
    + "src:url(data:font/woff2;base64,\(woff2Base64)) format('woff2')}"

  /// Advance width of one character in font units.
  @inline(__always)
  static func advance(_ scalar: Unicode.Scalar) -> Double {
    let value = scalar.value
    let index = Int(value) - Int(denseFirst)
    if index >= 0, index < denseAdvances.count {
      let advance = denseAdvances[index]
      if advance != 0 { return Double(advance) }
      if value < 0x20 { return 0 }
    } else if let advance = sparseAdvance(value) {
      return Double(advance)
    }
    return fallbackAdvance(scalar)
  }

  /// Width estimate for characters outside the font, which the viewer draws with another font.
  private static func fallbackAdvance(_ scalar: Unicode.Scalar) -> Double {
    let value = scalar.value
    switch value {
    case 0x200B...0x200F, 0x2060...0x2064, 0xFE00...0xFE0F, 0xE0100...0xE01EF:
      return 0  // zero-width characters and variation selectors
    case 0x1F000...0x1FAFF, 0x2600...0x27BF:
      return unitsPerEm * 1.25  // emoji and symbols are drawn about one em wide or more
    case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFF60:
      return unitsPerEm  // CJK and full-width forms
    default:
      switch scalar.properties.generalCategory {
      case .nonspacingMark, .enclosingMark, .format: return 0
      default: return Double(defaultAdvance)
      }
    }
  }

  /// Width of `text` in font units.
  static func units<S: StringProtocol>(_ text: S) -> Double {
    var total = 0.0
    for scalar in text.unicodeScalars { total += advance(scalar) }
    return total
  }

  /// Width of `text` in pixels at `fontSize`.
  static func width<S: StringProtocol>(_ text: S, fontSize: Double) -> Double {
    units(text) * fontSize / unitsPerEm
  }
}
