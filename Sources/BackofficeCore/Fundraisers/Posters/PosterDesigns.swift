import Foundation

/// Sizes are written as fractions of the square design's side.
private let S = PosterFrame.side
/// Distance of text from the edges of its area.
private let margin = 0.06 * S
/// Space between stacked parts.
private let gap = 0.04 * S

/// Top of a block of `height` centred between `top` and `bottom` (at `top` if it does not fit).
private func centred(_ height: Double, between top: Double, _ bottom: Double) -> Double {
  top + max(0, (bottom - top - height) / 2)
}

private func rounded(_ rect: PosterRect, radius: Double, rotation: Double = 0) -> PosterPhotoSlot {
  PosterPhotoSlot(
    shape: .roundedRect(cornerRadius: radius), frame: rect, rotation: rotation,
    decoration: SlotDecoration())
}

private func centredRect(_ cx: Double, _ cy: Double, _ w: Double, _ h: Double) -> PosterRect {
  PosterRect(x: cx - w / 2, y: cy - h / 2, width: w, height: h)
}

private func hex(_ value: UInt32) -> PosterColor { PosterColor(hex: value) }

/// A box in a deep shade of the design's own colours under white text, for backgrounds light
/// enough that white text alone would fall below 4.5:1 (WCAG AA) somewhere; at this opacity
/// the box keeps AA over the lightest colour of its gradient (`PosterContrastTests`).
private func scrim(_ align: TextAlign, _ tint: UInt32) -> GroupStyle {
  var style = GroupStyle.box(align, hex(tint), opacity: 0.68)
  style.padding = 0.018 * S
  return style
}

private func stops(_ colors: [(Double, UInt32)]) -> [GradientStop] {
  colors.map { GradientStop(location: $0.0, color: hex($0.1)) }
}

enum PosterDesigns {
  static func design(
    _ template: PosterTemplate, frame f: PosterFrame, content c: PosterContent
  ) -> PosterDesign {
    switch template {
    case .blueLinear: blueLinear(f, c)
    case .cyanMagentaRadial: tiltedCard(f, c, template: template)
    case .linearPurple: linearPurple(f, c)
    case .goldBlackLinear: hexagon(f, c, template: template)
    case .pinkAngular: pinkAngular(f, c)
    case .tealPurpleRadial: circle(f, c, template: template)
    case .linearGreen: linearGreen(f, c)
    case .angularYellowBlue: angularYellowBlue(f, c)
    case .linearSilverBlue: linearSilverBlue(f, c)
    case .radialRedBlack: radialRedBlack(f, c)
    case .linearIndigoOrange: sideSquare(f, c, template: template)
    case .linearEmeraldBlack: hexagon(f, c, template: template)
    case .radialAquaPurple: tiltedCard(f, c, template: template)
    case .radialMintIndigo: circle(f, c, template: template)
    case .linearCoralTeal: sideSquare(f, c, template: template)
    }
  }

  // MARK: Stacked designs: text above/below the photo

  /// 1: centred rounded square with a light border and shadow; purpose above, goal below.
  private static func blueLinear(_ f: PosterFrame, _ c: PosterContent) -> PosterDesign {
    let width = f.width - 2 * 0.08 * S
    let goal = c.goalGroup(
      .labelled, labelSize: 0.055 * S, valueSize: 0.065 * S, style: scrim(.center, 0x191970),
      maxWidth: width, maxHeight: 0.32 * f.contentHeight)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let available = f.contentHeight - 2 * margin
    let purpose = c.purposeGroup(
      size: 0.048 * S, maxLines: 2 + f.extraLines, style: scrim(.center, 0x191970), maxWidth: width,
      maxHeight: available - goalSpace - gap - f.photoReserve(0.36 * S))
    let side = min(0.5 * S * (1 + 0.2 * f.grow), available - purpose.height - gap - goalSpace)
    var y = f.top + (f.contentHeight - side) / 2
    y = max(y, f.top + margin + purpose.height + gap)
    y = min(y, f.bottom - margin - goalSpace - side)
    var slot = rounded(
      PosterRect(x: (f.width - side) / 2, y: y, width: side, height: side), radius: 0.025 * S)
    slot.decoration = SlotDecoration(
      stroke: .solid(.white.withOpacity(0.3), width: 0.006 * S), shadow: true)
    var groups = [
      purpose.placed(
        horizontally: .center, in: (0, f.width),
        top: centred(purpose.height, between: f.top + margin, y - gap))
    ]
    if let goal {
      groups.append(
        goal.placed(
          horizontally: .center, in: (0, f.width),
          top: centred(goal.height, between: y + side + gap, f.bottom - margin)))
    }
    return PosterDesign(
      background: .linear(
        from: PosterPoint(x: 0, y: 0), to: PosterPoint(x: f.width, y: f.height),
        stops: stops([(0, 0x191970), (1, 0x87CEEB)])),
      slot: slot, groups: groups)
  }

