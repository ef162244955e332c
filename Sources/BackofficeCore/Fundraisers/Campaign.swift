import Foundation

/// A validated fundraiser (збір), ready to store and to render as a poster.
///
/// Identity, the photo bytes and jar snapshots belong to storage; this is the part the rules
/// are about. Build one by validating a `CampaignDraft`.
public struct Campaign: Hashable, Sendable, Codable {
  /// What the money is for, trimmed; never blank, at most `CampaignDraft.purposeMaxLength`.
  public var purpose: String
  /// The goal in hryvnias, when the volunteer set one; always > 0.
  public var target: Decimal?
  /// The Monobank jar the money goes to, if any.
  public var jar: JarID?
  /// The poster design.
  public var template: PosterTemplate
  /// Where the photo sits in the template's photo slot.
  public var imagePlacement: ImagePlacement
  /// Whether the poster also shows the collected amount and a progress bar from the jar.
  public var showProgress: Bool
  /// Whether the poster carries a QR code of the jar link (only drawn when there is a jar).
  public var showQR: Bool
  /// The line beside the QR code; blank means `CampaignDraft.defaultCallToAction`.
  public var callToAction: String

  public init(
    purpose: String,
    target: Decimal? = nil,
    jar: JarID? = nil,
    template: PosterTemplate,
    imagePlacement: ImagePlacement = .identity,
    showProgress: Bool = false,
    showQR: Bool = true,
    callToAction: String = ""
  ) {
    self.purpose = purpose
    self.target = target
    self.jar = jar
    self.template = template
    self.imagePlacement = imagePlacement
    self.showProgress = showProgress
    self.showQR = showQR
    self.callToAction = callToAction
  }

  /// The call to action the poster shows: the volunteer's own or the default.
  public var shownCallToAction: String {
    callToAction.isEmpty ? CampaignDraft.defaultCallToAction : callToAction
  }

  /// What the QR block of the poster shows, when the poster has one.
  public var posterShare: PosterShare? {
    guard showQR, let jar else { return nil }
    return PosterShare(link: jar.link, callToAction: shownCallToAction)
  }
}

/// Zoom and drag of the photo inside its slot, independent of how big the preview is.
///
/// The offset is measured in a reference square of `referenceSide` (300) units, as in the
/// original app, from the slot's centre (x right, y down); a renderer multiplies by
/// `side / referenceSide`. Scale 1 means the photo fills the slot.
public struct ImagePlacement: Hashable, Sendable, Codable {
  /// Side of the square the offset is measured in.
  public static let referenceSide: Double = 300
  /// Smallest zoom, as in the original app.
  public static let minimumScale: Double = 0.1
  /// Largest zoom; beyond this a 1080 px poster would show a handful of source pixels.
  public static let maximumScale: Double = 10
  /// No zoom, centred: what choosing a template resets to.
  public static let identity = ImagePlacement(scale: 1, offsetX: 0, offsetY: 0)

  public var scale: Double
  public var offsetX: Double
  public var offsetY: Double

  /// Stores the values as given; use `clamped()` (or validate a draft) to bring them in range.
  public init(scale: Double, offsetX: Double, offsetY: Double) {
    self.scale = scale
    self.offsetX = offsetX
    self.offsetY = offsetY
  }

  /// In range: scale within `minimumScale…maximumScale` (not a number → 1), each offset within
  /// ± `referenceSide × max(1, scale)` (not a number → 0), which is already far enough for the
  /// photo to leave the slot entirely. Out-of-range values come from a drag or a pinch, so
  /// they are brought back rather than refused.
  public func clamped() -> ImagePlacement {
    let safeScale =
      scale.isFinite ? Swift.min(Swift.max(scale, Self.minimumScale), Self.maximumScale) : 1
    let limit = Self.referenceSide * Swift.max(1, safeScale)
    func clamp(_ value: Double) -> Double {
      value.isFinite ? Swift.min(Swift.max(value, -limit), limit) : 0
    }
    return ImagePlacement(scale: safeScale, offsetX: clamp(offsetX), offsetY: clamp(offsetY))
  }

  /// The offset in a square slot of `side` pixels.
  public func offset(forSide side: Double) -> (x: Double, y: Double) {
    let factor = side / Self.referenceSide
    return (offsetX * factor, offsetY * factor)
  }
}

/// The form fields of a fundraiser. Raw values are the HTML/JSON field names.
public enum CampaignField: String, CaseIterable, Hashable, Sendable, Codable,
  CodingKeyRepresentable
{
  case purpose
  case target
  case jarLink
  case image
  case template
  case callToAction

  /// The field's label, as on the form, in the interface language.
  public var label: String {
    switch self {
    case .purpose: L("fundraisers.field.purpose")
    case .target: L("fundraisers.field.target")
    case .jarLink: L("fundraisers.field.jar_link")
    case .image: L("fundraisers.field.image")
    case .template: L("fundraisers.field.template")
    case .callToAction: L("fundraisers.field.call_to_action")
    }
  }
}

/// What a volunteer typed and chose, before validation.
public struct CampaignDraft: Hashable, Sendable, Codable {
  /// Longest accepted purpose, in characters: every template sets this many without cutting.
  public static let purposeMaxLength = 500
  /// Longest accepted call to action, in characters: one line beside the QR code.
  public static let callToActionMaxLength = 40
  /// What the poster says beside the QR code unless the volunteer writes their own. Poster
  /// text: posters stay Ukrainian, for Ukrainian donors, whatever the interface language.
  public static let defaultCallToAction = "Долучайся!"

