import BackofficeCore
import Fluent
import Vapor

/// `GET /api/public/get` and `POST /api/public/add` with exactly the bodies of Swipe's public
/// API, so existing Swipe clients can point at Backoffice. Unlike Swipe they need a Bearer
/// token: a catalog belongs to an account.
struct SwipeAPIController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.swipeGet, use: list)
    routes.on(Routes.swipeAdd, use: add)
  }

  /// The whole catalog as one array, oldest first (Swipe has no pages).
  @Sendable func list(req: Request) async throws -> Response {
    let store = try ProductsController.store(req)
    let base = req.publicBaseURL
    // The whole catalog is read and written away from the event loops (`BackgroundWork`).
    let body = try await BackgroundWork.shared.run {
      SwipeJSON.list(
        try await store.all().map { record in
          SwipeProduct(record.product, imageURL: Self.imageURL(record, base: base))
        })
    }
    return Self.json(body, status: .ok)
  }

  struct AddForm: Decodable {
    var productName: String?
    var productType: String?
    var price: String?
    var tax: String?

    enum CodingKeys: String, CodingKey {
      case productName = "product_name"
      case productType = "product_type"
      case price, tax
    }
  }

  /// Swipe's field names for the error body, in form order.
  static let photoField = "files[]"
  static let fieldOrder = ProductField.allCases.map(\.swipeKey) + [photoField]

  @Sendable func add(req: Request) async throws -> Response {
    let workspaceID = try req.workspaceID
    let viewer = try req.userID
    let key: String?
    do {
      key = try IdempotencyKey.read(req)
    } catch let error as APIError {
      return Self.failure(error)
    }
    let form: AddForm
    do {
      form = try req.content.decode(AddForm.self)
    } catch {
      return Self.failure(
        APIError(
          .badRequest, code: "bad_request",
          message: L("products.swipe.bad_request")))
    }

    var fields: [String: String] = [:]
    var tooLarge = false
    let input = ProductInput(
      name: form.productName, type: form.productType, price: form.price.map(DecimalInput.init),
      tax: form.tax.map(DecimalInput.init))
    var product: Product?
    switch input.validate() {
    case .success(let valid): product = valid
    case .failure(let error):
      for item in error.errors { fields[item.field.swipeKey] = item.message }
    }
    // Swipe takes one image; the first non-empty file is the product's photo.
    var photo: CheckedPhoto?
    let files = Self.files(req)
    if files.isEmpty, Self.hasTextInFilesField(req) {
      // A part with content but no file name: neither a photo nor "no photo".
      fields[Self.photoField] = L("products.swipe.photo_not_file")
    }
    if let file = files.first(where: { $0.data.readableBytes > 0 }) {
      switch PhotoInput.file(file, maxBytes: req.config.maxUploadBytes) {
      case .success(let checked): photo = checked
      case .failure(let error):
        fields[Self.photoField] = error.message
        if case .tooLarge = error { tooLarge = true }
      }
    }
    guard fields.isEmpty, let product else {
      let status: HTTPResponseStatus = tooLarge ? .payloadTooLarge : .unprocessableEntity
      let message = tooLarge ? fields[Self.photoField] ?? "" : L("products.swipe.invalid_fields")
      return Self.failure(
        APIError(
          status, code: tooLarge ? "payload_too_large" : "validation_failed", message: message,
          fields: fields))
    }

    let fingerprint = IdempotencyKey.fingerprint([
      "POST /api/public/add", form.productName ?? "", form.productType ?? "", form.price ?? "",
      form.tax ?? "", photo?.sha256 ?? "",
    ])
    let base = req.publicBaseURL
    let checkedPhoto = photo
    let outcome: IdempotencyStore.Outcome
    do {
      outcome = try await IdempotencyStore(
        db: req.db, workspaceID: workspaceID, now: req.now
      ).perform(
        key: key, fingerprint: fingerprint
      ) { db in
        let record = try await ProductStore(db: db, workspaceID: workspaceID, viewerID: viewer)
          .create(
            product, photo: checkedPhoto)
        let body = SwipeJSON.addResponse(
          SwipeAddResponse(
            productID: record.number,
            productDetails: SwipeProduct(
              record.product, imageURL: Self.imageURL(record, base: base)))
        )
        return StoredAnswer(
          status: .ok, contentType: "application/json; charset=utf-8", body: Data(body.utf8))
      }
    } catch let error as APIError {
      // The same key with another request: answered in Swipe's shape like every refusal.
      return Self.failure(error)
    }
    if !outcome.replayed { req.noteActivity(.created, .product, id: nil, name: product.name) }
    return outcome.answer.response(replayed: outcome.replayed)
  }

  /// `files[]` (Swipe's name), or `files` sent once.
  static func files(_ req: Request) -> [File] {
    if let many = try? req.content.get([File].self, at: "files") { return many }
    if let one = try? req.content.get(File.self, at: "files") { return [one] }
    return []
  }

  /// Whether `files[]` came as text parts (no file name) that are not empty.
  static func hasTextInFilesField(_ req: Request) -> Bool {
    let texts =
      (try? req.content.get([String].self, at: "files"))
      ?? (try? req.content.get(String.self, at: "files")).map { [$0] } ?? []
    return texts.contains { !$0.isEmpty }
  }

  static func imageURL(_ record: ProductRow, base: String) -> String? {
    guard let etag = record.photoETag else { return nil }
    let id = record.id
    return base + Routes.apiProductPhoto.href(id: id, query: ["v": PhotoResponse.version(etag)])
  }

  static func json(_ body: String, status: HTTPResponseStatus) -> Response {
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .contentType, value: "application/json; charset=utf-8")
    return Response(status: status, headers: headers, body: .init(string: body))
  }

  /// Swipe clients read `success` and `message`; the platform's `error` envelope rides along
  /// with the field messages under Swipe's field names.
  static func failure(_ error: APIError) -> Response {
    struct Body: Encodable {
      var success = false
      var message: String
      var error: ErrorEnvelope.Body
    }
    let body = Body(
      message: fieldOrder.compactMap { error.fields[$0] }.first ?? error.message,
      error: .init(
        code: error.code, message: error.message,
        fields: error.fields.isEmpty ? nil : error.fields))
    let data = (try? JSONEncoder.api.encode(body)) ?? Data()
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .contentType, value: "application/json; charset=utf-8")
    return Response(status: error.status, headers: headers, body: .init(data: data))
  }
}
