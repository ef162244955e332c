import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

// One app at a time per suite: every test starts its own app with a database pool, and
// PostgreSQL allows only so many connections.
@Suite("Products: pages", .serialized)
struct ProductPageTests {
  @Test func emptyListingSaysWhatToDo() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/products")
      #expect(page.status == .ok)
      #expect(page.body.contains("No products yet"))
      #expect(page.body.contains(#"href="/products/new""#))
      #expect(page.body.contains(#"<script type="module" src="/js/products.js">"#))
      // The script registers the service worker at the address the page gives.
      #expect(page.body.contains(#"data-service-worker="/sw.js""#))
      #expect(try await client.get("/sw.js").status == .ok)
      #expect(page.body.contains(#"<meta name="csrf-token" content=""#))
      #expect(page.body.contains(#"<link rel="manifest" href="/manifest.webmanifest"/>"#))
      #expect(page.body.contains(#"aria-current="page">Products</a>"#))
    }
  }

  /// A card writes its type as the category chip does, and counts are grouped the locale's
  /// way with the word in the right number.
  @Test func cardsWriteTypesAsTheirChipAndCountsAreGrouped() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Repair", type: "service")
      try await client.createProduct(token: token, name: "Install", type: "Service")
      try await client.createProduct(token: token, name: "Cable", type: "Service")
      let page = try await client.get("/products")
      #expect(
        page.allMatches(#"<p class="product-type">([^<]+)</p>"#) == [
          "Service", "Service", "Service",
        ])
      #expect(page.body.contains(#"<p class="muted list-count">3 products</p>"#))

      let home = ProductsHome(count: 1_005, favorites: 1).card(locale: .enUS, canWrite: true)
        .render()
      #expect(home.contains("<strong>1,005</strong> products, 1 favourite"))
      let ukrainian = ProductsHome(count: 1, favorites: 2_000).card(locale: .ukUA, canWrite: true)
        .render()
      #expect(ukrainian.contains("<strong>1</strong> product, 2\u{00A0}000 favourites"))
    }
  }

  @Test func addShowsUploadSuccessfulAndTheCardInTheAccountsFormat() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      try await client.post("/settings/locale", form: [("locale", "en-US"), ("currency", "INR")])
      try await client.get("/products/new")
      let response = try await client.postProductForm(
        "/products",
        [
          .text("name", "  Nord CE 3 Lite "), .text("type", "Product"),
          .text("price", "1,694.92"), .text("tax", "18"),
        ])
      #expect(response.status == .seeOther)
      #expect(response.location == "/products")
      let page = try await client.get("/products")
      #expect(page.body.contains("Upload Successful: \u{201C}Nord CE 3 Lite\u{201D} was added."))
      #expect(page.productNames == ["Nord CE 3 Lite"])
      #expect(page.body.contains("₹1,694.92"))
      #expect(page.body.contains("Tax: 18%"))
      #expect(page.body.contains("product-placeholder"))
      let stored = try #require(try await ProductRecord.query(on: t.db).first())
      #expect(stored.priceMinor == 169_492)
      #expect(stored.taxMinor == 1_800)
      #expect(stored.nameKey == "nord ce 3 lite")
      #expect(stored.number == 1)
    }
  }

  @Test func amountsAreReadAndShownInTheAccountsLocale() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/settings")
      try await client.post("/settings/locale", form: [("locale", "uk-UA"), ("currency", "UAH")])
      let id = try await client.addProduct(
        name: "Ґанок", price: "1 234,50", tax: "7,25", db: t.db)
      let page = try await client.get("/products")
      #expect(page.body.contains("1\u{00A0}234,50\u{00A0}₴"))
      #expect(page.body.contains("Tax: 7,25%"))
      let edit = try await client.get("/products/\(id.uuidString)/edit")
      #expect(edit.productInputValue("price") == "1234,50")
      #expect(edit.productInputValue("tax") == "7,25")
    }
  }

  @Test(
    "validation messages next to the fields, typed values kept",
    arguments: [
      ("", "Product", "10", "18", "name", ProductMessage.nameBlank),
      (
        String(repeating: "a", count: 101), "Product", "10", "18", "name",
        ProductMessage.nameTooLong
      ),
      ("Phone", "   ", "10", "18", "type", ProductMessage.typeBlank),
      ("Phone", "Product", "", "18", "price", ProductMessage.priceMissing),
      ("Phone", "Product", "0", "18", "price", ProductMessage.priceNotPositive),
      ("Phone", "Product", "-5", "18", "price", ProductMessage.priceNotPositive),
      ("Phone", "Product", "12.3456", "18", "price", ProductMessage.priceTooPrecise),
      ("Phone", "Product", "10", "", "tax", ProductMessage.taxMissing),
      ("Phone", "Product", "10", "101", "tax", ProductMessage.taxOutOfRange),
      ("Phone", "Product", "10", "12.3456", "tax", ProductMessage.taxTooPrecise),
    ])
  func invalidProductIsRefused(
    name: String, type: String, price: String, tax: String, field: String, message: String
  ) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products/new")
      let response = try await client.postProductForm(
        "/products",
        [.text("name", name), .text("type", type), .text("price", price), .text("tax", tax)])
      #expect(response.status == .unprocessableEntity)
      #expect(response.productFieldError(field) == message)
      #expect(response.body.contains(#"aria-invalid="true""#))
      // An empty value is written as a bare `value` attribute.
      #expect((response.productInputValue("price") ?? "") == price)
      #expect((response.productInputValue("tax") ?? "") == tax)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  @Test func theSameSubmitTwiceSavesOneProduct() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let form = try await client.get("/products/new")
      let key = try #require(form.firstMatch(#"name="idempotency_key" value="([^"]+)""#))
      let parts: [ProductPart] = [
        .text("name", "Kettle"), .text("type", "Home"), .text("price", "25"),
        .text("tax", "5"), .text("idempotency_key", key),
      ]
      let first = try await client.postProductForm("/products", parts)
      let second = try await client.postProductForm("/products", parts)
      #expect(first.status == .seeOther)
      #expect(second.status == .seeOther)
      #expect(second.location == first.location)
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
      // A new form has a new key, so the same values can be added again on purpose.
      let next = try await client.get("/products/new")
      #expect(next.firstMatch(#"name="idempotency_key" value="([^"]+)""#) != key)
    }
  }

  @Test func editUpdatesAndDeleteRemoves() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addProduct(
        name: "Lamp", type: "Home", price: "30", tax: "12.5", photo: ProductImages.png(), db: t.db)
      let edit = try await client.get("/products/\(id.uuidString)/edit")
      #expect(edit.status == .ok)
      #expect(edit.productInputValue("name") == "Lamp")
      #expect(edit.productInputValue("price") == "30.00")
      #expect(edit.productInputValue("tax") == "12.5")
      #expect(edit.body.contains("Current photo"))
      #expect(edit.body.contains("Delete product"))

      let update = try await client.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "Desk lamp"), .text("type", "Home"), .text("price", "32.50"),
          .text("tax", "12.5"), .text("remove_photo", "1"),
        ])
      #expect(update.status == .seeOther)
      let stored = try #require(try await ProductRecord.find(id, on: t.db))
      #expect(stored.name == "Desk lamp")
      #expect(stored.priceMinor == 3_250)
      #expect(stored.photoETag == nil)
      #expect(try await ProductPhoto.query(on: t.db).count() == 0)
      let page = try await client.get("/products")
      #expect(page.body.contains("Saved: \u{201C}Desk lamp\u{201D} was updated."))

      let bad = try await client.postProductForm(
        "/products/\(id.uuidString)",
        [.text("name", ""), .text("type", "Home"), .text("price", "1"), .text("tax", "1")])
      #expect(bad.status == .unprocessableEntity)
      #expect(bad.productFieldError("name") == ProductMessage.nameBlank)

      try await client.get("/products")
      try await client.post("/products/\(id.uuidString)/favorite", form: [("favorite", "1")])
      try await client.get("/products")
      let deleted = try await client.post("/products/\(id.uuidString)/delete")
      #expect(deleted.status == .seeOther)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
      #expect(try await ProductFavorite.query(on: t.db).count() == 0)
      #expect(
        try await client.get("/products").body.contains("\u{201C}Desk lamp\u{201D} was deleted."))
    }
  }

  @Test func favouriteFormSetsAndNeverToggles() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addProduct(name: "Mug", db: t.db)
      let listing = try await client.get("/products")
      #expect(!listing.body.contains(#"id="favorites-heading""#))
      #expect(listing.body.contains(#"aria-label="Add “Mug” to favourites""#))
      #expect(listing.body.contains(#"aria-pressed="false""#))

      let back = "/products?sort=name"
      let first = try await client.post(
        "/products/\(id.uuidString)/favorite", form: [("favorite", "1"), ("back", back)])
      #expect(first.status == .seeOther)
      #expect(first.location == back)
      // The same request again (a double tap, a retry) leaves it a favourite.
      try await client.get("/products")
      try await client.post("/products/\(id.uuidString)/favorite", form: [("favorite", "1")])
      #expect(try await ProductFavorite.query(on: t.db).count() == 1)
      let page = try await client.get("/products")
      #expect(page.body.contains(#"id="favorites-heading">Favourite</h2>"#))
      #expect(page.body.contains(#"aria-label="Remove “Mug” from favourites""#))
      #expect(page.body.contains(#"aria-pressed="true""#))

      let off = try await client.post(
        "/products/\(id.uuidString)/favorite",
        form: [("favorite", "0"), ("back", "https://evil.example/")])
      #expect(off.location == "/products")
      #expect(try await ProductFavorite.query(on: t.db).count() == 0)
    }
  }

  @Test func chipsCountTypesAndFilter() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addProduct(name: "A phone", type: "Product", db: t.db)
      try await client.addProduct(name: "A case", type: "product", db: t.db)
      try await client.addProduct(name: "Repair", type: "Service", db: t.db)
      let page = try await client.get("/products")
      #expect(page.body.contains("Browse Categories"))
      #expect(page.body.contains(#"All<span class="chip-count">3</span>"#))
      #expect(page.body.contains(#"Product<span class="chip-count">2</span>"#))
      #expect(page.body.contains(#"Service<span class="chip-count">1</span>"#))

      let filtered = try await client.get("/products?type=product")
      #expect(Set(filtered.productNames) == ["A phone", "A case"])
      #expect(filtered.body.contains(#"<h2 id="products-heading">Product</h2>"#))
      #expect(filtered.body.contains(#"class="chip chip-selected" aria-current="true">Product"#))
      let form = try await client.get("/products/new")
      #expect(form.body.contains(#"<option value="Product"></option>"#))
      #expect(form.body.contains(#"<option value="Service"></option>"#))
    }
  }

  @Test func sortsByPriceAsNumbersAndByName() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addProduct(name: "Banana", price: "100", db: t.db)
      try await client.addProduct(name: "apple", price: "9.99", db: t.db)
      try await client.addProduct(name: "Cherry", price: "1000", db: t.db)
      #expect(try await client.get("/products").productNames == ["Cherry", "apple", "Banana"])
      #expect(
        try await client.get("/products?sort=price").productNames == ["apple", "Banana", "Cherry"])
      #expect(
        try await client.get("/products?sort=price_desc").productNames
          == ["Cherry", "Banana", "apple"])
      #expect(
        try await client.get("/products?sort=name").productNames == ["apple", "Banana", "Cherry"])
    }
  }

  @Test func pagesOf24() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for index in 1...26 {
        try await client.createProduct(token: token, name: String(format: "Item %02d", index))
      }
      let first = try await client.get("/products?sort=name")
      #expect(first.productNames.count == 24)
      #expect(first.body.contains(#"href="/products?page=2&amp;sort=name""#))
      let second = try await client.get("/products?sort=name&page=2")
      #expect(second.productNames == ["Item 25", "Item 26"])
      let past = try await client.get("/products?sort=name&page=9")
      #expect(past.productNames == ["Item 25", "Item 26"])
    }
  }

  @Test func searchOnThePageIsANamePrefix() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addProduct(name: "iPhone 15", db: t.db)
      try await client.addProduct(name: "Phone case", db: t.db)
      let page = try await client.get("/products?q=IPH")
      #expect(page.productNames == ["iPhone 15"])
      #expect(page.body.contains("names starting with \u{201C}IPH\u{201D}"))
      #expect(page.body.contains(#"placeholder="Search for what you are looking..""#))
      let none = try await client.get("/products?q=zzz")
      #expect(none.body.contains("Not found"))
    }
  }

  @Test func anotherAccountsProductIsNotFound() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addProduct(name: "Secret", photo: ProductImages.png(), db: t.db)
      let intruder = t.client()
      try await intruder.signUp()
      #expect(try await intruder.get("/products/\(id.uuidString)/edit").status == .notFound)
      #expect(try await intruder.get("/products/\(id.uuidString)/photo").status == .notFound)
      try await intruder.get("/products")
      #expect(
        try await intruder.postProductForm(
          "/products/\(id.uuidString)",
          [.text("name", "Mine"), .text("type", "x"), .text("price", "1"), .text("tax", "1")]
        ).status == .notFound)
      #expect(
        try await intruder.post("/products/\(id.uuidString)/favorite", form: [("favorite", "1")])
          .status == .notFound)
      #expect(try await intruder.post("/products/\(id.uuidString)/delete").status == .notFound)
      #expect(try await intruder.get("/products/not-a-uuid/edit").status == .notFound)
      let listing = try await intruder.get("/products")
      #expect(!listing.body.contains("Secret"))
      #expect(try await ProductRecord.find(id, on: t.db)?.name == "Secret")
    }
  }

  @Test func formsNeedTheCSRFToken() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addProduct(name: "Guarded", db: t.db)
      let parts: [ProductPart] = [
        .text("name", "X"), .text("type", "x"), .text("price", "1"), .text("tax", "1"),
      ]
      #expect(
        try await client.postProductForm("/products", parts, csrf: false).status == .forbidden)
      #expect(
        try await client.postProductForm("/products/\(id.uuidString)", parts, csrf: false).status
          == .forbidden)
      #expect(
        try await client.post("/products/\(id.uuidString)/delete", csrf: false).status
          == .forbidden)
      #expect(
        try await client.post(
          "/products/\(id.uuidString)/favorite", form: [("favorite", "1")], csrf: false
        ).status == .forbidden)
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
    }
  }

  /// Over a real connection a form with a photo arrives in several reads; the CSRF check must
  /// still find the token in the body.
  @Test func aFormWithAPhotoPassesTheCSRFCheckOverTheNetwork() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products/new")
      let boundary = "net-\(UUID().uuidString)"
      let body = productMultipartBody(
        [
          .text("name", "Streamed"), .text("type", "Big"), .text("price", "1"), .text("tax", "0"),
          .text(CSRFMiddleware.fieldName, client.csrf ?? ""),
          .file("photo", ProductImages.png(padding: 400_000), filename: "big.png"),
        ], boundary: boundary)
      var headers = HTTPHeaders()
      headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
      headers.replaceOrAdd(
        name: .cookie, value: client.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
      )
      t.app.http.client.configuration.redirectConfiguration = .disallow
      try await t.app.server.start(address: .hostname("127.0.0.1", port: 0))
      let port = try #require((t.app.server as? BackofficeHTTPServer)?.localAddress?.port)
      let response = try await t.app.client.post(
        URI(string: "http://127.0.0.1:\(port)/products"), headers: headers
      ) { request in request.body = ByteBuffer(data: body) }
      await t.app.server.shutdown()
      #expect(response.status == .seeOther)
      #expect(try await ProductRecord.query(on: t.db).first()?.name == "Streamed")
      #expect(try await ProductPhoto.query(on: t.db).count() == 1)
    }
  }

  @Test func theOverviewCountsProductsAndFavourites() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let empty = try await client.get("/")
      #expect(empty.body.contains(#"<strong>0</strong> products"#))
      #expect(empty.body.contains(#"href="/products/new" class="button">Add a product</a>"#))
      let id = try await client.addProduct(name: "Counted", db: t.db)
      try await client.addProduct(name: "Also counted", db: t.db)
      try await client.post("/products/\(id.uuidString)/favorite", form: [("favorite", "1")])
      let home = try await client.get("/")
      #expect(home.body.contains(#"<strong>2</strong> products, 1 favourite"#))
      #expect(home.body.contains(#"href="/products" class="button">Open products</a>"#))
    }
  }

  @Test func signedOutVisitorsGoToSignIn() async throws {
    try await withApp { t in
      let response = try await t.client().get("/products")
      #expect(response.status == .seeOther)
      #expect(response.location?.hasPrefix("/sign-in") == true)
    }
  }
}

/// The service worker runs without a page, so it names the paths it caches and serves offline
/// itself. Each must still be a file in `Public/` or an address the server answers.
@Suite("Service worker paths")
struct ServiceWorkerPathTests {
  @Test func everyPathTheWorkerNamesExists() throws {
    let assets = URL(fileURLWithPath: repositoryRoot).appendingPathComponent("Public")
    let script = try String(
      contentsOf: assets.appendingPathComponent("sw.js"), encoding: .utf8)
    let regex = try NSRegularExpression(pattern: #""(/[^"]*)""#)
    let paths = regex.matches(in: script, range: NSRange(script.startIndex..., in: script))
      .compactMap { Range($0.range(at: 1), in: script).map { String(script[$0]) } }
    #expect(paths.count >= 10)
    let table = RouteTable(Routes.all)
    for path in paths {
      let file = assets.appendingPathComponent(String(path.dropFirst())).path
      let isFile = FileManager.default.fileExists(atPath: file)
      let answered = [HTTPMethod.GET, .POST].contains { table.route(method: $0, path: path) != nil }
      #expect(isFile || answered, "sw.js names \(path), which is neither a file nor a route")
    }
  }
}
