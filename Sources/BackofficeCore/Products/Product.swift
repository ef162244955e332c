import Foundation

/// The validated fields of a catalog product. Image, id and dates live in storage.
public struct Product: Hashable, Sendable {
  /// Trimmed, 1–100 characters.
  public var name: String
  /// Trimmed, 1–50 characters, free text ("Product", "Service", …).
  public var type: String
  /// Greater than 0, at most 2 decimals, below `Product.priceLimit`.
  public var price: Decimal
  /// A percentage from 0 to 100 with at most 2 decimals.
  public var tax: Decimal

  public init(name: String, type: String, price: Decimal, tax: Decimal) {
    self.name = name
    self.type = type
    self.price = price
    self.tax = tax
  }

  /// The key for prefix search on the name; see `SearchNormalizer`.
  public var searchKey: String { SearchNormalizer.normalize(name) }

  public static let nameMaxLength = 100
  public static let typeMaxLength = 50
  /// Prices must stay below this so every price survives a trip through a client that reads
  /// JSON numbers as `Double` (the Swipe API sends numbers): 14 significant digits at most.
  public static let priceLimit = Decimal(1_000_000_000_000)
}

/// The inputs of a product. `rawValue` is the form field and native API key; `swipeKey` is the
/// key of the Swipe-compatible API.
public enum ProductField: String, CaseIterable, Hashable, Sendable, Codable {
  case name
  case type
  case price
  case tax

  public var swipeKey: String {
    switch self {
    case .name: "product_name"
    case .type: "product_type"
    case .price: "price"
    case .tax: "tax"
    }
  }
}

/// One problem with one field, in words for people.
public struct ProductFieldError: Hashable, Sendable {
  public var field: ProductField
  public var message: String

  public init(field: ProductField, message: String) {
    self.field = field
    self.message = message
  }
}

/// Everything wrong with a product draft: at most one message per field, in field order.
public struct ProductValidationError: Error, Hashable, Sendable {
  public var errors: [ProductFieldError]

  public init(errors: [ProductFieldError]) {
    self.errors = errors
  }

  /// Message per field, for showing next to each input and for the API error envelope.
  public var fieldErrors: [ProductField: String] {
    Dictionary(errors.map { ($0.field, $0.message) }, uniquingKeysWith: { first, _ in first })
  }

  /// The first message, for a one-line summary.
  public var message: String { errors.first?.message ?? "" }
}

/// The messages of the product rules.
public enum ProductMessage {
  public static var nameBlank: String { L("products.validation.name_blank") }
  public static var nameTooLong: String { L("products.validation.name_too_long") }
  public static var nameControl: String { L("products.validation.name_control") }
  public static var typeControl: String { L("products.validation.type_control") }
  public static var typeBlank: String { L("products.validation.type_blank") }
  public static var typeTooLong: String { L("products.validation.type_too_long") }
  public static var priceMissing: String { L("products.validation.price_missing") }
  public static var priceNotANumber: String { L("products.validation.price_not_a_number") }
  public static var priceNotPositive: String { L("products.validation.price_not_positive") }
  public static var priceTooPrecise: String { L("products.validation.price_too_precise") }
  public static var priceTooLarge: String { L("products.validation.price_too_large") }
  public static var taxMissing: String { L("products.validation.tax_missing") }
  public static var taxNotANumber: String { L("products.validation.tax_not_a_number") }
  public static var taxOutOfRange: String { L("products.validation.tax_out_of_range") }
  public static var taxTooPrecise: String { L("products.validation.tax_too_precise") }
}

/// What someone typed into the product form, before validation. Price and tax are read in the
/// account's locale ("1 234,50" in uk-UA, "1,234.50" in en-US).
public struct ProductDraft: Hashable, Sendable {
  public var name: String
  public var type: String
  public var price: String
  public var tax: String
  public var locale: BackofficeLocale

  public init(name: String, type: String, price: String, tax: String, locale: BackofficeLocale) {
    self.name = name
    self.type = type
    self.price = price
    self.tax = tax
    self.locale = locale
  }

  /// The product, or a message for every field that is wrong.
  public func validate() -> Result<Product, ProductValidationError> {
    ProductRules.validate(
      name: name, type: type,
      price: parse(
        price, missing: ProductMessage.priceMissing,
        tooPrecise: ProductMessage.priceTooPrecise, tooLarge: ProductMessage.priceTooLarge),
      tax: parse(
        tax, missing: ProductMessage.taxMissing,
        tooPrecise: ProductMessage.taxTooPrecise, tooLarge: ProductMessage.taxOutOfRange))
  }

