import Foundation

/// A product in the shape of the Swipe public API (`GET /api/public/get` items and the
/// `product_details` of `POST /api/public/add`):
/// `{"image": "https://…" or "", "price": 5800.0, "product_name": "…", "product_type": "…",
/// "tax": 10.0}`.
///
/// `Codable` uses exactly these keys and reads `price`/`tax` exactly from numbers or strings
/// (see `DecimalInput`). `JSONEncoder` writes whole numbers without `.0`; to answer with the
/// byte-for-byte shape Swipe clients have seen, use `SwipeJSON`.
public struct SwipeProduct: Hashable, Sendable, Codable {
  /// Absolute URL of the product image, or "" when there is none (clients show a placeholder).
  public var image: String
  public var price: Decimal
  public var productName: String
  public var productType: String
  public var tax: Decimal

  public init(image: String, price: Decimal, productName: String, productType: String, tax: Decimal)
  {
    self.image = image
    self.price = price
    self.productName = productName
    self.productType = productType
    self.tax = tax
  }

  /// The Swipe view of a stored product.
  public init(_ product: Product, imageURL: String?) {
    self.init(
      image: imageURL ?? "", price: product.price, productName: product.name,
      productType: product.type, tax: product.tax)
  }

  enum CodingKeys: String, CodingKey {
    case image
    case price
    case productName = "product_name"
    case productType = "product_type"
    case tax
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    image = try container.decode(String.self, forKey: .image)
    productName = try container.decode(String.self, forKey: .productName)
    productType = try container.decode(String.self, forKey: .productType)
    price = try Self.decimal(container, .price)
    tax = try Self.decimal(container, .tax)
  }

  private static func decimal(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys)
    throws -> Decimal
  {
    let input = try container.decode(DecimalInput.self, forKey: key)
    guard let value = input.value else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: container, debugDescription: "Not a decimal number: \(input.text)")
    }
    return value
  }
}

/// The answer of the Swipe `POST /api/public/add`:
/// `{"message": "Product added Successfully!", "product_details": {…}, "product_id": 2657,
/// "success": true}`.
public struct SwipeAddResponse: Hashable, Sendable, Codable {
  /// The message Swipe sends, capital S included.
  public static let successMessage = "Product added Successfully!"

  public var message: String
  public var productDetails: SwipeProduct
  public var productID: Int
  public var success: Bool

  public init(productID: Int, productDetails: SwipeProduct) {
    self.init(
      message: Self.successMessage, productDetails: productDetails, productID: productID,
      success: true)
  }

  public init(message: String, productDetails: SwipeProduct, productID: Int, success: Bool) {
    self.message = message
    self.productDetails = productDetails
    self.productID = productID
    self.success = success
  }

  enum CodingKeys: String, CodingKey {
    case message
    case productDetails = "product_details"
    case productID = "product_id"
    case success
  }
}

/// Writes Swipe API bodies exactly as the Swipe server does: keys sorted, `", "` and `": "`
/// between items, prices and tax as numbers with at least one decimal (`5800.0`, `1694.92`,
/// `18.5`), text as UTF-8 with only the characters JSON requires escaped.
public enum SwipeJSON {
  /// The `GET /api/public/get` body: a JSON array of products.
  public static func list(_ products: [SwipeProduct]) -> String {
    "[" + products.map(object).joined(separator: ", ") + "]"
  }

  /// One product object.
  public static func object(_ product: SwipeProduct) -> String {
    "{"
      + [
        pair("image", JSONText.string(product.image)),
        pair("price", number(product.price)),
        pair("product_name", JSONText.string(product.productName)),
        pair("product_type", JSONText.string(product.productType)),
        pair("tax", number(product.tax)),
      ].joined(separator: ", ") + "}"
  }

  /// The `POST /api/public/add` success body.
  public static func addResponse(_ response: SwipeAddResponse) -> String {
    "{"
      + [
        pair("message", JSONText.string(response.message)),
        pair("product_details", object(response.productDetails)),
        pair("product_id", String(response.productID)),
        pair("success", response.success ? "true" : "false"),
      ].joined(separator: ", ") + "}"
  }

  /// A decimal as a JSON number that a `Double` reader takes back unchanged, always with a
  /// fraction: `5800` → `5800.0`, `1694.90` → `1694.9`.
  public static func number(_ value: Decimal) -> String {
    MoneyFormat.decimalString(value, fractionDigits: max(1, DecimalMath.fractionDigitCount(value)))
  }

  private static func pair(_ key: String, _ value: String) -> String {
    JSONText.string(key) + ": " + value
  }
}