  /// 3: wide photo at the top, purpose centred below, "Ціль: …" bottom right.
  private static func linearPurple(_ f: PosterFrame, _ c: PosterContent) -> PosterDesign {
    let photoWidth = 885.0
    let side = (f.width - photoWidth) / 2
    let photoTop = f.top + 93 * (1 + 0.3 * f.grow)
    let goal = c.goalGroup(
      .prefixed("Ціль: "), valueSize: 0.08 * S, style: .free(.right),
      maxWidth: f.width - 2 * side, maxHeight: 0.3 * f.contentHeight)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let purpose = c.purposeGroup(
      size: 0.06 * S, maxLines: 3 + f.extraLines, style: .free(.center), maxWidth: photoWidth,
      maxHeight: f.bottom - margin - goalSpace - gap - photoTop - f.photoReserve(0.28 * S))
    let height = min(
      422 + 0.6 * f.extra, f.bottom - margin - goalSpace - purpose.height - gap - photoTop)
    let slot = rounded(
      PosterRect(x: side, y: photoTop, width: photoWidth, height: height), radius: 0.02 * S)
    var groups = [
      purpose.placed(
        horizontally: .center, in: (0, f.width),
        top: centred(
          purpose.height, between: photoTop + height + gap, f.bottom - margin - goalSpace))
    ]
    if let goal {
      groups.append(
        goal.placed(
          horizontally: .right, in: (side, f.width - side),
          top: f.bottom - margin - goal.height))
    }
    return PosterDesign(
      background: .linear(
        from: PosterPoint(x: 0, y: 0), to: PosterPoint(x: 0, y: f.height),
        stops: stops([(0, 0x5A4CAD), (0.5, 0x4E4296), (1, 0x251F47)])),
      slot: slot, groups: groups)
  }

  /// 5: wide photo at the top, purpose centred under it, goal centred at the bottom.
  private static func pinkAngular(_ f: PosterFrame, _ c: PosterContent) -> PosterDesign {
    let photoWidth = 0.8 * S
    let photoTop = f.top + margin
    let goal = c.goalGroup(
      .labelled, labelSize: 0.06 * S, valueSize: 0.075 * S, style: scrim(.center, 0x5C0A3A),
      maxWidth: f.width - 2 * margin, maxHeight: 0.32 * f.contentHeight)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let purpose = c.purposeGroup(
      size: 0.055 * S, maxLines: 3 + f.extraLines, style: scrim(.center, 0x5C0A3A),
      maxWidth: photoWidth,
      maxHeight: f.bottom - margin - goalSpace - gap - photoTop - f.photoReserve(0.28 * S))
    let height = min(
      0.45 * S + 0.5 * f.extra,
      f.bottom - margin - goalSpace - purpose.height - gap - photoTop)
    let slot = rounded(
      PosterRect(x: (f.width - photoWidth) / 2, y: photoTop, width: photoWidth, height: height),
      radius: 0.02 * S)
    var groups = [
      purpose.placed(
        horizontally: .center, in: (0, f.width),
        top: centred(
          purpose.height, between: photoTop + height + gap, f.bottom - margin - goalSpace))
    ]
    if let goal {
      groups.append(
        goal.placed(
          horizontally: .center, in: (0, f.width), top: f.bottom - margin - goal.height))
    }
    return PosterDesign(
      // The fan's centre lies outside the canvas, below and left of it: at the corner itself
      // every colour met in one point and showed as a pale blot there.
      background: .conic(
        center: PosterPoint(x: -0.25 * f.width, y: f.height + 0.25 * f.width), startAngle: 45,
        stops: stops([(0, 0xFF1493), (0.4, 0xC71585), (1, 0xFFC0CB)])),
      slot: slot, groups: groups)
  }

