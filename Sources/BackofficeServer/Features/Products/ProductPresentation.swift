import BackofficeCore
import Foundation
import Vapor

/// A product as the pages and the API show it: values formatted in the account's locale and
/// currency, and links that come from the route table.
struct ProductSummary: Sendable, Equatable {
  var id: UUID
  var number: Int
  var name: String
  var type: String
  /// The price and tax rate as stored, in hundredths.
  var priceMinor: MinorUnits
  var taxMinor: MinorUnits
  var priceText: String
  var taxText: String
  /// `PhotoResponse.version` of the current photo; nil without one.
  var photoVersion: String?
  var favorite: Bool
  var createdAt: Date?
  var updatedAt: Date?
  var version: Int

  init(_ record: ProductRecord, favorite: Bool, account: AccountFormat) throws {
    self.init(
      ProductRow(
        id: try record.requireID(), number: record.number, name: record.name, type: record.type,
        priceMinor: record.priceMinor, taxMinor: record.taxMinor, photoETag: record.photoETag,
        createdAt: record.createdAt, updatedAt: record.updatedAt, version: record.version,
        favorite: favorite),
      account: account)
  }

  init(_ row: ProductRow, account: AccountFormat) {
    id = row.id
    number = row.number
    name = row.name
    type = row.type
    priceMinor = MinorUnits(row.priceMinor)
    taxMinor = MinorUnits(row.taxMinor)
    // Formatted from the stored integers: lists format every row, and `Decimal` costs more.
    priceText = MoneyFormat.currency(priceMinor, currency: account.currency, locale: account.locale)
    taxText = ProductFormat.percent(taxMinor, locale: account.locale)
    photoVersion = row.photoETag.map(PhotoResponse.version)
    favorite = row.favorite
    createdAt = row.createdAt
    updatedAt = row.updatedAt
    version = row.version
  }

  var price: Decimal { priceMinor.decimal }
  var tax: Decimal { taxMinor.decimal }

  /// The photo on pages (session cookie).
  var photoHref: String? {
    photoVersion.map { Routes.productPhoto.href(id: id, query: ["v": $0]) }
  }

  /// The photo for API clients (Bearer token or session).
  var apiPhotoHref: String? {
    photoVersion.map { Routes.apiProductPhoto.href(id: id, query: ["v": $0]) }
  }
}

/// The account's formatting settings, read once per request.
struct AccountFormat: Sendable, Hashable {
  var locale: BackofficeLocale
  var currency: String

  init(locale: BackofficeLocale, currency: String) {
    self.locale = locale
    self.currency = currency
  }

  init(_ user: User) {
    self.init(locale: .resolve(user.locale), currency: user.currency)
  }
}

/// The native API's product: money as decimal strings, plus the account-formatted text the
/// page's search overlay shows as is.
extension ProductsAPIController {
  /// Written by `ProductJSON` (the one encoder of products); decodable for clients and tests.
  struct Item: Decodable, Equatable, Sendable {
    @LowercasedID var id: UUID
    var number: Int
    var name: String
    var type: String
    var price: String
    var tax: String
    /// The price as the account's locale and currency write it ("$1,694.92"): for clients that
    /// show it as is. `price` is the value to compute with.
    var priceDisplay: String
    /// The tax rate as the locale writes a percentage ("18%").
    var taxDisplay: String
    var imageUrl: String?
    var favorite: Bool
    var createdAt: Date?
    var updatedAt: Date?
    /// Changes with every change of the product (not with its favourite mark, which is the
    /// account's own); the ETag of the product's responses.
    var version: Int

    init(_ summary: ProductSummary) {
      id = summary.id
      number = summary.number
      name = summary.name
      type = summary.type
      price = MoneyFormat.decimalString(summary.priceMinor)
      tax = MoneyFormat.decimalString(summary.taxMinor)
      priceDisplay = summary.priceText
      taxDisplay = summary.taxText
      imageUrl = summary.apiPhotoHref
      favorite = summary.favorite
      createdAt = summary.createdAt
      updatedAt = summary.updatedAt
      version = summary.version
    }
  }
}

extension ProductStore {
  /// Summaries of `records` with their favourite flags, read in one query.
  func summaries(
    _ records: [ProductRecord], account: AccountFormat, favorites known: Set<UUID>? = nil
  ) async throws -> [ProductSummary] {
    let favorites: Set<UUID>
    if let known {
      favorites = known
    } else {
      favorites = try await favoriteIDs(among: records.compactMap(\.id))
    }
    return try records.map { record in
      try ProductSummary(
        record, favorite: record.id.map(favorites.contains) ?? false, account: account)
    }
  }

  func summary(_ record: ProductRecord, account: AccountFormat) async throws -> ProductSummary {
    try await summaries([record], account: account)[0]
  }
}
