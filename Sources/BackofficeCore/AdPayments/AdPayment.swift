import Foundation

/// A saved ad payment entry: a name and the link it points to, both already trimmed and valid.
///
/// The record id lives in storage; this is the part that validation vouches for.
public struct AdPayment: Hashable, Sendable, Codable {
  public var name: String
  /// Stored as typed (trimmed), not canonicalised: the person sees their own spelling.
  public var url: String

  public init(name: String, url: String) {
    self.name = name
    self.url = url
  }
}

/// The two inputs of the ad payment form. `rawValue` is the form field and JSON key.
public enum AdPaymentField: String, CaseIterable, Hashable, Sendable, Codable {
  case name
  case url
}

/// Why an ad payment draft cannot be saved. Messages are shown to people exactly as written,
/// in the interface language of the moment (`UILanguage.current`).
public enum AdPaymentValidationError: Error, Hashable, Sendable, CaseIterable {
  case blankName
  case nameTooLong
  case invalidURL
  case urlTooLong

  public var message: String {
    switch self {
    case .blankName: L("ad_payments.validation.name_blank")
    case .nameTooLong:
      L("ad_payments.validation.name_too_long", ["max": String(AdPaymentDraft.maxNameLength)])
    case .invalidURL: L("ad_payments.validation.url_invalid")
    case .urlTooLong:
      L("ad_payments.validation.url_too_long", ["max": String(AdPaymentDraft.maxURLLength)])
    }
  }

  /// The field the message belongs next to.
  public var field: AdPaymentField {
    switch self {
    case .blankName, .nameTooLong: .name
    case .invalidURL, .urlTooLong: .url
    }
  }
}

/// What someone typed into the ad payment form (or sent to the API), before validation.
public struct AdPaymentDraft: Hashable, Sendable {
  /// The longest name kept, in characters (what a person sees as one letter): a name is a label
  /// in a list, and 200 is several lines of it.
  public static let maxNameLength = 200
  /// The longest link kept, in characters: 2 048, the length past which links stop working in
  /// some browsers and in sitemaps.
  public static let maxURLLength = 2_048

  public var name: String
  public var url: String

  public init(name: String, url: String) {
    self.name = name
    self.url = url
  }

  /// The entry with trimmed values, or the first failing rule in the spec's order
  /// (name, then URL).
  public func validate() -> Result<AdPayment, AdPaymentValidationError> {
    if let first = errors.first { return .failure(first) }
    return .success(AdPayment(name: Self.trimmed(name), url: Self.trimmed(url)))
  }

  /// Every failing rule, in the spec's order. Empty when the draft is valid.
  public var errors: [AdPaymentValidationError] {
    var found: [AdPaymentValidationError] = []
    let name = Self.trimmed(name)
    if name.hasNothingVisible {
      found.append(.blankName)
    } else if name.count > Self.maxNameLength {
      found.append(.nameTooLong)
    }
    let url = Self.trimmed(url)
    if url.count > Self.maxURLLength {
      found.append(.urlTooLong)
    } else if !AdPaymentURL.isValid(url) {
      found.append(.invalidURL)
    }
    return found
  }

  /// One message per failing field, so a form can show each next to its input (and the API can
  /// fill the `fields` object of its error envelope). Empty when the draft is valid.
  public var fieldErrors: [AdPaymentField: String] {
    var result: [AdPaymentField: String] = [:]
    for error in errors { result[error.field] = error.message }
    return result
  }

  /// Drops leading and trailing whitespace and line breaks (any Unicode whitespace, so a pasted
  /// no-break space does not survive either).
  static func trimmed(_ text: String) -> String {
    guard let start = text.firstIndex(where: { !$0.isWhitespace }),
      let end = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(text[start...end])
  }
}
