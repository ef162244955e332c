import BackofficeCore
import Fluent
import Foundation

/// The products card of the overview page: how many products and favourites.
struct ProductsHome: Sendable {
  var count = 0
  var favorites = 0

  static func load(db: any Database, workspaceID: UUID, viewerID: UUID) async throws
    -> ProductsHome
  {
    let store = ProductStore(db: db, workspaceID: workspaceID, viewerID: viewerID)
    return ProductsHome(
      count: try await store.count(), favorites: try await store.favoriteCount())
  }

  /// `canWrite`: the member may add (a viewer's empty card opens the list instead).
  func card(locale: BackofficeLocale, canWrite: Bool) -> HTMLNode {
    let adding = count == 0 && canWrite
    return H.div(
      [.class("card"), .id("home-products")],
      [
        H.h2(L("nav.products")),
        H.p(
          [.class("home-figure")],
          [
            H.strong([], [H.text(MoneyFormat.count(count, locale: locale))]),
            H.text(" " + L("products.home.unit", count: count)),
            favorites > 0
              ? H.text(
                ", "
                  + L(
                    "products.home.favorites", count: favorites,
                    ["count": MoneyFormat.count(favorites, locale: locale)])) : H.empty,
          ]),
        count == 0
          ? H.p([.class("muted")], L("products.home.empty"))
          : H.empty,
        H.a(
          adding ? Routes.productNew.href() : Routes.products.href(), [.class("button")],
          text: adding ? L("products.home.add") : L("products.home.open")),
      ])
  }
}