  public var purpose: String
  /// As typed; blank means no target. See `Hryvnia.parse` for the accepted forms.
  public var targetText: String
  /// As pasted; blank means no jar. See `JarLink.parse` for the accepted forms.
  public var jarLinkText: String
  /// Whether a photo has been chosen (the bytes are handled by the caller).
  public var hasPhoto: Bool
  public var template: PosterTemplate?
  public var imagePlacement: ImagePlacement
  public var showProgress: Bool
  public var showQR: Bool
  /// As typed; blank means the default call to action.
  public var callToAction: String

  public init(
    purpose: String = "",
    targetText: String = "",
    jarLinkText: String = "",
    hasPhoto: Bool = false,
    template: PosterTemplate? = nil,
    imagePlacement: ImagePlacement = .identity,
    showProgress: Bool = false,
    showQR: Bool = true,
    callToAction: String = ""
  ) {
    self.purpose = purpose
    self.targetText = targetText
    self.jarLinkText = jarLinkText
    self.hasPhoto = hasPhoto
    self.template = template
    self.imagePlacement = imagePlacement
    self.showProgress = showProgress
    self.showQR = showQR
    self.callToAction = callToAction
  }

  /// A draft for editing an existing campaign (which has a photo, or it would not exist).
  public init(editing campaign: Campaign) {
    self.init(
      purpose: campaign.purpose,
      targetText: campaign.target.map(Hryvnia.formatNumber) ?? "",
      jarLinkText: campaign.jar?.link ?? "",
      hasPhoto: true,
      template: campaign.template,
      imagePlacement: campaign.imagePlacement,
      showProgress: campaign.showProgress,
      showQR: campaign.showQR,
      callToAction: campaign.callToAction
    )
  }

  /// Checks every field and returns the campaign, or all the problems at once.
  public func validate() throws(CampaignValidationErrors) -> Campaign {
    var errors = CampaignValidationErrors()

    let cleanPurpose = purpose.replacingOccurrences(of: "\r\n", with: "\n")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if cleanPurpose.hasNothingVisible {
      errors[.purpose] = CampaignMessages.empty
    } else if cleanPurpose.count > Self.purposeMaxLength {
      errors[.purpose] = CampaignMessages.purposeTooLong(cleanPurpose.count)
    }

    var target: Decimal?
    if !targetText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      do {
        let amount = try Hryvnia.parse(targetText)
        if amount > 0 {
          target = amount
        } else {
          errors[.target] = CampaignMessages.targetNotPositive
        }
      } catch {
        errors[.target] = error.message
      }
    }

    var jar: JarID?
    if !jarLinkText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      do {
        jar = try JarLink.parse(jarLinkText)
      } catch {
        errors[.jarLink] = error.message
      }
    }

    let cleanCallToAction = callToAction.trimmingCharacters(in: .whitespacesAndNewlines)
    if cleanCallToAction.contains(where: \.isNewline) {
      errors[.callToAction] = CampaignMessages.callToActionOneLine
    } else if cleanCallToAction.count > Self.callToActionMaxLength {
      errors[.callToAction] = CampaignMessages.callToActionTooLong(cleanCallToAction.count)
    }

    if !hasPhoto { errors[.image] = CampaignMessages.noImage }
    if template == nil { errors[.template] = CampaignMessages.noTemplate }

    guard errors.isEmpty, let template else { throw errors }
    return Campaign(
      purpose: cleanPurpose,
      target: target,
      jar: jar,
      template: template,
      imagePlacement: imagePlacement.clamped(),
      showProgress: showProgress,
      showQR: showQR,
      callToAction: cleanCallToAction.hasNothingVisible ? "" : cleanCallToAction
    )
  }
}

/// The messages shown by campaign fields, in the interface language at the time of use.
public enum CampaignMessages {
  public static var empty: String { L("fundraisers.validation.empty") }
  /// Names the limit and how far past it the text is, so nothing has to be guessed or cut.
  public static func purposeTooLong(_ count: Int) -> String {
    tooLong(count, limit: CampaignDraft.purposeMaxLength)
  }
  public static func callToActionTooLong(_ count: Int) -> String {
    tooLong(count, limit: CampaignDraft.callToActionMaxLength)
  }
  private static func tooLong(_ count: Int, limit: Int) -> String {
    L(
      "fundraisers.validation.too_long",
      ["limit": String(limit), "count": String(count), "over": String(count - limit)])
  }
  public static var callToActionOneLine: String {
    L("fundraisers.validation.call_to_action_one_line")
  }
  public static var invalidNumber: String { L("fundraisers.validation.invalid_format") }
  public static var targetNotPositive: String { L("fundraisers.validation.target_not_positive") }
  public static var invalidLink: String { JarLinkError.baseMessage }
  public static var noImage: String { L("fundraisers.validation.no_image") }
  public static var noTemplate: String { L("fundraisers.validation.no_template") }
  /// Confirmation before deleting a fundraiser.
  public static var deleteConfirmation: String { L("fundraisers.delete_confirm") }
}

/// Per-field messages from `CampaignDraft.validate()`, in the interface language at the time of
/// validation. Encodes as a plain JSON object, `{"purpose": "This field cannot be empty", …}`,
/// for API error bodies.
public struct CampaignValidationErrors: Error, Hashable, Sendable, Codable {
  public private(set) var messages: [CampaignField: String] = [:]

  public init() {}

  public subscript(field: CampaignField) -> String? {
    get { messages[field] }
    set { messages[field] = newValue }
  }

  public var isEmpty: Bool { messages.isEmpty }

  /// The fields with a problem, in the order they appear on the form.
  public var fields: [CampaignField] { CampaignField.allCases.filter { messages[$0] != nil } }

  public init(from decoder: any Decoder) throws {
    messages = try decoder.singleValueContainer().decode([CampaignField: String].self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(messages)
  }
}
