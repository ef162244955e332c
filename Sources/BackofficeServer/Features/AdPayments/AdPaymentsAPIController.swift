import BackofficeCore
import Fluent
import Vapor

/// `/api/v1/ad-payments`: the same entries, rules and messages as the pages, as JSON.
struct AdPaymentsAPIController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.apiAdPayments, use: list)
    routes.on(Routes.apiAdPaymentCreate, use: create)
    routes.on(Routes.apiAdPayment, use: get)
    routes.on(Routes.apiAdPaymentUpdate, use: update)
    routes.on(Routes.apiAdPaymentDelete, use: delete)
  }

  // MARK: bodies

  struct Item: Codable, Equatable {
    @LowercasedID var id: UUID
    var name: String
    var url: String
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int
  }

  /// One entry with the other entries that have the same link (the form's duplicate warning).
  struct ItemDetail: Codable, Equatable {
    @LowercasedID var id: UUID
    var name: String
    var url: String
    var createdAt: Date?
    var updatedAt: Date?
    var version: Int
    var sameUrl: [Ref]
  }

  /// The subject of the API's version-conflict message ("The payment was changed since …").
  static var recordName: String { L("ad_payments.api.record_name") }

  struct Ref: Codable, Equatable {
    @LowercasedID var id: UUID
    var name: String
    var url: String
  }

  /// Missing fields count as empty, so they get the same messages as a blank form field.
  struct Input: Decodable {
    var name: String?
    var url: String?
  }

  // MARK: handlers

  @Sendable func list(req: Request) async throws -> Response {
    let store = AdPaymentStore(db: req.db, workspaceID: try req.workspaceID)
    let paging = try Paging.read(req)
    let (page, per) = (paging.page, paging.perPage)

    let items: [AdPaymentEntry]
    let total: Int
    if let sameURL = req.queryValue("same_url") {
      // Few by nature (one account's duplicates of one link), so one page holds them all.
      let others = try await store.sameURL(as: sameURL, limit: Paging.maxPerPage)
      items = page == 1 ? Array(others.prefix(per)) : []
      total = others.count
    } else {
      let slice = try await store.list(
        search: req.queryValue("q") ?? "", page: page, per: per)
      items = slice.items
      total = slice.total
    }
    return try ListPage(items: items.map(entry), paging: paging, total: total)
      .response(for: req)
  }

  @Sendable func get(req: Request) async throws -> Response {
    let store = AdPaymentStore(db: req.db, workspaceID: try req.workspaceID)
    let found = try owned(await store.find(req.parameters.get("entryID")))
    return try APIResponse.json(try await detail(found, store: store))
      .withVersion(found.version)
  }

  @Sendable func create(req: Request) async throws -> Response {
    let store = AdPaymentStore(db: req.db, workspaceID: try req.workspaceID)
    let payment = try validated(req)
    let created: AdPaymentEntry
    do {
      created = try await store.create(payment)
    } catch {
      // A row refused because its workspace is gone: answered as such, not as a failure.
      if WorkspaceDeletion.isMissingParent(error) { throw error }
      req.logger.report(error: error)
      throw Self.writeFailed(AdPaymentsController.saveFailed)
    }
    req.noteActivity(.created, .adPayment, id: created.id, name: payment.name)
    return try APIResponse.created(
      try await detail(created, store: store),
      location: Routes.apiAdPayment.href(id: created.id)
    ).withVersion(created.version)
  }

  /// Without `If-Match` the last write wins, as before versions; with it, only onto a version
  /// it names (412 otherwise).
  @Sendable func update(req: Request) async throws -> Response {
    let store = AdPaymentStore(db: req.db, workspaceID: try req.workspaceID)
    let found = try owned(await store.find(req.parameters.get("entryID")))
    let expected = try IfMatch(req.headers).expectedVersion(
      current: found.version, record: Self.recordName)
    let payment = try validated(req)
    let saved: AdPaymentEntry?
    do {
      saved = try await store.update(found, to: payment, expected: expected)
    } catch {
      // A row refused because its workspace is gone: answered as such, not as a failure.
      if WorkspaceDeletion.isMissingParent(error) { throw error }
      req.logger.report(error: error)
      throw Self.writeFailed(AdPaymentsController.updateFailed)
    }
    guard let saved else {
      throw APIError.lostWrite(
        stillThere: try await store.find(found.id) != nil, record: Self.recordName)
    }
    req.noteActivity(.changed, .adPayment, id: found.id, name: payment.name)
    return try APIResponse.json(try await detail(saved, store: store))
      .withVersion(saved.version)
  }

  @Sendable func delete(req: Request) async throws -> Response {
    let store = AdPaymentStore(db: req.db, workspaceID: try req.workspaceID)
    let found = try owned(await store.find(req.parameters.get("entryID")))
    let expected = try IfMatch(req.headers).expectedVersion(
      current: found.version, record: Self.recordName)
    guard try await store.delete(found, expected: expected) else {
      throw APIError.lostWrite(
        stillThere: try await store.find(found.id) != nil, record: Self.recordName)
    }
    req.noteActivity(.deleted, .adPayment, id: found.id, name: found.name)
    return Response(status: .noContent)
  }

  // MARK: helpers

  /// The request body as a valid entry, or a 422 naming every failing field with Core's message.
  func validated(_ req: Request) throws -> AdPayment {
    let input = try req.content.decode(Input.self, using: JSONDecoder.api)
    let draft = AdPaymentDraft(name: input.name ?? "", url: input.url ?? "")
    switch draft.validate() {
    case .success(let payment):
      return payment
    case .failure:
      throw APIError.validation(
        Dictionary(uniqueKeysWithValues: draft.fieldErrors.map { ($0.key.rawValue, $0.value) }))
    }
  }

  static func writeFailed(_ message: String) -> APIError {
    APIError(.internalServerError, code: "save_failed", message: message)
  }

  func entry(_ model: AdPaymentEntry) -> Item {
    Item(
      id: model.id, name: model.name, url: model.url, createdAt: model.createdAt,
      updatedAt: model.updatedAt, version: model.version)
  }

  func detail(_ model: AdPaymentEntry, store: AdPaymentStore) async throws -> ItemDetail {
    let id = model.id
    let others = try await store.sameURL(as: model.url, excluding: id)
    return ItemDetail(
      id: id, name: model.name, url: model.url, createdAt: model.createdAt,
      updatedAt: model.updatedAt, version: model.version,
      sameUrl: others.map { other in Ref(id: other.id, name: other.name, url: other.url) })
  }

}
