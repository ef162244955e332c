import BackofficeCore
import Fluent
import Foundation

/// A stored catalog product. Price and tax are kept exactly as integer hundredths so the
/// database sorts by price correctly; `name_key`/`type_key` are `SearchNormalizer` keys for the
/// indexed prefix search and the category filter.
final class ProductRecord: Model, @unchecked Sendable {
  static let schema = "products"

  @ID(key: .id) var id: UUID?
  /// The workspace the record belongs to.
  @Field(key: "workspace_id") var workspaceID: UUID
  /// The account's running number for the product (the Swipe API's integer `product_id`).
  @Field(key: "number") var number: Int
  @Field(key: "name") var name: String
  @Field(key: "name_key") var nameKey: String
  @Field(key: "type") var type: String
  @Field(key: "type_key") var typeKey: String
  @Field(key: "price_minor") var priceMinor: Int64
  @Field(key: "tax_minor") var taxMinor: Int64
  /// `MatchKey.make(product.matchFields)`: how an import finds the products the account
  /// already has.
  @Field(key: "match_key") var matchKey: String
  /// The SHA-256 of the current photo (its ETag), nil without a photo.
  @OptionalField(key: "photo_etag") var photoETag: String?
  /// One more on every change; see `RecordVersion`.
  @Field(key: "version") var version: Int
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

  init() {}

  init(workspaceID: UUID, number: Int, product: Product) {
    self.workspaceID = workspaceID
    self.number = number
    self.version = RecordVersion.first
    apply(product)
  }

  /// Sets the product's values and everything derived from them.
  func apply(_ product: Product) {
    let values = Values(product)
    name = values.name
    nameKey = values.nameKey
    type = values.type
    typeKey = values.typeKey
    priceMinor = values.priceMinor
    taxMinor = values.taxMinor
    matchKey = values.matchKey
  }

  /// A product's stored values: what it says and what is derived from it (search keys, exact
  /// minor units, the match key of imports).
  struct Values {
    var name: String
    var nameKey: String
    var type: String
    var typeKey: String
    var priceMinor: Int64
    var taxMinor: Int64
    var matchKey: String

    init(_ product: Product) {
      name = product.name
      nameKey = product.searchKey
      type = product.type
      typeKey = SearchNormalizer.normalize(product.type)
      priceMinor = MinorUnits(rounding: product.price)?.value ?? 0
      taxMinor = MinorUnits(rounding: product.tax)?.value ?? 0
      matchKey = MatchKey.make(product.matchFields)
    }
  }

  var product: Product {
    Product(
      name: name, type: type, price: MinorUnits(priceMinor).decimal,
      tax: MinorUnits(taxMinor).decimal)
  }
}

extension ProductRecord: VersionedRecord {
  var ownerID: UUID { workspaceID }
}

/// A product photo: the checked bytes as uploaded, with what its header says.
final class ProductPhoto: Model, @unchecked Sendable {
  static let schema = "product_photos"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "product_id") var productID: UUID
  @Field(key: "data") var data: Data
  @Field(key: "mime") var mime: String
  @Field(key: "width") var width: Int
  @Field(key: "height") var height: Int
  @Field(key: "sha256") var sha256: String
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(workspaceID: UUID, productID: UUID, upload: CheckedPhoto) {
    self.workspaceID = workspaceID
    self.productID = productID
    data = upload.data
    mime = upload.info.kind.mimeType
    width = upload.info.dimensions.width
    height = upload.info.dimensions.height
    sha256 = upload.sha256
  }
}

/// "This person likes this product": a person's own mark, in the product's workspace.
final class ProductFavorite: Model, @unchecked Sendable {
  static let schema = "product_favorites"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "user_id") var userID: UUID
  @Field(key: "product_id") var productID: UUID
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(workspaceID: UUID, userID: UUID, productID: UUID) {
    self.workspaceID = workspaceID
    self.userID = userID
    self.productID = productID
  }
}

/// The last product number handed out in an account. Numbers are never reused, so a Swipe
/// client that remembers `product_id` 12 never meets a different product 12.
final class ProductCounter: Model, @unchecked Sendable {
  static let schema = "product_counters"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "last_number") var lastNumber: Int
  /// How many products the account has now; changed in the same transaction as every create,
  /// delete and import.
  @Field(key: "product_count") var productCount: Int

  init() {}
}
