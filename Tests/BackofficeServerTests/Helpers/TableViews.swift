import BackofficeCore
import Fluent
import Foundation

@testable import BackofficeServer

// Tables as tests inspect them. The app has no models for them: their store holds their SQL
// and reads rows into plain values (`ProductStore` into `ProductRow`, `AdPaymentStore` into
// `AdPaymentEntry`, `MarketingPlanQueries` into `MarketingPlanRecord`). Tests look at what was stored (and, to play another writer, change a
// row) through these small Fluent views of the same tables.

final class ProductRecord: Model, @unchecked Sendable {
  static let schema = "products"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "number") var number: Int
  @Field(key: "name") var name: String
  @Field(key: "name_key") var nameKey: String
  @Field(key: "type") var type: String
  @Field(key: "type_key") var typeKey: String
  @Field(key: "price_minor") var priceMinor: Int64
  @Field(key: "tax_minor") var taxMinor: Int64
  @Field(key: "match_key") var matchKey: String
  @OptionalField(key: "photo_etag") var photoETag: String?
  @Field(key: "version") var version: Int
  @Timestamp(key: "created_at", on: .none) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .none) var updatedAt: Date?

  init() {}

  var product: Product {
    Product(
      name: name, type: type, price: MinorUnits(priceMinor).decimal,
      tax: MinorUnits(taxMinor).decimal)
  }
}

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
  @Timestamp(key: "created_at", on: .none) var createdAt: Date?

  init() {}
}

final class ProductFavorite: Model, @unchecked Sendable {
  static let schema = "product_favorites"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "user_id") var userID: UUID
  @Field(key: "product_id") var productID: UUID
  @Timestamp(key: "created_at", on: .none) var createdAt: Date?

  init() {}
}

final class ProductCounter: Model, @unchecked Sendable {
  static let schema = "product_counters"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "last_number") var lastNumber: Int
  @Field(key: "product_count") var productCount: Int

  init() {}
}

final class AdPaymentTable: Model, @unchecked Sendable {
  static let schema = "ad_payments"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "name") var name: String
  @Field(key: "url") var url: String
  @Field(key: "sort_key") var sortKey: String
  @Field(key: "url_search") var urlSearch: String
  @Field(key: "url_key") var urlKey: String
  @Field(key: "match_key") var matchKey: String
  @Timestamp(key: "created_at", on: .none) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .none) var updatedAt: Date?
  @Field(key: "version") var version: Int

  init() {}

  var payment: AdPayment { AdPayment(name: name, url: url) }
}

final class MarketingPlanTable: Model, @unchecked Sendable {
  static let schema = "marketing_plans"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "name") var name: String
  @Field(key: "selection_json") var selectionJSON: String
  @Field(key: "recipient") var recipient: String
  @OptionalField(key: "subject") var subject: String?
  @Timestamp(key: "created_at", on: .none) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .none) var updatedAt: Date?
  @Field(key: "version") var version: Int

  init() {}

  var selection: PlanSelection {
    get { MarketingJSON.decodeSelection(selectionJSON) }
    set { selectionJSON = MarketingJSON.encode(newValue) }
  }
}
