import BackofficeCore
import Fluent
import Foundation

/// The products card of the overview page: how many products and favourites.
struct ProductsHome: Sendable {
  var count = 0
  var favorites = 0

  static func load(db: any Database, userID: UUID) async throws -> ProductsHome {
    let store = ProductStore(db: db, userID: userID)
    return ProductsHome(
      count: try await store.count(),
      favorites: try await ProductFavorite.query(on: db).filter(\.$userID == userID).count())
  }

  func card(locale: BackofficeLocale) -> HTMLNode {
    H.div(
      [.class("card"), .id("home-products")],
      [
        H.h2("Products"),
        H.p(
          [.class("home-figure")],
          [
            H.strong([], [H.text(MoneyFormat.count(count, locale: locale))]),
            H.text(" " + Plural.english(count, one: "product", other: "products")),
            favorites > 0
              ? H.text(
                ", \(MoneyFormat.count(favorites, locale: locale)) "
                  + Plural.english(favorites, one: "favourite", other: "favourites")) : H.empty,
          ]),
        count == 0
          ? H.p([.class("muted")], "Add your products with their price, tax and a photo.")
          : H.empty,
        H.a(
          count == 0 ? Routes.productNew.href() : Routes.products.href(), [.class("button")],
          text: count == 0 ? "Add a product" : "Open products"),
      ])
  }
}
