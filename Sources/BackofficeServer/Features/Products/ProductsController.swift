import BackofficeCore
import Fluent
import Vapor

/// The product pages: listing, add, edit, delete, favourite, the photo, CSV export and import.
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
    routes.on(Routes.productsExport, use: export)
    routes.on(Routes.productsImport, use: Self.csvImport.page)
    routes.on(Routes.productsImportSubmit, use: Self.csvImport.receive)
  }

  static func store(_ req: Request) throws -> ProductStore {
    ProductStore(db: req.db, workspaceID: try req.workspaceID, viewerID: try req.userID)
  }

  static func outbox(_ req: Request) throws -> OutboxSettings {
    let user = try req.user
    return OutboxSettings(
      account: try req.offlineKey, locale: .resolve(user.locale), currency: user.currency)
  }

  // MARK: listing

  @Sendable func index(req: Request) async throws -> Response {
    let store = try Self.store(req)
    let account = AccountFormat(try req.user)
    let typeKey = req.queryValue("type").map(SearchNormalizer.normalize)
    let filter = ProductStore.Filter(
      search: req.queryValue("q") ?? "",
      typeKey: typeKey.flatMap { $0.isEmpty ? nil : $0 },
      sort: req.queryValue("sort").flatMap(ProductStore.Sort.init) ?? .newest)
    let requested = Paging.pageNumber(req)
    let query = store.query(filter, page: requested, per: ProductIndex.perPage, format: account)
    let outbox = try Self.outbox(req)
    return try await req.cachedPage(.products, key: query) {
      try await req.cached(.products, key: query) {
        try await Self.listing(
          store, filter: filter, requested: requested, account: account, outbox: outbox)
      }
    }
  }

  /// The listing's data, read from the database: chips, one page of cards, favourites.
  static func listing(
    _ store: ProductStore, filter: ProductStore.Filter, requested: Int, account: AccountFormat,
    outbox: OutboxSettings
  ) async throws -> ProductIndex {
    let per = ProductIndex.perPage
    let chips = try await store.chips()
    var slice = try await store.list(filter, page: requested, per: per)
    let window = PageWindow(requested: requested, perPage: per, total: slice.total)
    if window.page != requested {
      slice = try await store.list(filter, page: window.page, per: per)
    }
    let favorites = try await store.favorites(per: ProductIndex.favoritesShown)
    return ProductIndex(
      cards: slice.items.map { ProductSummary($0, account: account) },
      favorites: favorites.items.map { ProductSummary($0, account: account) },
      favoriteTotal: favorites.total, chips: chips, filter: filter, page: window.page,
      pageCount: window.pageCount, matching: slice.total,
      accountTotal: chips.reduce(0) { $0 + $1.count }, outbox: outbox)
  }

  /// The account's category chips with counts, from the read cache when nothing changed.
  static func chips(_ req: Request) async throws -> [ProductTypeChip] {
    let store = try Self.store(req)
    return try await req.cached(
      .products, key: ProductStore.ChipsQuery(workspaceID: store.workspaceID)
    ) {
      try await store.chips()
    }
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
    /// The version the edit form was opened at.
    var version: String?

    enum CodingKeys: String, CodingKey {
      case name, type, price, tax, photo, version
      case removePhoto = "remove_photo"
      case idempotencyKey = "idempotency_key"
    }

    var removesPhoto: Bool { removePhoto?.isEmpty == false }

    var values: ProductForm.Values {
      ProductForm.Values(name: name ?? "", type: type ?? "", price: price ?? "", tax: tax ?? "")
    }
  }

  func formView(_ req: Request, mode: ProductForm.Mode) async throws -> ProductForm {
    let user = try req.user
    return ProductForm(
      mode: mode, types: try await Self.chips(req).map(\.title),
      idempotencyKey: UUID.random().uuidString.lowercased(), currency: user.currency,
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
      problems.fields[PhotoInput.field] = L("products.form.choose_photo_again")
    }
    return (problems.isEmpty ? product : nil, photo, problems)
  }

  @Sendable func create(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let viewer = try req.userID
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
    let outcome = try await IdempotencyStore(
      db: req.db, workspaceID: workspaceID, now: req.now
    ).perform(
      key: key, fingerprint: fingerprint
    ) { db in
      _ = try await ProductStore(db: db, workspaceID: workspaceID, viewerID: viewer).create(
        product, photo: photo)
      return StoredAnswer(
        status: .seeOther, contentType: "text/plain; charset=utf-8", body: Data(),
        location: Routes.products.href())
    }
    // A replay is the same submit arriving twice; the first one already said so.
    if !outcome.replayed {
      req.flash(.success, L("products.flash.created", ["name": product.name]))
      req.noteActivity(.created, .product, id: nil, name: product.name)
    }
    return req.redirect(to: outcome.answer.location ?? Routes.products.href())
  }

  /// The form's values for a stored product, as the edit form first shows them.
  static func values(of record: ProductRow, locale: BackofficeLocale) -> ProductForm.Values {
    let product = record.product
    return ProductForm.Values(
      name: product.name, type: product.type,
      price: MoneyFormat.editable(product.price, fractionDigits: 2, locale: locale),
      tax: MoneyFormat.editable(
        product.tax, fractionDigits: DecimalMath.fractionDigitCount(product.tax), locale: locale))
  }

  static func photoHref(_ record: ProductRow, id: UUID) -> String? {
    record.photoETag.map {
      Routes.productPhoto.href(id: id, query: ["v": PhotoResponse.version($0)])
    }
  }

  @Sendable func edit(req: Request) async throws -> Response {
    let store = try Self.store(req)
    guard let record = try await store.find(req.parameters.get("productID")) else {
      throw Abort(.notFound)
    }
    let id = record.id
    let locale = BackofficeLocale.resolve(try req.user.locale)
    var view = try await formView(req, mode: .edit(id))
    view.values = Self.values(of: record, locale: locale)
    view.version = record.version
    view.photoHref = Self.photoHref(record, id: id)
    return req.page(view)
  }

  /// Saves the edit form only onto the version it was opened at: a product changed meanwhile
  /// gets the form back (409) with what was typed and the saved values next to it.
  @Sendable func update(req: Request) async throws -> Response {
    let store = try Self.store(req)
    let input = try req.content.decode(FormInput.self)
    guard let record = try await store.find(req.parameters.get("productID")) else {
      return Self.gone(req, typed: input.values)
    }
    let id = record.id
    let (product, photo, problems) = read(req, input: input)
    let expected = VersionField.parse(input.version)
    guard let product else {
      var view = try await formView(req, mode: .edit(id))
      view.values = input.values
      view.errors = problems.fields
      view.version = expected ?? 0
      view.removePhoto = input.removesPhoto
      view.photoHref = Self.photoHref(record, id: id)
      return req.page(view, status: problems.status)
    }
    let change: ProductStore.PhotoChange =
      if let photo { .replace(photo) } else if input.removesPhoto { .remove } else { .keep }
    if let expected, expected == record.version,
      try await store.update(record, expected: expected, with: product, photo: change) != nil
    {
      req.flash(.success, L("products.flash.updated", ["name": product.name]))
      req.noteActivity(.changed, .product, id: id, name: product.name)
      return req.redirect(to: Routes.products.href())
    }
    // Opened at another version, or another save got in first.
    guard let current = try await store.find(id) else {
      return Self.gone(req, typed: input.values)
    }
    return try await conflict(req, current: current, input: input, uploaded: photo != nil)
  }

  /// The edit form again, as typed, with the product's saved values where they differ and its
  /// current version, so a second submit saves on purpose.
  func conflict(_ req: Request, current: ProductRow, input: FormInput, uploaded: Bool)
    async throws -> Response
  {
    let id = current.id
    let locale = BackofficeLocale.resolve(try req.user.locale)
    var view = try await formView(req, mode: .edit(id))
    view.values = input.values
    view.version = current.version
    view.removePhoto = input.removesPhoto
    view.photoHref = Self.photoHref(current, id: id)
    view.conflict = ProductForm.changedMessage
    view.saved = SavedValue.differing(
      typed: input.values.fields, saved: Self.values(of: current, locale: locale).fields
    ) { name, typed, saved in
      guard name == "price" || name == "tax" else { return false }
      let read = { (text: String) in
        try? AmountParser.parse(text, locale: locale, maxFractionDigits: 2, allowNegative: true)
      }
      return read(typed) != nil && read(typed) == read(saved)
    }
    if uploaded {
      // A file input cannot be refilled by the server.
      view.errors[PhotoInput.field] = L("products.form.choose_photo_to_replace")
    }
    return req.page(view, status: .conflict)
  }

  /// A product deleted since its form was opened (or never this account's): 404, saying so,
  /// with what was typed.
  static func gone(_ req: Request, typed: ProductForm.Values? = nil) -> Response {
    let values = typed.map {
      [
        (L("products.gone.name"), $0.name), (L("products.gone.type"), $0.type),
        (L("products.gone.price"), $0.price), (L("products.form.tax"), $0.tax),
      ]
    }
    return req.page(
      RecordGonePage(
        heading: L("products.gone.heading"),
        message: typed == nil
          ? L("products.gone.already_deleted") : L("products.gone.deleted_while_editing"),
        typed: values?.map { (label: $0.0, value: $0.1) } ?? [],
        back: (Routes.products.href(), L("products.back_to_list")), section: .products),
      status: .notFound)
  }

  /// Deletes from the page without a version check: the question names the product and is
  /// confirmed. A product already gone is a clear 404, not an error.
  @Sendable func delete(req: Request) async throws -> Response {
    let store = try Self.store(req)
    guard let record = try await store.find(req.parameters.get("productID")),
      try await store.delete(record, now: req.now)
    else { return Self.gone(req) }
    req.flash(.success, L("products.flash.deleted", ["name": record.name]))
    req.noteActivity(.deleted, .product, id: record.id, name: record.name)
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
    guard let record = try await store.find(req.parameters.get("productID")) else {
      throw Abort(.notFound)
    }
    let id = record.id
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
    guard let record = try await store.find(req.parameters.get("productID")),
      let photo = try await store.photo(productID: record.id)
    else { throw Abort(.notFound) }
    return PhotoResponse.make(photo, request: req)
  }

  // MARK: CSV

  /// The whole catalog, oldest first, with each photo's address as the Swipe API gives it.
  @Sendable func export(req: Request) async throws -> Response {
    let store = try Self.store(req)
    let base = req.publicBaseURL
    // The whole catalog is read and written away from the event loops (`BackgroundWork`).
    let file = try await BackgroundWork.shared.run {
      let lines = try await store.all().map { record in
        ProductCSVFile.Line(
          product: record.product, favorite: record.favorite,
          imageURL: SwipeAPIController.imageURL(record, base: base), createdAt: record.createdAt)
      }
      return ProductCSVFile.export(lines)
    }
    return CSVResponse.attachment(file, filename: ProductCSVFile.filename(on: req.now))
  }

  /// The import page and its upload: the shared handler with this area's file and form.
  static let csvImport = CSVImportUpload(
    area: .products, read: ProductCSVFile.checked, json: ProductImportRows.json,
    form: ProductImportForm.init(refusal:choices:))
}
