import Foundation

/// The report poster's composition: one column of text above the QR card, on the template's
/// own background, in the template's text boxes and alignment. There is no photo; the text
/// is set as large as the column allows, then centred in it.
enum ReportPosterDesign {
  private static let S = PosterFrame.side
  private static let margin = 0.06 * S
  /// Largest sizes, for the square; every size and gap shrinks together until all fits.
  private static let headlineSize = 0.09 * S
  private static let purposeSize = 0.045 * S
  private static let totalSize = 0.052 * S
  private static let purchaseSize = 0.04 * S
  private static let moreSize = 0.034 * S
  private static let groupGap = 0.04 * S
  private static let itemGap = 0.014 * S
  private static let purchaseLines = 2
  /// The smallest scale: purchases at 0.4 × 43 px stay above the 14 px floor.
  private static let smallestScale = 0.4

  static func design(
    _ template: PosterTemplate, frame f: PosterFrame, content c: ReportPosterContent
  ) -> PosterDesign {
    // The campaign poster's design for the same frame, read for its background and text look.
    let look = PosterDesigns.design(
      template, frame: f,
      content: PosterContent(PosterInput(purpose: PosterInput.placeholderPurpose, goal: 1)))
    let column = PosterRect(
      x: margin, y: f.top + margin, width: f.width - 2 * margin,
      height: f.contentHeight - 2 * margin)
    var style = look.groups.first { $0.kind == .purpose }?.style ?? .free(.center)
    style.rotation = 0
    style = readable(style, over: look.background, in: column)
    var listStyle = style
    listStyle.align = .left

    var scale = 1 + 0.2 * f.grow
    var groups = measured(c, scale: scale, style: style, listStyle: listStyle, frame: f)
    while height(of: groups, scale: scale) > column.height, scale > smallestScale {
      scale = max(smallestScale, scale * 0.94)
      groups = measured(c, scale: scale, style: style, listStyle: listStyle, frame: f)
    }

    let total = height(of: groups, scale: scale)
    var y = column.minY + max(0, (column.height - total) / 2)
    var placed: [PosterTextGroup] = []
    for group in groups {
      placed.append(
        group.placed(horizontally: style.align, in: (column.minX, column.maxX), top: y))
      y += group.height + groupGap * scale
    }
    let noPhoto = PosterPhotoSlot(
      shape: .roundedRect(cornerRadius: 0), frame: PosterRect(x: 0, y: 0, width: 0, height: 0),
      rotation: 0, decoration: SlotDecoration())
    return PosterDesign(background: look.background, slot: noPhoto, groups: placed)
  }

  private static func height(of groups: [MeasuredGroup], scale: Double) -> Double {
    groups.reduce(0) { $0 + $1.height } + Double(max(0, groups.count - 1)) * groupGap * scale
  }