  /// 9: wide photo top right; "Збір на …" and the purpose right-aligned at the bottom.
  private static func linearSilverBlue(_ f: PosterFrame, _ c: PosterContent) -> PosterDesign {
    let photoWidth = 838.0
    let photoTop = f.top + margin
    let goal = c.goalGroup(
      .prefixed("Збір на "), valueSize: 0.08 * S, style: scrim(.right, 0x1B3A4F),
      maxWidth: f.width - 2 * margin, maxHeight: 0.3 * f.contentHeight)
    let goalSpace = goal.map { $0.height + 0.02 * S } ?? 0
    let purpose = c.purposeGroup(
      size: 0.055 * S, maxLines: 3 + f.extraLines, style: scrim(.right, 0x1B3A4F),
      maxWidth: 0.8 * S,
      maxHeight: f.bottom - margin - goalSpace - gap - photoTop - f.photoReserve(0.28 * S))
    let stack = goalSpace + purpose.height
    let height = min(432 + 0.9 * f.extra, f.bottom - margin - stack - gap - photoTop)
    let slot = rounded(
      PosterRect(
        x: f.width - margin - photoWidth, y: photoTop, width: photoWidth, height: height),
      radius: 0.02 * S)
    var groups: [PosterTextGroup] = []
    let stackTop = f.bottom - margin - stack
    if let goal {
      groups.append(
        goal.placed(horizontally: .right, in: (margin, f.width - margin), top: stackTop))
    }
    groups.append(
      purpose.placed(
        horizontally: .right, in: (margin, f.width - margin), top: stackTop + goalSpace))
    return PosterDesign(
      background: .linear(
        from: PosterPoint(x: 0, y: 0), to: PosterPoint(x: f.width, y: 0),
        stops: stops([(0, 0x95C5E5), (0.235, 0x88B4D1), (0.559, 0x8ABFE2), (1, 0x386786)])),
      slot: slot, groups: groups)
  }

  // MARK: Column designs: photo on one side, text in a column beside it

  /// 7: full-height photo strip on the right; purpose top left, goal bottom left.
  private static func linearGreen(_ f: PosterFrame, _ c: PosterContent) -> PosterDesign {
    let stripWidth = 0.35 * S
    let column = min(0.5 * S, f.width - stripWidth - margin - gap)
    let goal = c.goalGroup(
      .labelled, labelSize: 0.05 * S, valueSize: 0.07 * S, style: scrim(.left, 0x2E3A24),
      maxWidth: column, maxHeight: 0.4 * f.contentHeight)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let purpose = c.purposeGroup(
      size: 0.06 * S, maxLines: 5 + 2 * f.extraLines, style: scrim(.left, 0x2E3A24),
      maxWidth: column,
      maxHeight: f.contentHeight - 2 * margin - goalSpace)
    let slot = rounded(
      PosterRect(x: f.width - stripWidth, y: 0, width: stripWidth, height: f.height), radius: 0)
    var groups = [purpose.placed(left: margin, top: f.top + margin)]
    if let goal {
      groups.append(goal.placed(left: margin, top: f.bottom - margin - goal.height))
    }
    return PosterDesign(
      background: .linear(
        from: PosterPoint(x: 0, y: 0), to: PosterPoint(x: 0, y: f.height),
        stops: stops([(0, 0x617152), (1, 0xB9D79D)])),
      slot: slot, groups: groups)
  }

