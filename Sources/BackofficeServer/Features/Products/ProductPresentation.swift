import BackofficeCore
import Foundation
import NIOConcurrencyHelpers
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

  init(_ row: ProductRow, account: AccountFormat) {
    id = row.id
    number = row.number
    name = row.name
    type = row.type
    priceMinor = MinorUnits(row.priceMinor)
    taxMinor = MinorUnits(row.taxMinor)
    // Formatted from the stored integers: lists format every row, and `Decimal` costs more.
    let price = MinorUnits(row.priceMinor)
    let tax = MinorUnits(row.taxMinor)
    priceText = AmountWriter.text { account.amounts.currency(price, into: &$0) }
    taxText = AmountWriter.text { account.amounts.percent(tax, into: &$0) }
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

  /// The photo for API clients (Bearer token or session), from a row's photo tag.
  static func apiPhotoHref(id: UUID, etag: String) -> String {
    Routes.apiProductPhoto.href(id: id, query: ["v": PhotoResponse.version(etag)])
  }
}

/// The account's formatting settings, read once per request, with its amount writers worked
/// out once for every product the request formats.
struct AccountFormat: Sendable, Hashable {
  let locale: BackofficeLocale
  let currency: String
  /// Prices and tax rates as text.
  let amounts: AmountWriter
  /// The same inside a JSON string (`ProductJSON`): separators and signs escaped as it escapes.
  let jsonAmounts: AmountWriter

  init(locale: BackofficeLocale, currency: String) {
    self = Self.kept.format(locale: locale, currency: currency)
  }

  /// Worked out afresh.
  init(working locale: BackofficeLocale, currency: String) {
    self.locale = locale
    self.currency = currency
    amounts = AmountWriter(currency: currency, locale: locale)
    jsonAmounts = amounts.mappingPieces { JSONText.escaped($0, escapingSlashes: true) }
  }

  /// The formats the app has worked out: a request asked for its account's and built two
  /// writers of a dozen small arrays each time. The app has a few locales and a workspace
  /// one currency, so 256 are plenty.
  static let kept = KeptFormats(atMost: 256)

  /// Formats by locale and currency, the first `atMost` asked for; any past them are worked
  /// out each time.
  final class KeptFormats: Sendable {
    private struct Key: Hashable {
      var locale: BackofficeLocale
      var currency: String
    }
    private let made = NIOLockedValueBox<[Key: AccountFormat]>([:])
    let atMost: Int

    init(atMost: Int) { self.atMost = atMost }

    func format(locale: BackofficeLocale, currency: String) -> AccountFormat {
      let key = Key(locale: locale, currency: currency)
      if let known = made.withLockedValue({ $0[key] }) { return known }
      let format = AccountFormat(working: locale, currency: currency)
      made.withLockedValue {
        if $0.count < atMost { $0[key] = format }
      }
      return format
    }

    /// Whether the format for `locale` and `currency` is kept.
    func keeps(locale: BackofficeLocale, currency: String) -> Bool {
      made.withLockedValue { $0[Key(locale: locale, currency: currency)] != nil }
    }

    var count: Int { made.withLockedValue { $0.count } }
  }

  static func == (lhs: AccountFormat, rhs: AccountFormat) -> Bool {
    lhs.locale == rhs.locale && lhs.currency == rhs.currency
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(locale)
    hasher.combine(currency)
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
      imageUrl = summary.photoVersion.map {
        Routes.apiProductPhoto.href(id: summary.id, query: ["v": $0])
      }
      favorite = summary.favorite
      createdAt = summary.createdAt
      updatedAt = summary.updatedAt
      version = summary.version
    }
  }
}
