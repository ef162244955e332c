import Foundation

/// Draws the thank-you poster a volunteer posts when a fundraiser ends, on the same templates,
/// type and QR card as the campaign posters (`PosterRenderer`).
///
/// The same input always gives the same bytes.
public enum ReportPosterRenderer {
  /// How many purchases the poster lists at most.
  public static let purchaseLimit = 5

  /// Where everything goes on the poster, without drawing it.
  public static func layout(
    _ input: ReportPosterInput, template: PosterTemplate, format: PosterFormat
  ) -> PosterLayout {
    let frame = PosterFrame(format)
    let share = input.share.flatMap { PosterShareBlock($0, frame: frame) }
    let designFrame = share.map { frame.ending(at: $0.designBottom) } ?? frame
    let content = ReportPosterContent(input)
    let design = ReportPosterDesign.design(template, frame: designFrame, content: content)
    return PosterLayout(
      template: template, format: format,
      canvas: PosterRect(x: 0, y: 0, width: frame.width, height: frame.height),
      textArea: frame.textArea, photoSlot: design.slot, textGroups: design.groups,
      share: share, background: design.background, drawsPhotoSlot: false)
  }

  /// The poster as a standalone SVG document (`width`, `height` and `viewBox` in pixels).
  public static func render(
    _ input: ReportPosterInput, template: PosterTemplate, format: PosterFormat,
    options: PosterRenderOptions = PosterRenderOptions()
  ) -> String {
    let layout = layout(input, template: template, format: format)
    var writer = PosterSVGWriter(
      idPrefix: PosterRenderer.sanitizedPrefix(options.idPrefix)
        ?? "r\(template.number)\(format.rawValue)")
    return writer.document(layout, photo: nil, embedFont: options.embedFont)
  }

  /// The purchases the poster lists, in the order shown: the five largest, largest first;
  /// equal amounts keep their input order. An amount that is not a number comes last.
  public static func shownPurchases(_ purchases: [ReportPurchase]) -> [ReportPurchase] {
    let ranked = purchases.enumerated().sorted { a, b in
      let (x, y) = (a.element.amount, b.element.amount)
      if x.isNaN != y.isNaN { return y.isNaN }
      if !x.isNaN, x != y { return x > y }
      return a.offset < b.offset
    }
    return ranked.prefix(purchaseLimit).map(\.element)
  }
}