  /// Reads an amount field; the parser's own message (which shows the locale's way of writing
  /// numbers) is kept unless the field has a more specific one.
  private func parse(_ text: String, missing: String, tooPrecise: String, tooLarge: String)
    -> Result<Decimal, ProductRules.Refusal>
  {
    do {
      return .success(
        try AmountParser.parse(text, locale: locale, maxFractionDigits: 2, allowNegative: true))
    } catch {
      switch error.reason {
      case .empty: return .failure(.init(message: missing))
      case .tooManyDecimals: return .failure(.init(message: tooPrecise))
      case .tooLarge: return .failure(.init(message: tooLarge))
      default: return .failure(.init(message: error.message))
      }
    }
  }
}

/// A product as it arrives through the API: every field may be missing, and price and tax may
/// be JSON numbers or decimal strings ("5800.00"), never locale-formatted.
public struct ProductInput: Hashable, Sendable {
  public var name: String?
  public var type: String?
  public var price: DecimalInput?
  public var tax: DecimalInput?

  public init(name: String?, type: String?, price: DecimalInput?, tax: DecimalInput?) {
    self.name = name
    self.type = type
    self.price = price
    self.tax = tax
  }

  /// The product, or a message for every field that is wrong (missing counts as blank).
  public func validate() -> Result<Product, ProductValidationError> {
    ProductRules.validate(
      name: name ?? "", type: type ?? "",
      price: read(
        price, missing: ProductMessage.priceMissing,
        notANumber: ProductMessage.priceNotANumber),
      tax: read(tax, missing: ProductMessage.taxMissing, notANumber: ProductMessage.taxNotANumber))
  }

  private func read(_ input: DecimalInput?, missing: String, notANumber: String)
    -> Result<Decimal, ProductRules.Refusal>
  {
    guard let input, !input.isBlank else { return .failure(.init(message: missing)) }
    guard let value = input.value else { return .failure(.init(message: notANumber)) }
    return .success(value)
  }
}

/// The rules shared by the form and the API, applied after the numbers are read.
enum ProductRules {
  struct Refusal: Error {
    var message: String
  }

  static func validate(
    name: String, type: String, price: Result<Decimal, Refusal>, tax: Result<Decimal, Refusal>
  ) -> Result<Product, ProductValidationError> {
    var errors: [ProductFieldError] = []
    func refuse(_ field: ProductField, _ message: String) {
      errors.append(ProductFieldError(field: field, message: message))
    }

    let name = trimmed(name)
    if name.hasNothingVisible {
      refuse(.name, ProductMessage.nameBlank)
    } else if name.count > Product.nameMaxLength {
      refuse(.name, ProductMessage.nameTooLong)
    } else if hasControlCharacters(name) {
      refuse(.name, ProductMessage.nameControl)
    }

    let type = trimmed(type)
    if type.hasNothingVisible {
      refuse(.type, ProductMessage.typeBlank)
    } else if type.count > Product.typeMaxLength {
      refuse(.type, ProductMessage.typeTooLong)
    } else if hasControlCharacters(type) {
      refuse(.type, ProductMessage.typeControl)
    }

    var priceValue = Decimal(0)
    switch price {
    case .failure(let refusal): refuse(.price, refusal.message)
    case .success(let value):
      if value <= 0 {
        refuse(.price, ProductMessage.priceNotPositive)
      } else if DecimalMath.fractionDigitCount(value) > 2 {
        refuse(.price, ProductMessage.priceTooPrecise)
      } else if value >= Product.priceLimit {
        refuse(.price, ProductMessage.priceTooLarge)
      }
      priceValue = value
    }

    var taxValue = Decimal(0)
    switch tax {
    case .failure(let refusal): refuse(.tax, refusal.message)
    case .success(let value):
      if value < 0 || value > 100 {
        refuse(.tax, ProductMessage.taxOutOfRange)
      } else if DecimalMath.fractionDigitCount(value) > 2 {
        refuse(.tax, ProductMessage.taxTooPrecise)
      }
      taxValue = value
    }

    guard errors.isEmpty else { return .failure(ProductValidationError(errors: errors)) }
    return .success(Product(name: name, type: type, price: priceValue, tax: taxValue))
  }

  /// A name is one line of visible text: a control character (NUL, a line break or tab inside
  /// it, ESC…) would be cut off or shown differently by databases, CSV files and screens.
  static func hasControlCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

  /// Without leading and trailing whitespace and line breaks (any Unicode whitespace).
  static func trimmed(_ text: String) -> String {
    guard let start = text.firstIndex(where: { !$0.isWhitespace }),
      let end = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(text[start...end])
  }
}
