import Foundation

/// Draws fundraiser posters as SVG 1.1, in pure Swift.
///
/// The same input always gives the same bytes: element ids come from the template and format,
/// and numbers are printed with at most two decimals.
public enum PosterRenderer {
  /// Where everything goes on the poster, without drawing it.
  public static func layout(
    _ input: PosterInput, template: PosterTemplate, format: PosterFormat
  ) -> PosterLayout {
    let frame = PosterFrame(format)
    let share = input.share.flatMap { PosterShareBlock($0, frame: frame) }
    let designFrame = share.map { frame.ending(at: $0.designBottom) } ?? frame
    let content = PosterContent(input)
    var design = PosterDesigns.design(template, frame: designFrame, content: content)
    if format == .story {
      design = PosterStoryDesign.design(from: design, frame: designFrame, content: content)
    }
    return PosterLayout(
      template: template, format: format,
      canvas: PosterRect(x: 0, y: 0, width: frame.width, height: frame.height),
      textArea: frame.textArea, photoSlot: design.slot, textGroups: design.groups,
      share: share, background: design.background)
  }

  /// The poster as a standalone SVG document (`width`, `height` and `viewBox` in pixels).
  public static func render(
    _ input: PosterInput, template: PosterTemplate, format: PosterFormat,
    options: PosterRenderOptions = PosterRenderOptions()
  ) -> String {
    let layout = layout(input, template: template, format: format)
    var writer = PosterSVGWriter(
      idPrefix: sanitizedPrefix(options.idPrefix) ?? "p\(template.number)\(format.rawValue)")
    // An empty address would draw a broken image; show the placeholder instead.
    let photo = input.photo.flatMap { $0.href.isEmpty ? nil : $0 }
    return writer.document(layout, photo: photo, embedFont: options.embedFont)
  }

  /// Keeps ids valid XML names: letters, digits, `-` and `_`, starting with a letter.
  static func sanitizedPrefix(_ prefix: String?) -> String? {
    guard let prefix else { return nil }
    let kept = String(
      prefix.unicodeScalars.filter {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-" || $0 == "_"
      })
    guard !kept.isEmpty else { return nil }
    if let first = kept.unicodeScalars.first, ("0"..."9").contains(first) || first == "-" {
      return "p" + kept
    }
    return kept
  }
}