  /// The headline with the purpose, the totals and the purchases, fitted at `scale`.
  private static func measured(
    _ c: ReportPosterContent, scale: Double, style: GroupStyle, listStyle: GroupStyle,
    frame f: PosterFrame
  ) -> [MeasuredGroup] {
    let width = f.width - 2 * margin
    let textWidth = width - 2 * style.padding
    // The column's height caps nothing here: the caller shrinks `scale` until all fits.
    func group(
      _ kind: PosterTextGroup.Kind, _ paragraphs: [ParagraphSpec], _ style: GroupStyle
    ) -> MeasuredGroup {
      MeasuredGroup(
        kind: kind, paragraphs: paragraphs, bar: nil, style: style, maxWidth: width,
        maxHeight: 100_000)
    }
    /// A line that keeps its size and whole words: its text was shortened to fit already.
    func fixed(
      _ role: PosterParagraph.Role, _ text: PreparedText, size: Double, lines: Int, gap: Double
    ) -> ParagraphSpec {
      ParagraphSpec(
        role: role, text: text,
        style: TextStyle(fontSize: size, minFontSize: size, maxLines: lines, keepsWords: true),
        gapBefore: gap)
    }
    /// A short line that may shrink a little to stay on one line, never breaking a word.
    func single(
      _ role: PosterParagraph.Role, _ text: String, size: Double, gap: Double
    ) -> ParagraphSpec {
      ParagraphSpec(
        role: role, text: PreparedText(text),
        style: TextStyle(
          fontSize: size, minFontSize: (size * 0.75).rounded(), maxLines: 1, keepsWords: true),
        gapBefore: gap)
    }

    var groups: [MeasuredGroup] = []
    // The fitter's own line spacing, so that shortened text wraps as it will be set.
    let spacing = TextStyle(fontSize: 1, minFontSize: 1, maxLines: 1).lineSpacing
    let purposeSize = (Self.purposeSize * scale).rounded()
    let purposeLines = 3 + f.extraLines
    let purpose = TextFitter.shortened(
      c.purpose, forceEllipsis: c.purposeCut, size: purposeSize, spacing: spacing,
      maxWidth: textWidth, lines: purposeLines)
    groups.append(
      group(
        .headline,
        [
          single(
            .headline, ReportPosterContent.headline, size: (headlineSize * scale).rounded(), gap: 0),
          fixed(.purpose, purpose, size: purposeSize, lines: purposeLines, gap: itemGap * scale),
        ], style))

    let totalSize = (Self.totalSize * scale).rounded()
    groups.append(
      group(
        .totals,
        [
          single(.collected, c.raised, size: totalSize, gap: 0),
          single(.spent, c.spent, size: totalSize, gap: itemGap * scale),
        ], style))

    guard !c.purchases.isEmpty else { return groups }
    let purchaseSize = (Self.purchaseSize * scale).rounded()
    let listWidth = width - 2 * listStyle.padding
    var items: [ParagraphSpec] = c.purchases.enumerated().map { index, purchase in
      let text = TextFitter.shortened(
        purchase.title, tail: purchase.amount, forceEllipsis: purchase.titleCut,
        size: purchaseSize, spacing: spacing, maxWidth: listWidth, lines: purchaseLines)
      return fixed(
        .purchase, text, size: purchaseSize, lines: purchaseLines,
        gap: index == 0 ? 0 : itemGap * scale)
    }
    if let more = c.more {
      items.append(
        single(.morePurchases, more, size: (moreSize * scale).rounded(), gap: itemGap * scale))
    }
    groups.append(group(.purchases, items, listStyle))
    return groups
  }

  /// `style`, or a darker box under the text when white text on it would fall below WCAG AA
  /// somewhere in `area`: the designs were checked with a photo covering part of the poster,
  /// and a report poster sets text everywhere.
  private static func readable(
    _ style: GroupStyle, over background: PosterBackground, in area: PosterRect
  ) -> GroupStyle {
    func lowest(_ style: GroupStyle) -> Double {
      let text = style.textColor ?? .white
      var box: PosterColor?
      if case .fill(let color) = style.backdrop { box = color }
      var result = Double.infinity
      let steps = 16
      for i in 0...steps {
        for j in 0...steps {
          let point = PosterPoint(
            x: area.minX + area.width * Double(i) / Double(steps),
            y: area.minY + area.height * Double(j) / Double(steps))
          var under = PosterContrast.color(of: background, at: point)
          if let box { under = PosterContrast.blend(box, over: under) }
          result = min(result, PosterContrast.ratio(text, under))
        }
      }
      return result
    }
    // A little above the minimum: the grid may miss the very lightest spot between points.
    let wanted = PosterContrast.minimumRatio + 0.1
    if lowest(style) >= wanted { return style }
    var boxed = style
    for opacity in [0.35, 0.45, 0.55, 0.65, 0.75, 0.85] {
      boxed = GroupStyle.box(style.align, .black, opacity: opacity)
      if case .fill(let color) = style.backdrop {
        boxed = GroupStyle.box(style.align, color.withOpacity(1), opacity: opacity)
        boxed.padding = style.padding
      }
      if lowest(boxed) >= wanted { return boxed }
    }
    return boxed
  }
}
