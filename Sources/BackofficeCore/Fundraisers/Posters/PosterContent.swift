import Foundation

/// The texts a poster can show, prepared once per render.
struct PosterContent: Sendable {
  var purpose: PreparedText
  /// "15 000" when there is a goal.
  var goalNumber: String?
  /// "Зібрано: 7 500 грн." when progress is shown.
  var collected: String?
  var fraction: Double

  init(_ input: PosterInput) {
    var purpose = PreparedText(input.purpose)
    if purpose.isEmpty { purpose = PreparedText(PosterInput.placeholderPurpose) }
    self.purpose = purpose
    goalNumber = input.goal.map { Hryvnia.formatNumber($0) }
    collected = input.progress.map {
      "Зібрано: " + Hryvnia.formatNumber($0.collected) + nbsp + "грн."
    }
    let fraction = input.progress?.fraction ?? 0
    self.fraction = fraction.isFinite ? min(1, max(0, fraction)) : 0
  }
}

private let nbsp = "\u{00A0}"
/// Sizes are written as fractions of the square design's side.
private let S = PosterFrame.side

/// How the goal is worded.
enum GoalWording {
  /// "ціль збору:" over "15 000 грн."
  case labelled
  /// One line: prefix + "15 000 грн.", e.g. "Ціль: 15 000 грн."
  case prefixed(String)
}

extension GroupStyle {
  /// Text straight on the background.
  static func free(_ align: TextAlign) -> GroupStyle {
    GroupStyle(align: align, textShadow: true)
  }

  /// Text on a translucent box.
  static func box(
    _ align: TextAlign, _ color: PosterColor, opacity: Double, rotation: Double = 0
  ) -> GroupStyle {
    GroupStyle(
      align: align, backdrop: .fill(color.withOpacity(opacity)), padding: 0.028 * S,
      cornerRadius: 0.02 * S, rotation: rotation)
  }
}

extension PosterContent {
  func purposeGroup(
    size: Double, maxLines: Int, style: GroupStyle, maxWidth: Double, maxHeight: Double
  ) -> MeasuredGroup {
    let paragraph = ParagraphSpec(
      role: .purpose, text: purpose,
      style: TextStyle(
        fontSize: size, minFontSize: (size * 0.62).rounded(), maxLines: maxLines,
        maxFontSize: (size * 1.5).rounded()),
      gapBefore: 0)
    return MeasuredGroup(
      kind: .purpose, paragraphs: [paragraph], bar: nil, style: style, maxWidth: maxWidth,
      maxHeight: maxHeight)
  }

  /// The goal block (label and value, or one phrase) plus "Зібрано" and the progress bar;
  /// `nil` when there is neither a goal nor progress.
  func goalGroup(
    _ wording: GoalWording, labelSize: Double = 0.045 * S, valueSize: Double,
    style: GroupStyle, maxWidth: Double, maxHeight: Double
  ) -> MeasuredGroup? {
    var paragraphs: [ParagraphSpec] = []
    func add(_ role: PosterParagraph.Role, _ text: String, _ size: Double, gap: Double) {
      paragraphs.append(
        ParagraphSpec(
          role: role, text: PreparedText(text),
          style: TextStyle(
            fontSize: size, minFontSize: (size * 0.6).rounded(), maxLines: 1, keepsWords: true),
          gapBefore: gap))
    }
    if let goalNumber {
      let value = goalNumber + nbsp + "грн."
      switch wording {
      case .labelled:
        add(.goalLabel, "ціль збору:", labelSize, gap: 0)
        add(.goalValue, value, valueSize, gap: 0.004 * S)
      case .prefixed(let prefix):
        add(.goalValue, prefix + value, valueSize, gap: 0)
      }
    }
    var bar: BarSpec?
    if let collected {
      let size = min(0.045 * S, max(0.036 * S, valueSize * 0.6))
      add(.collected, collected, size, gap: 0.018 * S)
      bar = BarSpec(height: 0.022 * S, minWidth: 0.3 * S, fraction: fraction, gapBefore: 0.016 * S)
    }
    guard !paragraphs.isEmpty else { return nil }
    return MeasuredGroup(
      kind: .goal, paragraphs: paragraphs, bar: bar, style: style, maxWidth: maxWidth,
      maxHeight: maxHeight)
  }
}
