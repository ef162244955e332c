import BackofficeCore
import Foundation

/// The listing: search, category chips with counts, favourites row, a grid of product cards,
/// sort and pages. Works without scripts; `products.js` adds search-as-you-type, one-tap
/// favourites and the offline outbox.
struct ProductIndex: PageView, ReadCacheable {
  var cards: [ProductSummary]
  var favorites: [ProductSummary]
  var favoriteTotal: Int
  var chips: [ProductTypeChip]
  var filter: ProductStore.Filter
  var page: Int = 1
  var pageCount: Int = 1
  /// Products matching the filter.
  var matching: Int
  /// Products in the account, to tell "nothing saved yet" from "nothing matches".
  var accountTotal: Int
  var outbox: OutboxSettings

  static let perPage = 24
  /// About how many bytes the listing holds in the read cache.
  var cacheCost: Int { (cards.count + favorites.count) * 512 + chips.count * 96 }
  static let favoritesShown = 24
  /// The original app's wording, kept as it was in English.
  static var searchPlaceholder: String { L("products.index.search_placeholder") }

  var title: String { L("nav.products") }
  var section: NavSection? { .products }
  var scripts: [String] { ["products.js"] }

  /// The listing's own address, so forms on it come back to the same view.
  var currentHref: String { href(page: page) }

  func href(page number: Int? = nil, typeKey: String?? = .none, sort: ProductStore.Sort? = nil)
    -> String
  {
    let type = typeKey ?? filter.typeKey
    let order = sort ?? filter.sort
    let number = number ?? 1
    return Routes.products.href(query: [
      "q": filter.search.isEmpty ? nil : filter.search,
      "type": type.flatMap { $0.isEmpty ? nil : $0 },
      "sort": order == .newest ? nil : order.rawValue,
      "page": number > 1 ? String(number) : nil,
    ])
  }

  var selectedChip: ProductTypeChip? {
    chips.first { $0.key == filter.typeKey }
  }

  func content(context: PageContext) -> HTMLNode {
    H.div(
      [.class("products-page")] + outbox.attributes,
      [
        H.div(
          [.class("page-head")],
          [
            H.h1(L("nav.products")),
            H.div(
              [.class("page-actions")],
              [
                whenWriting(
                  context,
                  H.a(
                    Routes.productNew.href(), [.class("button button-primary")],
                    text: L("products.add_product"))),
                whenWriting(
                  context,
                  H.a(
                    Routes.productsImport.href(), [.class("button")],
                    text: L("products.index.import_csv"))),
                accountTotal > 0
                  ? H.a(
                    Routes.productsExport.href(), [.class("button"), .download("")],
                    text: L("products.index.export_csv"))
                  : H.empty,
              ]),
          ]),
        OutboxSettings.statusNode,
        OutboxSettings.iconTemplates,
        OutboxSettings.searchRulesNode,
        accountTotal > 0 ? searchForm : H.empty,
        accountTotal > 0 ? chipsNode(locale: context.locale) : H.empty,
        favoritesNode(context: context),
        H.section(
          [.class("product-results"), .aria(.labelledby, "products-heading")],
          [
            results(context: context)
          ]),
        whenWriting(
          context,
          H.a(
            Routes.productNew.href(),
            [
              .class("fab"), .aria(.label, L("products.add_product")),
              .title(L("products.add_product")),
            ],
            [H.span([.aria(.hidden, "true")], "+")])),
      ])
  }

  // MARK: search and categories

