import Foundation

/// The story format's own composition. A story is seen full screen on a phone, one after
/// another: the photo leads, large, across the top; the purpose follows in big type and the goal
/// under it, all in one column. Each template keeps its identity (background, photo shape, frame
/// and tilt, text boxes and colours, alignment, the wording of its goal); only the arrangement
/// is the story's.
enum PosterStoryDesign {
  private static let S = PosterFrame.side
  private static let margin = 0.06 * S
  private static let gap = 0.045 * S

  /// `square` is the template's design for the same frame, read for its looks.
  static func design(
    from square: PosterDesign, frame f: PosterFrame, content c: PosterContent
  ) -> PosterDesign {
    let purposeLook = square.groups.first { $0.kind == .purpose }
    let goalLook = square.groups.first { $0.kind == .goal }
    let purposeStyle = storyStyle(purposeLook?.style ?? .free(.center))
    let goalStyle = storyStyle(goalLook?.style ?? purposeStyle)
    let width = f.width - 2 * margin
    let available = f.contentHeight - 2 * margin
    let minimumPhoto = 0.3 * S

    let goal = c.goalGroup(
      wording(of: goalLook, content: c), labelSize: 0.05 * S, valueSize: 0.085 * S,
      style: goalStyle, maxWidth: width, maxHeight: 0.3 * available)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let purpose = c.purposeGroup(
      size: 0.06 * S, maxLines: 16, style: purposeStyle, maxWidth: width,
      maxHeight: available - goalSpace - gap - minimumPhoto)
    let textHeight = purpose.height + gap + goalSpace

    // The photo takes what the text leaves. It may reach into the top safe zone (the story
    // app's header covers a strip of picture, never text), down to half of it.
    var slot = square.slot
    let photoTop = f.top / 2 + margin / 2
    let photoHeight = max(
      minimumPhoto, min(1.1 * width, f.bottom - margin - textHeight - gap - photoTop))
    var size: (width: Double, height: Double)
    switch slot.shape {
    case .roundedRect:
      // A tilted card is narrower so that its corners stay inside the margins.
      let tilt = abs(slot.rotation) * .pi / 180
      let w = width * (tilt > 0 ? 0.8 : 1)
      size = (w, max(0.5 * photoHeight, (photoHeight - w * sin(tilt)) / cos(tilt)))
    case .circle, .hexagon:
      let side = min(photoHeight, 0.8 * width)
      size = (side, side)
    }
    func placed(_ y: Double) -> PosterPhotoSlot {
      PosterPhotoSlot(
        shape: slot.shape,
        frame: PosterRect(
          x: (f.width - size.width) / 2, y: y, width: size.width, height: size.height),
        rotation: slot.rotation, decoration: slot.decoration)
    }
    let bounds = placed(0).bounds
    // What is left over goes half above the photo and half below the text.
    let spare = max(0, f.bottom - margin - photoTop - bounds.height - gap - textHeight)
    slot = placed(photoTop + spare / 2 - bounds.minY)
    let top = photoTop + spare / 2 + bounds.height + gap

    let align = purposeStyle.align
    var y = top
    var groups = [
      purpose.placed(horizontally: align, in: (margin, f.width - margin), top: y)
    ]
    y += purpose.height + gap
    if let goal {
      groups.append(
        goal.placed(horizontally: goalStyle.align, in: (margin, f.width - margin), top: y))
    }
    return PosterDesign(background: square.background, slot: slot, groups: groups)
  }

  /// The template's text style, upright: a story's column has no room for tilted text.
  private static func storyStyle(_ style: GroupStyle) -> GroupStyle {
    var style = style
    style.rotation = 0
    return style
  }

  /// How the template words its goal, read back from its square design.
  private static func wording(of group: PosterTextGroup?, content c: PosterContent) -> GoalWording {
    guard let group, !group.paragraphs.contains(where: { $0.role == .goalLabel }),
      let value = group.paragraphs.first(where: { $0.role == .goalValue }),
      let number = c.goalNumber
    else { return .labelled }
    let text = value.lines.joined(separator: " ")
    guard let range = text.range(of: number) else { return .labelled }
    return .prefixed(String(text[..<range.lowerBound]))
  }
}
