import BackofficeCore
import Fluent
import Vapor

/// The product pages: listing, add, edit, delete, favourite, and the photo.
struct ProductsController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.products, use: index)
    routes.on(Routes.productNew, use: new)
    routes.on(Routes.productCreate, use: create)
    routes.on(Routes.productEdit, use: edit)
    routes.on(Routes.productUpdate, use: update)
    routes.on(Routes.productDelete, use: delete)
    routes.on(Routes.productFavorite, use: favorite)
    routes.on(Routes.productPhoto, use: photo)
  }

  static func store(_ req: Request) throws -> ProductStore {
    ProductStore(db: req.db, userID: try req.userID)
  }

  static func outbox(_ req: Request) throws -> OutboxSettings {
    let user = try req.user
    return OutboxSettings(accountID: try user.requireID(), locale: .resolve(user.locale))
  }

  // MARK: listing

  @Sendable func index(req: Request) async throws -> Response {
    let store = try Self.store(req)
    let account = AccountFormat(try req.user)
    let typeKey = req.query[String.self, at: "type"].map(SearchNormalizer.normalize)
    let filter = ProductStore.Filter(
      search: req.query[String.self, at: "q"] ?? "",
      typeKey: typeKey.flatMap { $0.isEmpty ? nil : $0 },
      sort: req.query[String.self, at: "sort"].flatMap(ProductStore.Sort.init) ?? .newest)
    let requested = max(1, req.query[Int.self, at: "page"] ?? 1)
    let per = ProductIndex.perPage

    let chips = try await store.chips()
    var slice = try await store.list(filter, page: requested, per: per)
    let pageCount = max(1, (slice.total + per - 1) / per)
    // A page past the end (an old link after deletes) shows the last page instead.
    let page = min(requested, pageCount)
    if page != requested { slice = try await store.list(filter, page: page, per: per) }
    let favorites = try await store.favorites(per: ProductIndex.favoritesShown)

    let view = ProductIndex(
      cards: try await store.summaries(
        slice.items, account: account, favorites: slice.favorites),
      favorites: try favorites.items.map {
        try ProductSummary($0, favorite: true, account: account)
      },
      favoriteTotal: favorites.total, chips: chips, filter: filter, page: page,
      pageCount: pageCount, matching: slice.total,
      accountTotal: chips.reduce(0) { $0 + $1.count }, outbox: try Self.outbox(req))
    return req.page(view)
  }

  // MARK: add and edit

  struct FormInput: Content {
    var name: String?
    var type: String?
    var price: String?
    var tax: String?
    var photo: File?
    var removePhoto: String?
    var idempotencyKey: String?

    enum CodingKeys: String, CodingKey {
      case name, type, price, tax, photo
      case removePhoto = "remove_photo"
      case idempotencyKey = "idempotency_key"
    }

    var values: ProductForm.Values {
      ProductForm.Values(name: name ?? "", type: type ?? "", price: price ?? "", tax: tax ?? "")
    }
  }

  func formView(_ req: Request, mode: ProductForm.Mode) async throws -> ProductForm {
    let user = try req.user
    return ProductForm(
      mode: mode, types: try await Self.store(req).chips().map(\.title),
      idempotencyKey: UUID().uuidString.lowercased(), currency: user.currency,
      maxUploadBytes: req.config.maxUploadBytes, outbox: try Self.outbox(req))
  }

  @Sendable func new(req: Request) async throws -> Response {
    req.page(try await formView(req, mode: .create))
  }

  /// The product and photo a form describes, or the form again with every problem.
  func read(_ req: Request, input: FormInput) -> (Product?, CheckedPhoto?, ProductProblems) {
    let locale = BackofficeLocale.resolve((try? req.user.locale) ?? "en-US")
    var problems = ProductProblems()
    let draft = ProductDraft(
      name: input.name ?? "", type: input.type ?? "", price: input.price ?? "",
      tax: input.tax ?? "", locale: locale)
    var product: Product?
    switch draft.validate() {
    case .success(let valid): product = valid
    case .failure(let error): problems.add(error)
    }
    var photo: CheckedPhoto?
    switch PhotoInput.file(input.photo, maxBytes: req.config.maxUploadBytes) {
    case .success(let checked): photo = checked
    case .failure(let error): problems.add(photo: error)
    }
    if !problems.isEmpty, photo != nil {
      // A file input cannot be refilled by the server.
      problems.fields[PhotoInput.field] = "Choose the photo again after fixing the other fields."
    }
    return (problems.isEmpty ? product : nil, photo, problems)
  }

  @Sendable func create(req: Request) async throws -> Response {
    let userID = try req.userID
    let input = try req.content.decode(FormInput.self)
    let (product, photo, problems) = read(req, input: input)
    guard let product else {
      var view = try await formView(req, mode: .create)
      view.values = input.values
      view.errors = problems.fields
      if let key = input.idempotencyKey, !key.isEmpty { view.idempotencyKey = key }
      return req.page(view, status: problems.status)
    }
    let key = try input.idempotencyKey.flatMap {
      $0.isEmpty ? nil : try IdempotencyKey.validated($0)
    }
    let fingerprint = IdempotencyKey.fingerprint([
      "POST /products", input.name ?? "", input.type ?? "", input.price ?? "", input.tax ?? "",
      photo?.sha256 ?? "",
    ])
    let outcome = try await IdempotencyStore(db: req.db, userID: userID, now: req.now).perform(
      key: key, fingerprint: fingerprint
    ) { db in
      _ = try await ProductStore(db: db, userID: userID).create(product, photo: photo)
      return StoredAnswer(
        status: .seeOther, contentType: "text/plain; charset=utf-8", body: Data(),
        location: Routes.products.href())
    }
    // A replay is the same submit arriving twice; the first one already said so.
    if !outcome.replayed {
      req.flash(.success, "Upload Successful: \u{201C}\(product.name)\u{201D} was added.")
    }
    return req.redirect(to: outcome.answer.location ?? Routes.products.href())
  }

  @Sendable func edit(req: Request) async throws -> Response {
    let store = try Self.store(req)
    guard let record = try await store.find(req.parameters.get("productID")), let id = record.id
    else { throw Abort(.notFound) }
    let locale = BackofficeLocale.resolve(try req.user.locale)
    var view = try await formView(req, mode: .edit(id))
    let product = record.product
    view.values = ProductForm.Values(
      name: product.name, type: product.type,
      price: MoneyFormat.editable(product.price, fractionDigits: 2, locale: locale),
      tax: MoneyFormat.editable(
        product.tax, fractionDigits: DecimalMath.fractionDigitCount(product.tax), locale: locale))
    view.photoHref = record.photoETag.map {
      Routes.productPhoto.href(id: id, query: ["v": PhotoResponse.version($0)])
    }
    return req.page(view)
  }

  @Sendable func update(req: Request) async throws -> Response {
    let store = try Self.store(req)
    guard let record = try await store.find(req.parameters.get("productID")), let id = record.id
    else { throw Abort(.notFound) }
    let input = try req.content.decode(FormInput.self)
    let (product, photo, problems) = read(req, input: input)
    guard let product else {
      var view = try await formView(req, mode: .edit(id))
      view.values = input.values
      view.errors = problems.fields
      view.photoHref = record.photoETag.map {
        Routes.productPhoto.href(id: id, query: ["v": PhotoResponse.version($0)])
      }
      return req.page(view, status: problems.status)
    }
    let change: ProductStore.PhotoChange =
      if let photo { .replace(photo) } else if input.removePhoto?.isEmpty == false { .remove } else
      {
        .keep
      }
    let userID = store.userID
    try await req.db.transaction { db in
      try await ProductStore(db: db, userID: userID).update(record, with: product, photo: change)
    }
    req.flash(.success, "Saved: \u{201C}\(product.name)\u{201D} was updated.")
    return req.redirect(to: Routes.products.href())
  }

  @Sendable func delete(req: Request) async throws -> Response {
    let store = try Self.store(req)
    guard let record = try await store.find(req.parameters.get("productID")) else {
      throw Abort(.notFound)
    }
    let userID = store.userID
    try await req.db.transaction { db in
      try await ProductStore(db: db, userID: userID).delete(record)
    }
    req.flash(.success, "\u{201C}\(record.name)\u{201D} was deleted.")
    return req.redirect(to: Routes.products.href())
  }

  // MARK: favourite and photo

  struct FavoriteInput: Content {
    var favorite: String?
    var back: String?
  }

  /// Sets (never toggles) the favourite, then returns to the listing it was sent from.
  @Sendable func favorite(req: Request) async throws -> Response {
    let store = try Self.store(req)
    guard let record = try await store.find(req.parameters.get("productID")), let id = record.id
    else { throw Abort(.notFound) }
    let input = try req.content.decode(FavoriteInput.self)
    let on = input.favorite == "1" || input.favorite == "true"
    try await store.setFavorite(id, on)
    return req.redirect(to: Self.safeBack(input.back))
  }

  /// Only a path of the listing itself, so the field cannot send anyone off-site.
  static func safeBack(_ back: String?) -> String {
    LocalPath.validated(back, within: Routes.products.href()) ?? Routes.products.href()
  }

  @Sendable func photo(req: Request) async throws -> Response {
    let store = try Self.store(req)
    guard let record = try await store.find(req.parameters.get("productID")), let id = record.id,
      let photo = try await store.photo(productID: id)
    else { throw Abort(.notFound) }
    return PhotoResponse.make(photo, request: req)
  }
}