  var searchForm: HTMLNode {
    H.form(
      [
        .action(Routes.products.href()), .method("get"),
        .role("search"), .class("product-search"), .id("product-search"),
      ],
      [
        H.label(
          [.`for`("product-q"), .class("products-sr-only")],
          [H.text(L("products.index.search_label"))]),
        H.div(
          [.class("search-row")],
          [
            H.input([
              .type("search"), .id("product-q"), .name("q"), .value(filter.search),
              .placeholder(Self.searchPlaceholder), .autocomplete("off"),
              .enterkeyhint("search"), .aria(.controls, "product-search-results"),
              .data("api", Routes.apiProducts.href()),
            ]),
            filter.typeKey.map { H.input([.type("hidden"), .name("type"), .value($0)]) }
              ?? H.empty,
            filter.sort == .newest
              ? H.empty
              : H.input([.type("hidden"), .name("sort"), .value(filter.sort.rawValue)]),
            // A magnifier alone on a phone, so the search box keeps room for its whole hint.
            H.button(
              [
                .type("submit"), .class("button search-submit"),
                .aria(.label, L("products.index.search")),
              ],
              [
                H.svg(
                  [
                    .viewBox("0 0 24 24"), .width("20"), .height("20"), .aria(.hidden, "true"),
                    .focusable("false"),
                  ],
                  [
                    H.circle([
                      .cx("10.5"), .cy("10.5"), .r("6.5"), .fill("none"),
                      .stroke("currentColor"), .strokeWidth("2.2"),
                    ]),
                    H.path([
                      .d("M15.5 15.5L21 21"), .stroke("currentColor"), .strokeWidth("2.2"),
                      .strokeLinejoin("round"),
                    ]),
                  ]),
                H.span([.class("search-submit-text")], [H.text(L("products.index.search"))]),
              ]),
          ]),
        H.div(
          [
            .id("product-search-results"), .class("search-overlay"), .aria(.live, "polite"),
            .hidden,
          ], []),
      ])
  }

  func chipsNode(locale: BackofficeLocale) -> HTMLNode {
    var links: [HTMLNode] = [
      chipLink(
        title: L("products.index.all"), count: accountTotal, key: nil,
        selected: filter.typeKey == nil, locale: locale)
    ]
    links += chips.map { chip in
      chipLink(
        title: chip.title, count: chip.count, key: chip.key, selected: chip.key == filter.typeKey,
        locale: locale)
    }
    return H.nav(
      [.class("categories"), .aria(.labelledby, "categories-heading")],
      [
        H.h2(L("products.index.browse_categories"), [.id("categories-heading")]),
        H.ul([.class("chips")], links.map { H.li([], [$0]) }),
      ])
  }

  func chipLink(
    title: String, count: Int, key: String?, selected: Bool, locale: BackofficeLocale
  ) -> HTMLNode {
    H.a(
      href(typeKey: .some(key)),
      [.class(selected ? "chip chip-selected" : "chip")]
        + (selected ? [.aria(.current, "true")] : []),
      [H.text(title), H.span([.class("chip-count")], MoneyFormat.count(count, locale: locale))])
  }

  // MARK: favourites

  func favoritesNode(context: PageContext) -> HTMLNode {
    guard !favorites.isEmpty else {
      return H.section([.id("favorites"), .class("favorites"), .hidden], [])
    }
    let back = currentHref
    let more = favoriteTotal - favorites.count
    return H.section(
      [.id("favorites"), .class("favorites"), .aria(.labelledby, "favorites-heading")],
      [
        H.h2(L("products.index.favorites_heading"), [.id("favorites-heading")]),
        H.ul(
          [.class("favorite-row")],
          favorites.map { product in
            H.li(
              [.class("favorite-item")],
              [
                ProductCardParts.media(product, small: true),
                H.div(
                  [.class("favorite-text")],
                  [
                    editLink(
                      context, Routes.productEdit.href(id: product.id),
                      [.class("favorite-name"), .title(product.name)],
                      text: product.name),
                    H.span([.class("favorite-price")], product.priceText),
                  ]),
                ProductCardParts.favoriteForm(
                  product, on: false, back: back, csrf: context.csrf,
                  label: L("products.favorite.remove", ["name": product.name]),
                  content: [H.span([.aria(.hidden, "true")], "\u{00D7}")],
                  className: "favorite-remove", toggle: false),
              ])
          }),
        more > 0
          ? H.p([.class("muted small")], L("products.index.and_more", ["more": String(more)]))
          : H.empty,
      ])
  }

  // MARK: grid

  var heading: String {
    let base = selectedChip?.title ?? L("products.index.all_products")
    return filter.search.isEmpty
      ? base
      : L("products.index.heading_search", ["category": base, "query": filter.search])
  }

