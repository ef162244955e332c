import BackofficeCore
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import BackofficeServer

/// The original app's seven documents, kept in the repository (`Tests/Fixtures`) so a clone
/// alone runs every test.
enum MarketingFixtureFiles {
  static let directory = URL(fileURLWithPath: repositoryRoot)
    .appendingPathComponent("Tests/Fixtures/marketing-catalog-npoint").standardizedFileURL

  static func documents() throws -> [String: Data] {
    var documents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
    where name.hasSuffix(".json") {
      documents[String(name.dropLast(5))] = try Data(
        contentsOf: directory.appendingPathComponent(name))
    }
    return documents
  }
}

/// Catalogs and documents made in the test, so most tests need nothing from outside.
enum MarketingSamples {
  /// The bundled catalog written out as the original documents.
  static func documents(of catalog: MarketingCatalog = .bundledDefault) -> [String: Data] {
    let (targeting, channels) = catalog.documents
    let encoder = JSONEncoder()
    var documents: [String: Data] = [:]
    documents[MarketingCatalog.targetingDocumentID] = try? encoder.encode(targeting)
    for (id, document) in channels {
      documents[id] = try? encoder.encode(document)
    }
    return documents
  }

  /// The bundled catalog without the SEO channel (and the one target that only reaches it),
  /// and with Facebook's first package at a new price.
  static var changedCatalog: MarketingCatalog {
    var catalog = MarketingCatalog.bundledDefault
    let seo = "9789d17ffaf4432dcce0"
    catalog.channels.removeAll { $0.id == seo }
    catalog.targets = catalog.targets.compactMap { target in
      var target = target
      target.channels.removeAll { $0.id == seo }
      return target.channels.isEmpty ? nil : target
    }
    catalog.channels[0].packages[0].price = 150
    return catalog
  }

  static func channel(_ id: String, _ name: String, _ fees: [(String, String)]) -> MarketingChannel
  {
    MarketingChannel(
      id: id,
      document: ChannelDocument(
        channel: name,
        monthlyFees: fees.map {
          ChannelDocument.MonthlyFee(
            price: Decimal(string: $0.0)!,
            details: ["\(name) report", "Setup", "Support", "Extra"],
            currency: $0.1)
        }))
  }

  /// Targets "Europe" → [Alpha (EUR), Beta (USD)], "Ukraine" → [Beta, Gamma (UAH)].
  static let mixedCurrencies: MarketingCatalog = {
    let alpha = channel("alpha", "Alpha", [("100.50", "EUR"), ("49.99", "EUR")])
    let beta = channel("beta", "Beta Ads", [("20", "USD"), ("0.10", "USD")])
    let gamma = channel("gamma", "Gamma", [("1500.50", "UAH")])
    func ref(_ channel: MarketingChannel) -> MarketingChannelRef {
      MarketingChannelRef(id: channel.id, name: channel.name)
    }
    return MarketingCatalog(
      targets: [
        MarketingTarget(name: "Europe", channels: [ref(alpha), ref(beta)]),
        MarketingTarget(name: "Ukraine", channels: [ref(beta), ref(gamma)]),
      ],
      channels: [alpha, beta, gamma])
  }()
}

/// A real HTTP server on loopback that plays the catalog host: it serves documents, or is
/// slow, or fails, as the test asks.
final class CatalogStubServer: Sendable {
  enum Behaviour: Sendable {
    case serve
    /// Waits this long (or until the stub stops) before answering.
    case slow(seconds: Double)
    case status(Int)
    /// Answers 200 with this body.
    case body(String)
    /// Sends `count` leading spaces one at a time, each after `interval`, then the document.
    case drip(interval: Double, count: Int)
    /// Answers 302 to this address (absolute, or a path on the stub).
    case redirect(String)
  }

  let app: Application
  let port: Int
  private let state:
    NIOLockedValueBox<
      (
        documents: [String: Data], behaviour: Behaviour, overrides: [String: Behaviour],
        hits: [String]
      )
    >
  private let stopping: NIOLockedValueBox<Bool>

  var baseURL: String { "http://127.0.0.1:\(port)/" }
  var hits: [String] { state.withLockedValue { $0.hits } }

  private init(
    app: Application, port: Int,
    state: NIOLockedValueBox<
      (
        documents: [String: Data], behaviour: Behaviour, overrides: [String: Behaviour],
        hits: [String]
      )
    >,
    stopping: NIOLockedValueBox<Bool>
  ) {
    self.app = app
    self.port = port
    self.state = state
    self.stopping = stopping
  }

  func set(_ behaviour: Behaviour, for id: String? = nil) {
    state.withLockedValue {
      if let id { $0.overrides[id] = behaviour } else { $0.behaviour = behaviour }
    }
  }

  func set(documents: [String: Data]) {
    state.withLockedValue { $0.documents = documents }
  }

