/// Text split into paragraphs and words, each word measured once so that wrapping at many font
/// sizes is plain arithmetic.
struct PreparedText: Sendable {
  struct Word: Sendable {
    var text: String
    /// Width in font units.
    var units: Double
    /// Follows the previous word without a space: the part after a hyphen ("дрони" of
    /// "FPV-дрони"), where a line may break but no space is drawn.
    var glued = false
  }

  var paragraphs: [[Word]]

  static let spaceUnits = PosterFont.advance(" ")

  /// Keeps explicit line breaks (blank lines collapse), turns other white space runs into one
  /// space, drops control characters. No-break spaces stay inside their word. A hyphen between
  /// two letters ends a piece of the word, so a line may break after it ("розвідник-" /
  /// "кулеметник") and nowhere else inside the word.
  init(_ text: String) {
    var paragraphs: [[Word]] = []
    var words: [Word] = []
    var current = ""
    var currentUnits = 0.0
    var glued = false

    func endWord(glueNext: Bool = false) {
      guard !current.isEmpty else { return }
      words.append(Word(text: current, units: currentUnits, glued: glued))
      current = ""
      currentUnits = 0
      glued = glueNext
    }
    func endParagraph() {
      endWord()
      if !words.isEmpty { paragraphs.append(words) }
      words = []
    }

    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
        endParagraph()
      case 0x09, 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000:
        endWord()
        glued = false
      default:
        guard SVGText.isAllowedInXML(scalar), scalar.value >= 0x20,
          !(0x7F...0x9F).contains(scalar.value)
        else { continue }
        if Self.startsAfterHyphen(current, next: scalar) { endWord(glueNext: true) }
        current.unicodeScalars.append(scalar)
        currentUnits += PosterFont.advance(scalar)
      }
    }
    endParagraph()
    self.paragraphs = paragraphs
  }

  var isEmpty: Bool { paragraphs.isEmpty }

  /// True when `word` ends in a hyphen that follows a letter and `next` is a letter: "FPV-" +
  /// "д". Not for "-5", "--" or a dash standing alone.
  static func startsAfterHyphen(_ word: String, next: Unicode.Scalar) -> Bool {
    let scalars = word.unicodeScalars
    guard scalars.count >= 2, scalars.last == "-", next.properties.isAlphabetic else {
      return false
    }
    return scalars[scalars.index(scalars.endIndex, offsetBy: -2)].properties.isAlphabetic
  }
}

/// How a piece of text wants to be set, and how far it may give way.
struct TextStyle: Sendable {
  /// Preferred font size in pixels.
  var fontSize: Double
  /// Smallest size before the text may take more than `maxLines` lines.
  var minFontSize: Double
  /// Preferred maximum number of lines.
  var maxLines: Int
  /// Line height as a multiple of the font size.
  var lineSpacing: Double = 1.18
  /// Largest size for a short text that has room to grow; up to it, the text is set as large
  /// as fits without taking more lines than at `fontSize`.
  var maxFontSize: Double?
  /// Never broken inside a word, not even as a last resort: amounts with their currency.
  var keepsWords = false
}

/// Text broken into lines at one font size.
struct TextFit: Sendable {
  var lines: [String]
  /// Width of each line in pixels.
  var lineWidths: [Double]
  var fontSize: Double
  var lineSpacing: Double

  var lineHeight: Double { fontSize * lineSpacing }
  var width: Double { lineWidths.max() ?? 0 }
  var height: Double { Double(lines.count) * lineHeight }
}

enum TextFitter {
  /// Fits `text` into `maxWidth` × `maxHeight`, never cutting or overflowing while avoidable:
  /// 1. wrap at word boundaries, shrinking step by step from the preferred size down to the
  ///    minimum size, until it takes at most `maxLines` lines;
  /// 2. the same, allowing over-long words to break;
  /// 3. below the minimum size (down to 14 px) allow more lines while they fit the height;
  /// 4. only if even that fails, keep the lines that fit and end the last one with "…".
  /// A text that fits at the preferred size grows towards `maxFontSize` while it keeps its
  /// number of lines. Words break only at spaces and after hyphens until step 2; a style that
  /// `keepsWords` never breaks one and shrinks to the floor instead.
  static func fit(
    _ text: PreparedText, style: TextStyle, maxWidth: Double, maxHeight: Double
  ) -> TextFit {
    if let largest = style.maxFontSize, largest > style.fontSize,
      case let limit = min(
        style.maxLines, linesFitting(maxHeight, size: style.fontSize, style: style)),
      limit > 0,
      let base = wrap(
        text, size: style.fontSize, spacing: style.lineSpacing, maxWidth: maxWidth,
        breakWords: false, lineLimit: limit)
    {
      for size in sizeSteps(from: largest, to: style.fontSize).dropLast() {
        let lines = min(base.lines.count, linesFitting(maxHeight, size: size, style: style))
        guard lines > 0 else { continue }
        if let fit = wrap(
          text, size: size, spacing: style.lineSpacing, maxWidth: maxWidth, breakWords: false,
          lineLimit: lines)
        {
          return fit
        }
      }
      return base
    }
    let breaking = style.keepsWords ? [false] : [false, true]
    let sizes = sizeSteps(from: style.fontSize, to: style.minFontSize)
    for breakWords in breaking {
      for size in sizes {
        let limit = min(style.maxLines, linesFitting(maxHeight, size: size, style: style))
        guard limit > 0 else { continue }
        if let fit = wrap(
          text, size: size, spacing: style.lineSpacing, maxWidth: maxWidth,
          breakWords: breakWords, lineLimit: limit)
        {
          return fit
        }
      }
    }
    // 14 px is the smallest text a 1080 px poster shows; only the longest purposes next to a
    // QR card in the square format get near it.
    let floor = min(style.minFontSize, 14)
    for breakWords in breaking {
      for size in sizeSteps(from: style.minFontSize, to: floor) {
        let limit = linesFitting(maxHeight, size: size, style: style)
        guard limit > 0 else { continue }
        if let fit = wrap(
          text, size: size, spacing: style.lineSpacing, maxWidth: maxWidth,
          breakWords: breakWords, lineLimit: limit)
        {
          return fit
        }
      }
    }
    if style.keepsWords {
      // An amount is short; below the floor it still fits on one line in any design.
      for size in sizeSteps(from: floor, to: 10) {
        if let fit = wrap(
          text, size: size, spacing: style.lineSpacing, maxWidth: maxWidth, breakWords: false,
          lineLimit: max(1, linesFitting(maxHeight, size: size, style: style)))
        {
          return fit
        }
      }
    }
    // Never fewer than one line: the designs always leave room for one at the smallest size.
    let limit = max(1, linesFitting(maxHeight, size: floor, style: style))
    return truncated(
      text, size: floor, spacing: style.lineSpacing, maxWidth: maxWidth, lines: limit)
  }