  func results(context: PageContext) -> HTMLNode {
    let types = typeTitles
    // Every card's favourite form returns here: the address is built once per page.
    let back = currentHref
    if accountTotal == 0 {
      return H.group([
        H.h2(
          L("products.index.all_products"), [.id("products-heading"), .class("products-sr-only")]),
        emptyState(
          title: L("products.index.empty_title"),
          message: L("products.index.empty_message"),
          action: whenWriting(
            context,
            H.a(
              Routes.productNew.href(), [.class("button button-primary")],
              text: L("products.add_product")))),
      ])
    }
    let head = H.div(
      [.class("list-head")],
      [
        H.h2(heading, [.id("products-heading")]),
        sortForm,
      ])
    if cards.isEmpty {
      return H.group([
        head,
        H.div(
          [.class("empty-state")],
          [
            H.p(
              [],
              filter.search.isEmpty
                ? L("products.index.nothing_on_page") : L("products.index.not_found")),
            H.a(
              Routes.products.href(), [.class("button")], text: L("products.index.show_all")),
          ]),
      ])
    }
    return H.group([
      head,
      H.p(
        [.class("muted list-count")],
        L(
          "products.index.count", count: matching,
          ["count": MoneyFormat.count(matching, locale: context.locale)])),
      H.ul(
        [.class("product-grid")], cards.map { card($0, context: context, types: types, back: back) }
      ),
      pagination,
    ])
  }

  var sortForm: HTMLNode {
    H.form(
      [
        .action(Routes.products.href()), .method("get"),
        .class("sort-form"), .id("product-sort"),
      ],
      [
        filter.search.isEmpty
          ? H.empty : H.input([.type("hidden"), .name("q"), .value(filter.search)]),
        filter.typeKey.map { H.input([.type("hidden"), .name("type"), .value($0)]) }
          ?? H.empty,
        H.label([.`for`("product-sort-order")], [H.text(L("products.index.sort"))]),
        H.select(
          [.id("product-sort-order"), .name("sort")],
          ProductStore.Sort.allCases.map { sort in
            H.option(
              [.value(sort.rawValue)] + (sort == filter.sort ? [.selected] : []),
              [H.text(sort.label)])
          }),
        H.button(L("products.index.apply"), [.class("button sort-apply")]),
      ])
  }

  /// Each type on the page with its chip's title, worked out once per type rather than once
  /// per card.
  var typeTitles: [String: String] {
    var titles: [String: String] = [:]
    for card in cards where titles[card.type] == nil { titles[card.type] = typeTitle(card.type) }
    return titles
  }

  func card(
    _ product: ProductSummary, context: PageContext, types: [String: String], back: String
  ) -> HTMLNode {
    H.li(
      [.class("product-card"), .id("product-\(product.id.uuidString.lowercased())")],
      [
        ProductCardParts.media(product, small: false),
        H.div(
          [.class("product-body")],
          [
            H.h3(
              [.class("product-name")],
              [
                editLink(
                  context, Routes.productEdit.href(id: product.id), [.title(product.name)],
                  text: product.name)
              ]),
            H.p([.class("product-type")], types[product.type] ?? typeTitle(product.type)),
            H.p([.class("product-price")], product.priceText),
            H.span([.class("tax-chip")], L("products.tax_chip", ["tax": product.taxText])),
          ]),
        ProductCardParts.favoriteForm(
          product, on: !product.favorite, back: back, csrf: context.csrf,
          label: product.favorite
            ? L("products.favorite.remove", ["name": product.name])
            : L("products.favorite.add", ["name": product.name]),
          content: [ProductCardParts.heartIcon], className: "heart"),
      ])
  }

