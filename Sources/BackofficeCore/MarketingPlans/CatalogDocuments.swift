import Foundation

/// The targeting document as the JSON host serves it: a top-level array of targets, each listing
/// the channels it can be advertised on.
public struct TargetingDocument: Hashable, Sendable, Codable {
  /// One channel reference inside a target: display name plus the id of the channel's document.
  public struct ChannelReference: Hashable, Sendable, Codable {
    public var channel: String
    public var channelID: String

    public init(channel: String, channelID: String) {
      self.channel = channel
      self.channelID = channelID
    }

    enum CodingKeys: String, CodingKey {
      case channel
      case channelID = "channel_id"
    }
  }

  /// One targeting option ("Location", "Age", …).
  public struct Target: Hashable, Sendable, Codable {
    public var target: String
    public var availableChannels: [ChannelReference]

    public init(target: String, availableChannels: [ChannelReference]) {
      self.target = target
      self.availableChannels = availableChannels
    }

    enum CodingKeys: String, CodingKey {
      case target
      case availableChannels = "available_channels"
    }
  }

  public var targets: [Target]

  public init(targets: [Target]) {
    self.targets = targets
  }

  /// The name the targeting document gives the channel document `id` ("Twitter"), if any.
  public func channelName(of id: String) -> String? {
    for target in targets {
      if let reference = target.availableChannels.first(where: { $0.channelID == id }) {
        return reference.channel
      }
    }
    return nil
  }

  /// Channel document ids in order of first appearance, each once.
  public var channelIDs: [String] {
    var seen = Set<String>()
    var ids: [String] = []
    for target in targets {
      for reference in target.availableChannels where seen.insert(reference.channelID).inserted {
        ids.append(reference.channelID)
      }
    }
    return ids
  }

  public init(from decoder: any Decoder) throws {
    // The document is a bare array, not an object.
    targets = try decoder.singleValueContainer().decode([Target].self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(targets)
  }

  /// Decodes the JSON bytes of a targeting document; `documentID` only labels error messages.
  public static func decode(_ data: Data, documentID: String) throws(CatalogDocumentError)
    -> TargetingDocument
  {
    try decodeDocument(TargetingDocument.self, data, kind: .targeting, documentID: documentID)
  }
}

/// A channel document: the channel's name and its monthly packages (`monthly_fees`).
public struct ChannelDocument: Hashable, Sendable, Codable {
  /// One `monthly_fees` entry. `price` may arrive as a JSON number or as a numeric string; either
  /// way it is kept as an exact `Decimal`.
  public struct MonthlyFee: Hashable, Sendable, Codable {
    public var price: Decimal
    public var details: [String]
    public var currency: String

    public init(price: Decimal, details: [String], currency: String) {
      self.price = price
      self.details = details
      self.currency = currency
    }

    enum CodingKeys: String, CodingKey {
      case price, details, currency
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      price = try Self.decodePrice(from: container)
      details = try container.decode([String].self, forKey: .details)
      let code = try container.decode(String.self, forKey: .currency)
      guard let normalized = MarketingCurrencyCode.normalize(code) else {
        throw DecodingError.dataCorruptedError(
          forKey: .currency, in: container,
          debugDescription: L("marketing.document_error.not_currency_code", ["code": code]))
      }
      currency = normalized
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(price, forKey: .price)
      try container.encode(details, forKey: .details)
      try container.encode(currency, forKey: .currency)
    }

    static let maxDecimals = 12
    static let priceCeiling =
      Decimal(string: "1" + String(repeating: "0", count: AmountParser.maxIntegerDigits)) ?? 0

    private static func rounded(_ value: Decimal, places: Int) -> Decimal {
      var input = value
      var output = Decimal()
      NSDecimalRound(&output, &input, places, .plain)
      return output
    }

    private static func decodePrice(from container: KeyedDecodingContainer<CodingKeys>) throws
      -> Decimal
    {
      let notANumber = DecodingError.dataCorruptedError(
        forKey: .price, in: container, debugDescription: L("marketing.document_error.not_number"))
      let value: Decimal
      if let text = try? container.decode(String.self, forKey: .price) {
        guard let parsed = MarketingPriceText.parse(text) else { throw notANumber }
        value = parsed
      } else if let number = try? container.decode(Decimal.self, forKey: .price) {
        // JSONDecoder builds a Decimal from the literal's digits, not through Double.
        value = number
      } else if container.contains(.price) {
        throw notANumber
      } else {
        // Let the decoder produce its usual "missing key" error.
        value = try container.decode(Decimal.self, forKey: .price)
      }
      guard value >= 0 else {
        throw DecodingError.dataCorruptedError(
          forKey: .price, in: container, debugDescription: L("marketing.document_error.negative"))
      }
      // A plan adds one price per channel as a `Decimal` (38 significant digits). Prices of at
      // most 15 whole digits and 12 decimals keep any such total exact (27 digits each, with
      // room for the sum of a billion of them).
      guard value < Self.priceCeiling, value == Self.rounded(value, places: Self.maxDecimals)
      else {
        throw DecodingError.dataCorruptedError(
          forKey: .price, in: container,
          debugDescription: L(
            "marketing.document_error.too_large_or_precise",
            [
              "integer_digits": String(AmountParser.maxIntegerDigits),
              "decimals": String(Self.maxDecimals),
            ]))
      }
      return value
    }
  }

  public var channel: String
  public var monthlyFees: [MonthlyFee]

  public init(channel: String, monthlyFees: [MonthlyFee]) {
    self.channel = channel
    self.monthlyFees = monthlyFees
  }

  enum CodingKeys: String, CodingKey {
    case channel
    case monthlyFees = "monthly_fees"
  }