  /// 8: tall photo top right; goal top left with the purpose below it.
  private static func angularYellowBlue(_ f: PosterFrame, _ c: PosterContent) -> PosterDesign {
    let photoWidth = 0.38 * S
    let photoLeft = f.width - margin - photoWidth
    let photoTop = f.top + margin
    let column = photoLeft - gap - margin
    let goal = c.goalGroup(
      .labelled, labelSize: 0.055 * S, valueSize: 0.075 * S, style: scrim(.left, 0x0B2A5B),
      maxWidth: column, maxHeight: 0.35 * f.contentHeight)
    let purposeTop = f.top + margin + (goal.map { $0.height + 0.05 * S } ?? 0)
    let purpose = c.purposeGroup(
      size: 0.05 * S, maxLines: 3 + f.extraLines, style: scrim(.left, 0x0B2A5B), maxWidth: column,
      maxHeight: f.bottom - margin - purposeTop)
    let slot = rounded(
      PosterRect(
        x: photoLeft, y: photoTop, width: photoWidth, height: 0.55 * S + 0.6 * f.extra),
      radius: 0.02 * S)
    var groups: [PosterTextGroup] = []
    if let goal { groups.append(goal.placed(left: margin, top: f.top + margin)) }
    groups.append(purpose.placed(left: margin, top: purposeTop))
    return PosterDesign(
      background: .conic(
        center: PosterPoint(x: 1.25 * f.width, y: 0.35 * f.height), startAngle: 90,
        // The fan opens from outside the right edge: yellow below, blue above, one soft band
        // between them and no point or edge where the fan closes.
        stops: [
          GradientStop(location: 0.19, color: PosterColor(red: 255, green: 184, blue: 15)),
          GradientStop(location: 0.27, color: PosterColor(red: 97, green: 110, blue: 255)),
        ]),
      slot: slot, groups: groups)
  }

  /// 10: tall photo top right, purpose in the left column, goal bottom right.
  private static func radialRedBlack(_ f: PosterFrame, _ c: PosterContent) -> PosterDesign {
    let photoWidth = 0.4 * S
    let photoLeft = f.width - margin - photoWidth
    let photoTop = f.top + margin
    let column = photoLeft - gap - margin
    let goal = c.goalGroup(
      .labelled, labelSize: 0.055 * S, valueSize: 0.08 * S, style: .free(.right),
      maxWidth: f.width - 2 * margin, maxHeight: 0.35 * f.contentHeight)
    let goalTop = f.bottom - margin - (goal?.height ?? 0)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let height = min(728 + 0.6 * f.extra, f.contentHeight - 2 * margin - goalSpace)
    let slot = rounded(
      PosterRect(x: photoLeft, y: photoTop, width: photoWidth, height: height),
      radius: 0.02 * S)
    // The purpose may run down to the bottom unless the goal reaches into its column.
    let goalLeft = f.width - margin - (goal?.width ?? 0)
    let purposeBottom = goalLeft >= margin + column + gap ? f.bottom - margin : goalTop - gap
    let purpose = c.purposeGroup(
      size: 0.06 * S, maxLines: 6 + 2 * f.extraLines, style: .free(.left), maxWidth: column,
      maxHeight: purposeBottom - photoTop)
    var groups = [purpose.placed(left: margin, top: photoTop)]
    if let goal {
      groups.append(goal.placed(horizontally: .right, in: (margin, f.width - margin), top: goalTop))
    }
    return PosterDesign(
      background: .radial(
        center: PosterPoint(x: 0.89 * f.width, y: 0.23 * f.height), startRadius: 0,
        endRadius: 1.5 * S * f.radiusScale, stops: stops([(0, 0xE73535), (1, 0x0C0C0C)])),
      slot: slot, groups: groups)
  }

