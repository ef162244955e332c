import Foundation

/// Everything a poster shows. Templates decide where each piece goes.
public struct PosterInput: Hashable, Sendable {
  /// Shown when the purpose is empty or blank.
  public static let placeholderPurpose = "Текст текст"

  /// What the money is for. Line breaks are kept; other runs of white space become one space.
  public var purpose: String
  /// The fundraiser's goal in hryvnias; no goal block when `nil`.
  public var goal: Decimal?
  /// The photo; a neutral placeholder fills the slot when `nil`.
  public var photo: PosterPhoto?
  /// Money collected so far; adds "Зібрано: … грн." and a progress bar when set.
  public var progress: PosterProgress?
  /// A QR code of the jar link with a call to action, along the bottom; none when `nil`.
  public var share: PosterShare?

  public init(
    purpose: String, goal: Decimal? = nil, photo: PosterPhoto? = nil,
    progress: PosterProgress? = nil, share: PosterShare? = nil
  ) {
    self.purpose = purpose
    self.goal = goal
    self.photo = photo
    self.progress = progress
    self.share = share
  }
}

/// The way to give from the picture itself: a QR code that opens `link`, the link as text
/// without its scheme, and a call to action.
public struct PosterShare: Hashable, Sendable {
  /// What the QR code opens, e.g. `https://send.monobank.ua/jar/8Xd9vZqKpL`.
  public var link: String
  /// A short line such as "Долучайся!".
  public var callToAction: String

  public init(link: String, callToAction: String) {
    self.link = link
    self.callToAction = callToAction
  }

  /// Everything the share card draws, as one string for cache validators.
  public var cacheKey: String { link + "\u{1F}" + callToAction }

  /// The link as people type it: without `https://` or `http://`.
  public var linkText: String {
    for scheme in ["https://", "http://"] where link.hasPrefix(scheme) {
      return String(link.dropFirst(scheme.count))
    }
    return link
  }
}

/// The photo and how the user framed it.
///
/// The photo first covers its slot (like CSS `object-fit: cover`), is then scaled by `scale`
/// around the slot's centre and finally moved by `offset × slot side ÷ 300` poster pixels,
/// where the slot side is the longer side of the slot's unrotated frame
/// (`PosterPhotoSlot.offsetUnit`). Rotated slots move the photo along their own axes.
public struct PosterPhoto: Hashable, Sendable {
  /// Side of the reference square the offset is measured in.
  public static let referenceSide: Double = 300
  /// Smallest scale applied; smaller values are raised to it.
  public static let minimumScale: Double = 0.1

  /// Where the image comes from: a `data:` URI or a URL (path) the viewer can load.
  public var href: String
  /// Zoom factor, 1 = just covers the slot.
  public var scale: Double
  /// Horizontal move in reference-square units, positive to the right.
  public var offsetX: Double
  /// Vertical move in reference-square units, positive downwards.
  public var offsetY: Double

  public init(href: String, scale: Double = 1, offsetX: Double = 0, offsetY: Double = 0) {
    self.href = href
    self.scale = scale
    self.offsetX = offsetX
    self.offsetY = offsetY
  }
}

/// Money collected so far, e.g. from the fundraiser's jar.
public struct PosterProgress: Hashable, Sendable {
  /// Hryvnias collected.
  public var collected: Decimal
  /// Share of the goal reached, 0…1 (values outside are clamped; the bar never overflows).
  public var fraction: Double

  public init(collected: Decimal, fraction: Double) {
    self.collected = collected
    self.fraction = fraction
  }
}

/// Output switches that do not change the design.
public struct PosterRenderOptions: Hashable, Sendable {
  /// Embed the font as a data URL so the SVG looks the same everywhere. Turn off only where
  /// the page already provides the font or in tests that compare output.
  public var embedFont: Bool
  /// Prefix for element ids. Defaults to one derived from template and format; set a unique
  /// one when several posters of the same template and format are inlined in one HTML page.
  public var idPrefix: String?

  public init(embedFont: Bool = true, idPrefix: String? = nil) {
    self.embedFont = embedFont
    self.idPrefix = idPrefix
  }
}

// MARK: - From the fundraiser's own types

extension PosterInput {
  /// What a campaign's poster shows: its purpose and target, the photo at `photoHref` framed
  /// as the volunteer placed it, `progress` only when the campaign has the progress switch on,
  /// and the jar's QR code when it has a jar and the QR switch on.
  public init(campaign: Campaign, photoHref: String?, progress: FundraiserProgress? = nil) {
    self.init(
      purpose: campaign.purpose, goal: campaign.target,
      photo: photoHref.map { PosterPhoto(href: $0, placement: campaign.imagePlacement) },
      progress: campaign.showProgress ? progress.map(PosterProgress.init) : nil,
      share: campaign.posterShare)
  }
}

extension PosterPhoto {
  /// The photo at `href` with the volunteer's zoom and move (brought into range first).
  public init(href: String, placement: ImagePlacement) {
    let placement = placement.clamped()
    self.init(
      href: href, scale: placement.scale, offsetX: placement.offsetX, offsetY: placement.offsetY)
  }
}

extension PosterProgress {
  /// Collected amount and bar fill of a fundraiser's progress.
  public init(_ progress: FundraiserProgress) {
    self.init(collected: progress.collected, fraction: progress.fraction)
  }
}