  /// Decodes the JSON bytes of a channel document; `name` (the channel's name in the
  /// targeting document), or else `documentID`, labels errors.
  public static func decode(_ data: Data, documentID: String, name: String? = nil)
    throws(CatalogDocumentError) -> ChannelDocument
  {
    do {
      return try decodeDocument(ChannelDocument.self, data, kind: .channel, documentID: documentID)
    } catch {
      var named = error
      named.name = name
      throw named
    }
  }
}

/// A document that could not be read, with the place inside it that is wrong.
public struct CatalogDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: String, Hashable, Sendable {
    case targeting, channel
  }

  public var kind: Kind
  public var documentID: String
  /// Where in the document, e.g. `monthly_fees[2].price`; empty for the document itself.
  public var path: String
  /// What is wrong there, e.g. "is not a number".
  public var problem: String
  /// What people call the document ("Twitter"), when it is known.
  public var name: String?

  public init(
    kind: Kind, documentID: String, path: String, problem: String, name: String? = nil
  ) {
    self.kind = kind
    self.documentID = documentID
    self.path = path
    self.problem = problem
    self.name = name
  }

  /// "channel “Twitter”: monthly_fees[2].price is not a number", or with the document's id
  /// when it has no name: "targeting document b22f…: [0].target is not a string".
  public var message: String {
    let subject = path.isEmpty ? L("marketing.document_error.whole_document") : path
    let values = ["subject": subject, "problem": problem]
    switch (kind, name) {
    case (.targeting, let name?):
      return L("marketing.document_error.targeting_named", values.merging(["name": name]) { $1 })
    case (.targeting, nil):
      return L("marketing.document_error.targeting", values.merging(["id": documentID]) { $1 })
    case (.channel, let name?):
      return L("marketing.document_error.channel_named", values.merging(["name": name]) { $1 })
    case (.channel, nil):
      return L("marketing.document_error.channel", values.merging(["id": documentID]) { $1 })
    }
  }

  public var description: String { message }
}

private func decodeDocument<T: Decodable>(
  _ type: T.Type, _ data: Data, kind: CatalogDocumentError.Kind, documentID: String
) throws(CatalogDocumentError) -> T {
  do {
    return try JSONDecoder().decode(type, from: data)
  } catch let error as DecodingError {
    let (path, problem) = describe(error)
    throw CatalogDocumentError(kind: kind, documentID: documentID, path: path, problem: problem)
  } catch {
    throw CatalogDocumentError(
      kind: kind, documentID: documentID, path: "",
      problem: L("marketing.document_error.unreadable_because", ["error": "\(error)"]))
  }
}

/// Turns a `DecodingError` into a readable path and a short complaint.
private func describe(_ error: DecodingError) -> (path: String, problem: String) {
  switch error {
  case .typeMismatch(let expected, let context):
    return (render(context.codingPath), notOfType(expected))
  case .valueNotFound(let expected, let context):
    return (render(context.codingPath), nullInsteadOf(expected))
  case .keyNotFound(let key, let context):
    return (render(context.codingPath + [key]), L("marketing.document_error.missing"))
  case .dataCorrupted(let context):
    if context.codingPath.isEmpty {
      return ("", L("marketing.document_error.not_json"))
    }
    return (render(context.codingPath), context.debugDescription)
  @unknown default:
    return ("", L("marketing.document_error.unreadable"))
  }
}

/// The JSON kinds a document's values are told apart by.
private enum JSONKind {
  case string, number, boolean, array, object

  init(_ type: Any.Type) {
    switch type {
    case is String.Type: self = .string
    case is Decimal.Type, is Double.Type, is Int.Type: self = .number
    case is Bool.Type: self = .boolean
    default: self = String(describing: type).hasPrefix("Array") ? .array : .object
    }
  }
}

/// "is not a number"
private func notOfType(_ type: Any.Type) -> String {
  switch JSONKind(type) {
  case .string: L("marketing.document_error.not_string")
  case .number: L("marketing.document_error.not_number")
  case .boolean: L("marketing.document_error.not_boolean")
  case .array: L("marketing.document_error.not_array")
  case .object: L("marketing.document_error.not_object")
  }
}

/// "is null, expected a number"
private func nullInsteadOf(_ type: Any.Type) -> String {
  switch JSONKind(type) {
  case .string: L("marketing.document_error.null_expected_string")
  case .number: L("marketing.document_error.null_expected_number")
  case .boolean: L("marketing.document_error.null_expected_boolean")
  case .array: L("marketing.document_error.null_expected_array")
  case .object: L("marketing.document_error.null_expected_object")
  }
}

/// `[_JSONKey(intValue: 2), price]` → `[2].price`; keys joined with dots, indexes in brackets.
private func render(_ path: [any CodingKey]) -> String {
  var text = ""
  for key in path {
    if let index = key.intValue {
      text += "[\(index)]"
    } else {
      text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
    }
  }
  return text
}

/// Strict reader for prices written as text: digits with an optional `.` fraction, nothing else
/// (no grouping, no exponent, no sign), so "12abc" is refused rather than read as 12.
enum MarketingPriceText {
  static func parse(_ text: String) -> Decimal? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count),
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
    else { return nil }
    // Digits only, so the POSIX reading cannot vary by machine or locale.
    return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
  }
}

enum MarketingCurrencyCode {
  /// Upper-cased ISO-style code, or nil when it is not three ASCII letters.
  static func normalize(_ code: String) -> String? {
    let upper = code.trimmingCharacters(in: .whitespaces).uppercased()
    guard upper.count == 3, upper.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) }) else {
      return nil
    }
    return upper
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