  static func start(documents: [String: Data] = MarketingSamples.documents()) async throws
    -> CatalogStubServer
  {
    let app = try await Application.make(.testing)
    app.logger.logLevel = .critical
    let stopped = NIOLockedValueBox(false)
    let state = NIOLockedValueBox<
      (
        documents: [String: Data], behaviour: Behaviour, overrides: [String: Behaviour],
        hits: [String]
      )
    >(
      (documents, .serve, [:], []))
    app.get(":id") { req async throws -> Response in
      let id = req.parameters.get("id") ?? ""
      let (document, behaviour) = state.withLockedValue { state in
        state.hits.append(id)
        return (state.documents[id], state.overrides[id] ?? state.behaviour)
      }
      func ok(_ data: Data) -> Response {
        let response = Response(status: .ok, body: .init(data: data))
        response.headers.contentType = .json
        return response
      }
      switch behaviour {
      case .serve:
        guard let document else { return Response(status: .notFound) }
        return ok(document)
      case .slow(let seconds):
        let until = Date().addingTimeInterval(seconds)
        while Date() < until, !stopped.withLockedValue({ $0 }) {
          try await Task.sleep(for: .milliseconds(50))
        }
        return ok(document ?? Data())
      case .status(let code):
        return Response(status: HTTPResponseStatus(statusCode: code), body: "upstream trouble")
      case .redirect(let location):
        return Response(status: .found, headers: ["Location": location])
      case .body(let text):
        return ok(Data(text.utf8))
      case .drip(let interval, let count):
        let bytes = Array(String(repeating: " ", count: count).utf8) + Array(document ?? Data())
        return Response(
          status: .ok,
          body: .init(asyncStream: { writer in
            do {
              for index in 0..<count {
                try await Task.sleep(for: .seconds(interval))
                try await writer.write(.buffer(ByteBuffer(bytes: [bytes[index]])))
              }
              try await writer.write(.buffer(ByteBuffer(bytes: bytes.dropFirst(count))))
              try await writer.write(.end)
            } catch {
              // The client gave up (that is the point of the test): close the stream properly.
              try? await writer.write(.error(error))
            }
          }))
      }
    }
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    guard let port = app.http.server.shared.localAddress?.port else {
      try await app.asyncShutdown()
      throw Abort(.internalServerError, reason: "stub server has no port")
    }
    return CatalogStubServer(app: app, port: port, state: state, stopping: stopped)
  }

  func shutdown() async throws {
    stopping.withLockedValue { $0 = true }
    await app.server.shutdown()
    try await app.asyncShutdown()
  }

  /// Runs `body` with a started stub, and always stops it.
  static func with<T>(
    documents: [String: Data] = MarketingSamples.documents(),
    _ body: (CatalogStubServer) async throws -> T
  ) async throws -> T {
    let stub = try await start(documents: documents)
    do {
      let result = try await body(stub)
      try await stub.shutdown()
      return result
    } catch {
      try? await stub.shutdown()
      throw error
    }
  }
}

/// A loopback port nothing listens on: a stub is started and stopped to find one.
func closedLoopbackPort() async throws -> Int {
  let stub = try await CatalogStubServer.start()
  let port = stub.port
  try await stub.shutdown()
  return port
}

/// Shorter limits than the defaults (tested separately) so the slow cases finish sooner, with
/// room for a busy machine running the suite in parallel.
/// Short enough for a test of a host that never answers, long enough for a stub that does
/// answer on a machine busy with the whole suite on both cores (2 s was not, once).
func fastCatalogConfig(_ base: String) -> (inout AppConfig) -> Void {
  { config in
    config.catalogBaseURL = base
    config.catalogRequestTimeout = 8
    config.catalogTotalTimeout = 16
  }
}

/// Far longer than the limits of `fastCatalogConfig`, so a client that keeps its limits sees
/// a timeout however busy the machine is (the stub lets go when it stops).
let stubSlowSeconds = 60.0

extension TestClient {
  /// Creates a plan through the "New plan" button and returns its id (from the redirect).
  func newPlan() async throws -> String {
    try await get("/marketing")
    let response = try await post("/marketing/plans")
    #expect(response.status == .seeOther)
    let location = try #require(response.location)
    let parts = location.split(separator: "/")
    #expect(location.hasSuffix("/targets"))
    return String(parts[2])
  }

  /// Posts a form on a plan page after loading that page (for the fresh CSRF token).
  @discardableResult
  func postOn(_ page: String, _ path: String, form: [(String, String)] = []) async throws
    -> TestResponse
  {
    try await get(page)
    return try await post(path, form: form)
  }

  /// A multipart upload of `files` (field `files[]`) with the CSRF token of the last page.
  func upload(_ path: String, files: [(String, Data)], csrf: Bool = true) async throws
    -> TestResponse
  {
    let boundary = "----BackofficeTest\(UUID().uuidString)"
    var body = Data()
    func line(_ text: String) { body.append(Data((text + "\r\n").utf8)) }
    if csrf, let token = self.csrf {
      line("--\(boundary)")
      line("Content-Disposition: form-data; name=\"_csrf\"")
      line("")
      line(token)
    }
    for (name, data) in files {
      line("--\(boundary)")
      line("Content-Disposition: form-data; name=\"files[]\"; filename=\"\(name)\"")
      line("Content-Type: application/json")
      line("")
      body.append(data)
      line("")
    }
    line("--\(boundary)--")
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
    return try await send(.POST, path, headers: headers, bytes: body)
  }

  func apiJSON(
    _ method: HTTPMethod, _ path: String, token: String, json: String? = nil
  ) async throws -> TestResponse {
    var headers = HTTPHeaders()
    headers.bearerAuthorization = BearerAuthorization(token: token)
    if json != nil { headers.contentType = .json }
    return try await send(method, path, headers: headers, body: json)
  }
}

extension TestResponse {
  /// Every match of the first group of `pattern`.
  func allMatches(_ pattern: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    return regex.matches(in: body, range: NSRange(body.startIndex..., in: body)).compactMap {
      Range($0.range(at: 1), in: body).map { String(body[$0]) }
    }
  }
}