  /// 11 and 15: a rounded square on one side, purpose and goal boxes on the other corners.
  private static func sideSquare(
    _ f: PosterFrame, _ c: PosterContent, template: PosterTemplate
  ) -> PosterDesign {
    let onRight = template == .linearIndigoOrange
    let side = (onRight ? 0.56 : 0.52) * S * (1 + 0.1 * f.grow)
    let textSide: TextAlign = onRight ? .left : .right
    let purposeStyle: GroupStyle
    let goalStyle: GroupStyle
    let purposeWidth: Double
    if onRight {
      // Deep indigo boxes: white text on the orange half needs them for AA contrast.
      purposeStyle = scrim(.left, 0x1A1446)
      goalStyle = scrim(.left, 0x1A1446)
      purposeWidth = 0.5 * S
    } else {
      purposeStyle = .box(.left, .black, opacity: 0.35)
      goalStyle = .box(.right, .black, opacity: 0.35)
      purposeWidth = 0.52 * S
    }
    let goal = c.goalGroup(
      .labelled, valueSize: 0.06 * S, style: goalStyle, maxWidth: 0.5 * S,
      maxHeight: 0.35 * f.contentHeight)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let purpose = c.purposeGroup(
      size: 0.05 * S, maxLines: 3 + f.extraLines, style: purposeStyle, maxWidth: purposeWidth,
      maxHeight: f.contentHeight - 2 * margin - goalSpace)
    let purposeBottom = f.top + margin + purpose.height
    let goalTop = f.bottom - margin - (goal?.height ?? 0)
    // Centre the photo between the two boxes so they overlap it as little as possible.
    var y = (purposeBottom + goalTop) / 2 - side / 2
    y = min(max(y, f.top + margin), f.bottom - margin - side)
    let x = onRight ? f.width - margin - side : margin
    let slot = rounded(
      PosterRect(x: x, y: y, width: side, height: side), radius: (onRight ? 0.04 : 0.035) * S)
    var groups = [
      purpose.placed(horizontally: textSide, in: (margin, f.width - margin), top: f.top + margin)
    ]
    if let goal {
      groups.append(
        goal.placed(horizontally: textSide, in: (margin, f.width - margin), top: goalTop))
    }
    let colors: [(Double, UInt32)] =
      onRight ? [(0, 0x3F51B5), (1, 0xFF9800)] : [(0, 0xFF7F50), (1, 0x008080)]
    return PosterDesign(
      background: .linear(
        from: PosterPoint(x: 0, y: 0), to: PosterPoint(x: f.width, y: f.height),
        stops: stops(colors)),
      slot: slot, groups: groups)
  }

  // MARK: Corner designs: a shaped photo near the centre, text boxes in opposite corners

  /// Purpose box in one top corner, goal box in the opposite bottom corner.
  private static func cornerBoxes(
    _ f: PosterFrame, _ c: PosterContent, purposeSide: TextAlign, opacity: Double,
    purposeWidth: Double, purposeTilt: Double = 0
  ) -> [PosterTextGroup] {
    let goalSide: TextAlign = purposeSide == .left ? .right : .left
    let goal = c.goalGroup(
      .labelled, valueSize: 0.06 * S, style: .box(goalSide, .black, opacity: opacity),
      maxWidth: 0.5 * S, maxHeight: 0.35 * f.contentHeight)
    let goalSpace = goal.map { $0.height + gap } ?? 0
    let purpose = c.purposeGroup(
      size: 0.05 * S, maxLines: (purposeWidth < 0.5 * S ? 4 : 3) + f.extraLines,
      style: .box(.left, .black, opacity: opacity, rotation: purposeTilt),
      maxWidth: purposeWidth, maxHeight: f.contentHeight - 2 * margin - goalSpace)
    var groups = [
      purpose.placed(
        horizontally: purposeSide, in: (margin, f.width - margin), top: f.top + margin)
    ]
    if let goal {
      groups.append(
        goal.placed(
          horizontally: goalSide, in: (margin, f.width - margin),
          top: f.bottom - margin - goal.height))
    }
    return groups
  }