  /// A product's type as its category chip reads ("service" under the chip "Service").
  func typeTitle(_ type: String) -> String {
    let key = SearchNormalizer.normalize(type)
    return chips.first { $0.key == key }?.title
      ?? ProductTypes.capitalized(type.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  var pagination: HTMLNode {
    Pagination.nav(page: page, pageCount: pageCount) { href(page: $0) }
  }
}

/// Pieces shared by the grid, the favourites row and the search overlay's markup.
enum ProductCardParts {
  static func media(_ product: ProductSummary, small: Bool) -> HTMLNode {
    let size = small ? "96" : "320"
    let className = small ? "product-media product-media-small" : "product-media"
    guard let src = product.photoHref else {
      return H.div(
        [
          .class(className + " product-placeholder"), .role("img"),
          .aria(.label, L("products.no_photo")),
        ],
        [placeholderIcon])
    }
    return H.div(
      [.class(className)],
      [
        H.img([
          .src(src), .alt(""), .loading("lazy"),
          .decoding("async"), .width(size), .height(size),
        ])
      ])
  }

  /// One form per product: it states the wanted state (not "toggle"), so a repeated tap or a
  /// replayed request can never flip it back.
  static func favoriteForm(
    _ product: ProductSummary, on: Bool, back: String, csrf: String, label: String,
    content: [HTMLNode], className: String, toggle: Bool = true
  ) -> HTMLNode {
    postForm(
      action: Routes.productFavorite.href(id: product.id), csrf: csrf,
      attributes: [
        .class("favorite-form"), .data("product", product.id.uuidString.lowercased()),
        .data("name", product.name),
      ],
      [
        H.input([.type("hidden"), .name("favorite"), .value(on ? "1" : "0")]),
        H.input([.type("hidden"), .name("back"), .value(back)]),
        H.button(
          [.type("submit"), .class(className), .aria(.label, label), .title(label)]
            + (toggle ? [.aria(.pressed, on ? "false" : "true")] : []), content),
      ])
  }

  /// The heart of the favourite buttons; its colour comes from the stylesheet. Written once:
  /// a page of products prints it on every card.
  static var heartIcon: HTMLNode { .raw(heartIconHTML) }
  private static let heartIconHTML = H.svg(
    [
      .viewBox("0 0 24 24"), .width("24"), .height("24"), .aria(.hidden, "true"),
      .focusable("false"),
    ],
    [
      H.path([
        .d(
          "M12 21s-7.5-4.6-9.6-9.2C.9 8.4 3 4.5 6.6 4.5c2.1 0 3.6 1.2 4.4 2.6.8-1.4 "
            + "2.3-2.6 4.4-2.6 3.6 0 5.7 3.9 4.2 7.3C19.5 16.4 12 21 12 21z")
      ])
    ]
  ).render()

  /// A picture frame, shown where a product has no photo (written once, like the heart).
  static var placeholderIcon: HTMLNode { .raw(placeholderIconHTML) }
  private static let placeholderIconHTML = H.svg(
    [
      .viewBox("0 0 48 48"), .width("48"), .height("48"), .aria(.hidden, "true"),
      .focusable("false"),
    ],
    [
      H.rect([
        .x("6"), .y("9"), .width("36"), .height("30"), .rx("4"), .fill("none"),
        .stroke("currentColor"), .strokeWidth("2.5"),
      ]),
      H.circle([.cx("17"), .cy("19"), .r("3.5"), .fill("currentColor")]),
      H.path([
        .d("M9 35l10-10 7 7 5-5 8 8"), .fill("none"), .stroke("currentColor"),
        .strokeWidth("2.5"), .strokeLinejoin("round"),
      ]),
    ]
  ).render()
}

/// What the products script needs from the page: the account the offline outbox files products
/// under, how the account writes numbers, and every address it uses (route templates, with
/// `:productID` where a product's id goes, and the service worker), so no path is written twice.
struct OutboxSettings: Sendable, Equatable {
  /// Whose outbox this is: the person in the workspace (`Request.offlineKey`).
  var account: String
  var locale: BackofficeLocale
  /// The account's currency, for the prices of products still waiting on the device.
  var currency: String = "USD"

  var attributes: [Attr] {
    [
      .data("outbox-account", account),
      .data("outbox-api", Routes.apiProductCreate.href()),
      .data("outbox-form", Routes.productNew.href()),
      .data("locale", locale.identifier),
      .data("currency", currency),
      .data("route-list", Routes.products.href()),
      .data("route-edit", Routes.productEdit.template),
      .data("route-favorite", Routes.productFavorite.template),
      .data("route-favorite-api", Routes.apiFavoriteAdd.template),
      .data("route-product-api", Routes.apiProduct.template),
      .data("route-photo", Routes.productPhoto.template),
    ]
  }

  /// How names are folded for search, for the search of the device's offline copy (data,
  /// never run; read by /js/catalog.js).
  static var searchRulesNode: HTMLNode {
    H.script([.type("application/json"), .id("search-rules")], [.raw(searchRules)])
  }

  private static let searchRules = SearchFoldingSheet().json()

  /// The service worker (`Public/sw.js`): at the root, so its scope is every page. Every
  /// signed-in page names it (`Layout.offlineAttributes`).
  static let serviceWorker = StaticFiles.serviceWorker

  /// The icons the script draws into the cards it builds, from the same markup as the page's.
  static var iconTemplates: HTMLNode {
    H.group([
      H.template([.id("icon-heart")], [ProductCardParts.heartIcon]),
      H.template([.id("icon-placeholder")], [ProductCardParts.placeholderIcon]),
    ])
  }

  /// Filled by the script: "2 products waiting to sync", refused ones with Fix and Discard.
  static var statusNode: HTMLNode {
    H.section(
      [.id("product-outbox"), .class("outbox"), .aria(.live, "polite"), .hidden], [])
  }
}