  private static func linesFitting(_ height: Double, size: Double, style: TextStyle) -> Int {
    max(0, Int((height + 0.01) / (size * style.lineSpacing)))
  }

  /// Preferred size first, then about 6 % smaller each step (rounded to half pixels).
  static func sizeSteps(from start: Double, to end: Double) -> [Double] {
    var sizes = [start]
    var size = start
    while size > end {
      size = max(end, ((size * 0.94) * 2).rounded(.down) / 2)
      sizes.append(size)
    }
    return sizes
  }

  /// Greedy word wrap; `nil` when it needs more than `lineLimit` lines or a word does not fit
  /// and may not be broken.
  static func wrap(
    _ text: PreparedText, size: Double, spacing: Double, maxWidth: Double, breakWords: Bool,
    lineLimit: Int
  ) -> TextFit? {
    let scale = size / PosterFont.unitsPerEm
    let maxUnits = (maxWidth + 0.01) / scale
    let space = PreparedText.spaceUnits
    var lines: [String] = []
    var widths: [Double] = []
    var line = ""
    var lineUnits = 0.0
    var lineHasText = false

    func flush() -> Bool {
      lines.append(line)
      widths.append(lineUnits * scale)
      line = ""
      lineUnits = 0
      lineHasText = false
      return lines.count <= lineLimit
    }

    for paragraph in text.paragraphs {
      for word in paragraph {
        let gap = word.glued ? 0 : space
        if lineHasText, lineUnits + gap + word.units <= maxUnits {
          if !word.glued { line += " " }
          line += word.text
          lineUnits += gap + word.units
          continue
        }
        if lineHasText, !flush() { return nil }
        if word.units <= maxUnits {
          line = word.text
          lineUnits = word.units
          lineHasText = true
          continue
        }
        guard breakWords else { return nil }
        for piece in pieces(of: word.text, maxUnits: maxUnits) {
          if lineHasText, !flush() { return nil }
          line = piece.text
          lineUnits = piece.units
          lineHasText = true
        }
      }
      if lineHasText, !flush() { return nil }
    }
    if lines.isEmpty {
      return TextFit(lines: [], lineWidths: [], fontSize: size, lineSpacing: spacing)
    }
    return TextFit(lines: lines, lineWidths: widths, fontSize: size, lineSpacing: spacing)
  }

  /// Splits an over-long word between characters so that every piece fits.
  private static func pieces(of word: String, maxUnits: Double) -> [PreparedText.Word] {
    var result: [PreparedText.Word] = []
    var piece = ""
    var units = 0.0
    for character in word {
      let width = PosterFont.units(String(character))
      if !piece.isEmpty, units + width > maxUnits {
        result.append(PreparedText.Word(text: piece, units: units))
        piece = ""
        units = 0
      }
      piece.append(character)
      units += width
    }
    if !piece.isEmpty { result.append(PreparedText.Word(text: piece, units: units)) }
    return result
  }

  /// Last resort for absurdly long text: the first `lines` lines, the last ending in "…".
  private static func truncated(
    _ text: PreparedText, size: Double, spacing: Double, maxWidth: Double, lines count: Int
  ) -> TextFit {
    let all =
      wrap(
        text, size: size, spacing: spacing, maxWidth: maxWidth, breakWords: true,
        lineLimit: Int.max)
      ?? TextFit(lines: [], lineWidths: [], fontSize: size, lineSpacing: spacing)
    guard all.lines.count > count else { return all }
    var lines = Array(all.lines.prefix(count))
    var widths = Array(all.lineWidths.prefix(count))
    let scale = size / PosterFont.unitsPerEm
    let ellipsis = "…"
    var last = lines[count - 1]
    while !last.isEmpty, PosterFont.units(last + ellipsis) * scale > maxWidth {
      last.removeLast()
    }
    while last.last == " " { last.removeLast() }
    last += ellipsis
    lines[count - 1] = last
    widths[count - 1] = PosterFont.units(last) * scale
    return TextFit(lines: lines, lineWidths: widths, fontSize: size, lineSpacing: spacing)
  }
}
