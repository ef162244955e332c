import Foundation

/// Sizes are written as fractions of the square design's side.
private let S = PosterFrame.side

/// The white card along the bottom of a poster with the jar's QR code, the call to action and
/// the short link. The design above it is laid out in the space that remains.
public struct PosterShareBlock: Sendable {
  /// The card, in poster pixels; the QR code's quiet zone is part of it.
  public let card: PosterRect
  /// The symbol itself, without the quiet zone.
  public let symbol: PosterRect
  /// The code drawn in `symbol`.
  public let code: QRCode
  /// Poster pixels per module; a whole number so module edges fall on pixel edges.
  public let moduleSize: Int
  /// The call to action and the link, dark on the card.
  public let text: PosterTextGroup

  /// Quiet zone around the symbol, in modules, as the standard asks.
  static let quietZone = 4
  /// Dark modules and text on the white card: 21:1 and 17.4:1 against it.
  static let cardColor = PosterColor.white
  static let moduleColor = PosterColor.black
  static let textColor = PosterColor(hex: 0x1A1A1A)
  static let cornerRadius = 0.012 * S

  /// Lays the block out at the bottom of `frame`; `nil` when the link cannot be encoded.
  init?(_ shared: PosterShare, frame: PosterFrame) {
    guard let code = try? QRCode(shared.link, correction: .medium) else { return nil }
    let modules = code.size + 2 * Self.quietZone
    // About a sixth of the side in the square format, where room is short, and a fifth in the
    // taller ones: a phone reads either from a screen or a printed A4 sheet.
    let share = frame.contentHeight > S ? 0.18 : 0.15
    let moduleSize = max(3, Int((share * S / Double(modules)).rounded(.down)))
    let side = Double(modules * moduleSize)
    let inset = (0.06 * S).rounded()
    let cardBottom = (frame.bottom - 0.045 * S).rounded(.down)
    let card = PosterRect(
      x: inset, y: cardBottom - side, width: frame.width - 2 * inset, height: side)
    let quiet = Double(Self.quietZone * moduleSize)
    let symbol = PosterRect(
      x: card.x + quiet, y: card.y + quiet, width: Double(code.size * moduleSize),
      height: Double(code.size * moduleSize))

    let textLeft = card.x + side + 0.01 * S
    let textWidth = card.maxX - 0.035 * S - textLeft
    var style = GroupStyle(align: .left)
    style.textColor = Self.textColor
    func paragraph(
      _ role: PosterParagraph.Role, _ text: String, size: Double, lines: Int, gap: Double
    ) -> ParagraphSpec {
      ParagraphSpec(
        role: role, text: PreparedText(text),
        style: TextStyle(fontSize: size, minFontSize: (size * 0.65).rounded(), maxLines: lines),
        gapBefore: gap)
    }
    let measured = MeasuredGroup(
      kind: .share,
      paragraphs: [
        paragraph(.callToAction, shared.callToAction, size: 0.056 * S, lines: 2, gap: 0),
        paragraph(.link, shared.linkText, size: 0.03 * S, lines: 2, gap: 0.008 * S),
      ],
      bar: nil, style: style, maxWidth: textWidth, maxHeight: side - 0.02 * S)
    let text = measured.placed(
      left: textLeft, top: card.y + max(0, (side - measured.height) / 2))

    self.card = card
    self.symbol = symbol
    self.code = code
    self.moduleSize = moduleSize
    self.text = text
  }

  /// Where the design above the block must end.
  var designBottom: Double { card.minY }
}
