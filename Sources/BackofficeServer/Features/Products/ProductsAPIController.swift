import BackofficeCore
import Fluent
import NIOConcurrencyHelpers
import Vapor

/// `/api/v1/products`, `/api/v1/product-types` and `/api/v1/favorites`: the same products,
/// rules and messages as the pages, as JSON.
struct ProductsAPIController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.apiProducts, use: list)
    routes.on(Routes.apiProductCreate, use: create)
    routes.on(Routes.apiProduct, use: get)
    routes.on(Routes.apiProductUpdate, use: update)
    routes.on(Routes.apiProductDelete, use: delete)
    routes.on(Routes.apiProductPhoto, use: photo)
    routes.on(Routes.apiProductTypes, use: types)
    routes.on(Routes.apiProductChanges, use: changes)
    routes.on(Routes.apiFavorites, use: favorites)
    routes.on(Routes.apiFavoriteAdd, use: addFavorite)
    routes.on(Routes.apiFavoriteRemove, use: removeFavorite)
  }

  // MARK: bodies

  struct TypeList: Codable {
    struct Item: Codable {
      var key: String
      var title: String
      var count: Int
    }
    var items: [Item]
  }

  /// Missing fields get the same messages as blank form fields. `price` and `tax` are decimal
  /// strings ("12.50") or JSON numbers, never locale-formatted.
  struct Input: Decodable {
    var name: String?
    var type: String?
    var price: DecimalInput?
    var tax: DecimalInput?
    /// Base64 JPEG/PNG bytes (or a `data:` URL); replaces the photo.
    var photo: String?
    /// `true` removes the photo (update only).
    var removePhoto: Bool?
    /// When set ("uk-UA"), `price` and `tax` are read the way the product form reads them in
    /// that locale ("1 234,50"): the offline outbox sends what was typed into the form.
    var locale: String?
  }

  // MARK: products

  @Sendable func list(req: Request) async throws -> Response {
    let store = try ProductsController.store(req)
    let account = AccountFormat(try req.user)
    var problems: [String: String] = [:]
    let paging = Paging.read(req, into: &problems)
    var sort = ProductStore.Sort.newest
    if let raw = req.queryValue("sort") {
      if let parsed = ProductStore.Sort(rawValue: raw) {
        sort = parsed
      } else {
        problems["sort"] = L("products.api.sort_invalid")
      }
    }
    guard problems.isEmpty else { throw APIError.validation(problems) }
    let typeKey = req.queryValue("type").map(SearchNormalizer.normalize)
    let filter = ProductStore.Filter(
      search: req.queryValue("q") ?? "",
      typeKey: typeKey.flatMap { $0.isEmpty ? nil : $0 }, sort: sort)
    let query = store.query(filter, page: paging.page, per: paging.perPage, format: account)
    let page = try await req.cached(.products, key: query) {
      let slice = try await store.list(filter, page: paging.page, per: paging.perPage)
      return ProductJSON.page(
        ListPage(items: slice.items, paging: paging, total: slice.total), account: account)
    }
    let response = page.response(for: req)
    response.headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
    return response
  }

  @Sendable func get(req: Request) async throws -> Response {
    let store = try ProductsController.store(req)
    let record = try owned(await store.find(req.parameters.get("productID")))
    return APIResponse.json(
      bytes: ProductJSON.object(record, account: AccountFormat(try req.user))
    ).withVersion(record.version)
  }

  /// Fills the shared precondition message ("The product was changed since…").
  static var recordName: String { L("products.api.record_name") }

  /// Reads and checks a body; every problem is reported at once.
  func read(_ req: Request) throws -> (Input, Product, CheckedPhoto?) {
    let input = try req.content.decode(Input.self, using: JSONDecoder.api)
    var problems = ProductProblems()
    var product: Product?
    let result: Result<Product, ProductValidationError>
    if let identifier = input.locale {
      guard let locale = BackofficeLocale(identifier: identifier) else {
        throw APIError.validation(["locale": L("products.api.locale_invalid")])
      }
      result = ProductDraft(
        name: input.name ?? "", type: input.type ?? "", price: input.price?.text ?? "",
        tax: input.tax?.text ?? "", locale: locale
      ).validate()
    } else {
      result = ProductInput(name: input.name, type: input.type, price: input.price, tax: input.tax)
        .validate()
    }
    switch result {
    case .success(let valid): product = valid
    case .failure(let error): problems.add(error)
    }
    var photo: CheckedPhoto?
    switch PhotoInput.base64(input.photo, maxBytes: req.config.maxUploadBytes) {
    case .success(let checked): photo = checked
    case .failure(.notBase64): problems.fields[PhotoInput.field] = PhotoInput.notBase64
    case .failure(.image(let error)): problems.add(photo: error)
    }
    guard problems.isEmpty, let product else { throw problems.apiError }
    return (input, product, photo)
  }

  @Sendable func create(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let viewer = try req.userID
    let account = AccountFormat(try req.user)
    let key = try IdempotencyKey.read(req)
    let (input, product, photo) = try read(req)
    let fingerprint = IdempotencyKey.fingerprint([
      "POST /api/v1/products", input.name ?? "", input.type ?? "",
      input.price?.text ?? "", input.tax?.text ?? "", input.locale ?? "", photo?.sha256 ?? "",
    ])
    let idempotency = IdempotencyStore(db: req.db, workspaceID: workspaceID, now: req.now)
    if let storage = (req.db as? SQLiteFluentDatabase)?.storage, photo == nil,
      let actor = req.signedInUser
    {
      // One transaction for the product and its activity line (a replay writes neither).
      let now = req.now
      return Self.answer(
        try await DirectProductCreation(
          storage: storage, workspaceID: workspaceID, now: now, account: account,
          activity: ActivityLog.writes(
            .created, .product, id: nil, name: product.name, workspaceID: workspaceID,
            actor: actor, now: now)
        ).perform(product, key: key, fingerprint: fingerprint, fallback: idempotency))
    }
    let outcome = try await Self.create(
      product, photo: photo, viewer: viewer, account: account, key: key,
      fingerprint: fingerprint, idempotency: idempotency)
    if !outcome.replayed {
      req.noteActivity(.created, .product, id: nil, name: product.name)
    }
    return Self.answer(outcome)
  }

  private static func answer(_ outcome: IdempotencyStore.Outcome) -> Response {
    let response = outcome.answer.response(replayed: outcome.replayed)
    // A replay answers with the first answer's body, so its version is the one to name.
    if let version = StoredAnswer.version(in: outcome.answer.body) {
      response.withVersion(version)
    }
    return response
  }

  /// A creation through the model layer: with a photo, and on PostgreSQL.
  static func create(
    _ product: Product, photo: CheckedPhoto?, viewer: UUID, account: AccountFormat, key: String?,
    fingerprint: String, idempotency: IdempotencyStore
  ) async throws -> IdempotencyStore.Outcome {
    let workspaceID = idempotency.workspaceID
    return try await idempotency.perform(key: key, fingerprint: fingerprint) { db in
      let store = ProductStore(db: db, workspaceID: workspaceID, viewerID: viewer)
      let row = try await store.create(product, photo: photo)
      var answer = StoredAnswer.product(row, account: account, status: .created)
      answer.location = Routes.apiProduct.href(id: row.id)
      return answer
    }
  }

  /// Without `If-Match` the last write wins, as before versions; with it, only onto a version
  /// it names (412 otherwise). With an `Idempotency-Key` the answer is kept, so a retry after a
  /// lost answer gets it again instead of a 412 from its own earlier success (an offline
  /// device's queued edit).
  @Sendable func update(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let viewer = try req.userID
    let account = AccountFormat(try req.user)
    let key = try IdempotencyKey.read(req)
    let productID = req.parameters.get("productID") ?? ""
    // Another account's product is 404 before anything about the body is said.
    _ = try owned(
      await ProductStore(db: req.db, workspaceID: workspaceID, viewerID: viewer).find(productID))
    let (input, product, photo) = try read(req)
    let headers = req.headers
    let fingerprint = IdempotencyKey.fingerprint([
      "PUT /api/v1/products/\(productID.lowercased())", input.name ?? "", input.type ?? "",
      input.price?.text ?? "", input.tax?.text ?? "", input.locale ?? "", photo?.sha256 ?? "",
      input.removePhoto == true ? "remove" : "", headers.first(name: .ifMatch) ?? "",
    ])
    let outcome = try await IdempotencyStore(db: req.db, workspaceID: workspaceID, now: req.now)
      .perform(
        key: key, fingerprint: fingerprint
      ) { db in
        let store = ProductStore(db: db, workspaceID: workspaceID, viewerID: viewer)
        let record = try owned(await store.find(productID))
        let expected = try IfMatch(headers).expectedVersion(
          current: record.version, record: Self.recordName)
        let change: ProductStore.PhotoChange =
          if let photo { .replace(photo) } else if input.removePhoto == true { .remove } else {
            .keep
          }
        guard
          let saved = try await store.update(
            record, expected: expected, with: product, photo: change)
        else {
          throw APIError.lostWrite(
            stillThere: try await store.find(record.id) != nil, record: Self.recordName)
        }
        return StoredAnswer.product(saved, account: account, status: .ok)
      }
    if !outcome.replayed {
      req.noteActivity(
        .changed, .product, id: UUID(uuidString: productID), name: product.name)
    }
    let response = outcome.answer.response(replayed: outcome.replayed)
    if let version = StoredAnswer.version(in: outcome.answer.body) {
      response.withVersion(version)
    }
    return response
  }

  /// `If-Match` and `Idempotency-Key` as for `update`: a repeated delete with its key answers
  /// 204 again.
  @Sendable func delete(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let viewer = try req.userID
    let key = try IdempotencyKey.read(req)
    let productID = req.parameters.get("productID") ?? ""
    let headers = req.headers
    let now = req.now
    let fingerprint = IdempotencyKey.fingerprint([
      "DELETE /api/v1/products/\(productID.lowercased())", headers.first(name: .ifMatch) ?? "",
    ])
    // The deleted product's name, for the activity log.
    let deletedName = NIOLockedValueBox<String?>(nil)
    let outcome = try await IdempotencyStore(db: req.db, workspaceID: workspaceID, now: now)
      .perform(
        key: key, fingerprint: fingerprint
      ) { db in
        let store = ProductStore(db: db, workspaceID: workspaceID, viewerID: viewer)
        let record = try owned(await store.find(productID))
        let expected = try IfMatch(headers).expectedVersion(
          current: record.version, record: Self.recordName)
        deletedName.withLockedValue { $0 = record.name }
        guard try await store.delete(record, expected: expected, now: now) else {
          throw APIError.lostWrite(
            stillThere: try await store.find(record.id) != nil, record: Self.recordName)
        }
        return StoredAnswer(status: .noContent, contentType: "", body: Data())
      }
    if !outcome.replayed, let gone = deletedName.withLockedValue({ $0 }) {
      req.noteActivity(.deleted, .product, id: UUID(uuidString: productID), name: gone)
    }
    return outcome.answer.response(replayed: outcome.replayed)
  }

  @Sendable func photo(req: Request) async throws -> Response {
    let store = try ProductsController.store(req)
    let record = try owned(await store.find(req.parameters.get("productID")))
    let photo = try owned(await store.photo(productID: record.id))
    return PhotoResponse.make(photo, request: req)
  }

  @Sendable func types(req: Request) async throws -> Response {
    let chips = try await ProductsController.chips(req)
    return try APIResponse.json(
      TypeList(items: chips.map { .init(key: $0.key, title: $0.title, count: $0.count) }))
  }

  // MARK: favourites

  @Sendable func favorites(req: Request) async throws -> Response {
    let store = try ProductsController.store(req)
    let account = AccountFormat(try req.user)
    let paging = try Paging.read(req)
    let slice = try await store.favorites(page: paging.page, per: paging.perPage)
    return ProductJSON.page(
      ListPage(items: slice.items, paging: paging, total: slice.total), account: account
    ).response(for: req)
  }

  /// Idempotent: favouriting a favourite is fine and answers the same.
  @Sendable func addFavorite(req: Request) async throws -> Response {
    let store = try ProductsController.store(req)
    var record = try owned(await store.find(req.parameters.get("productID")))
    try await store.setFavorite(record.id, true)
    record.favorite = true
    return APIResponse.json(
      bytes: ProductJSON.object(record, account: AccountFormat(try req.user)))
  }

  @Sendable func removeFavorite(req: Request) async throws -> Response {
    let store = try ProductsController.store(req)
    let record = try owned(await store.find(req.parameters.get("productID")))
    try await store.setFavorite(record.id, false)
    return Response(status: .noContent)
  }

}