  /// 2 and 13: a rounded card, tilted and pushed off centre.
  private static func tiltedCard(
    _ f: PosterFrame, _ c: PosterContent, template: PosterTemplate
  ) -> PosterDesign {
    let first = template == .cyanMagentaRadial
    let k = 1 + 0.12 * f.grow
    let rect = centredRect(
      f.width / 2 + (first ? 0.08 : -0.08) * S, f.centerY + 0.12 * S * f.verticalScale,
      0.55 * S * k, 0.40 * S * k + 0.2 * f.extra)
    let slot = rounded(rect, radius: 0.03 * S, rotation: first ? -12 : 10)
    let groups = cornerBoxes(
      f, c, purposeSide: first ? .right : .left, opacity: 0.5, purposeWidth: 0.58 * S)
    let background: PosterBackground =
      first
      ? .radial(
        center: PosterPoint(x: 0, y: f.height), startRadius: 0.2 * S * f.radiusScale,
        endRadius: 1.4 * S * f.radiusScale, stops: stops([(0, 0x00FFFF), (1, 0xFF00FF)]))
      : .radial(
        center: PosterPoint(x: f.width, y: f.height), startRadius: 0.2 * S * f.radiusScale,
        endRadius: 1.4 * S * f.radiusScale, stops: stops([(0, 0x00E5FF), (1, 0x4A148C)]))
    return PosterDesign(background: background, slot: slot, groups: groups)
  }

  /// 4 and 12: a hexagon with a fading outline; purpose on a tilted box.
  private static func hexagon(
    _ f: PosterFrame, _ c: PosterContent, template: PosterTemplate
  ) -> PosterDesign {
    let gold = template == .goldBlackLinear
    let side = 0.58 * S * (1 + 0.12 * f.grow)
    let strokeColor: PosterColor = gold ? hex(0xFFD700) : .white
    let slot = PosterPhotoSlot(
      shape: .hexagon, frame: centredRect(f.width / 2, f.centerY, side, side),
      rotation: gold ? 8 : -8,
      decoration: SlotDecoration(
        stroke: .gradient(from: strokeColor, to: strokeColor.withOpacity(0), width: 0.012 * S)))
    let groups = cornerBoxes(
      f, c, purposeSide: .left, opacity: gold ? 0.6 : 0.55, purposeWidth: 0.42 * S,
      purposeTilt: gold ? -3 : 3)
    let background: PosterBackground =
      gold
      ? .linear(
        from: PosterPoint(x: f.width, y: 0), to: PosterPoint(x: 0, y: f.height),
        stops: stops([(0, 0xFFD700), (1, 0x141414)]))
      : .linear(
        from: PosterPoint(x: 0, y: 0), to: PosterPoint(x: f.width, y: f.height),
        stops: stops([(0, 0x009688), (1, 0x0C0C0C)]))
    return PosterDesign(background: background, slot: slot, groups: groups)
  }

  /// 6 and 14: a circle pushed towards a top corner.
  private static func circle(
    _ f: PosterFrame, _ c: PosterContent, template: PosterTemplate
  ) -> PosterDesign {
    let first = template == .tealPurpleRadial
    let diameter = 0.6 * S * (1 + 0.12 * f.grow)
    let center = PosterPoint(
      x: f.width / 2 + (first ? 0.15 : -0.15) * S,
      y: f.centerY - (first ? 0.10 : 0.08) * S * f.verticalScale)
    let slot = PosterPhotoSlot(
      shape: .circle, frame: centredRect(center.x, center.y, diameter, diameter),
      rotation: first ? 15 : -12, decoration: SlotDecoration())
    let groups = cornerBoxes(
      f, c, purposeSide: first ? .left : .right, opacity: 0.4,
      purposeWidth: first ? 0.55 * S : 0.58 * S)
    let background: PosterBackground =
      first
      ? .radial(
        center: PosterPoint(x: f.width, y: 0), startRadius: 0.1 * S * f.radiusScale,
        endRadius: 1.2 * S * f.radiusScale, stops: stops([(0, 0x20B2AA), (1, 0x4B0082)]))
      : .radial(
        center: PosterPoint(x: 0, y: 0), startRadius: 0.1 * S * f.radiusScale,
        endRadius: 1.2 * S * f.radiusScale, stops: stops([(0, 0x00D287), (1, 0x0A2540)]))
    return PosterDesign(background: background, slot: slot, groups: groups)
  }
}
