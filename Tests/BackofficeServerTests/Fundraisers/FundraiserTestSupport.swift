import BackofficeCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import BackofficeServer

/// A real HTTP server on loopback that speaks the jar protocol: `POST /api/handler` with
/// `{"c":"hello","clientId":…}`. What it answers for each jar id is set by the test.
final class JarStub: Sendable {
  enum Reply: Sendable {
    /// A jar: amounts in kopiykas, status as the service writes it.
    case jar(amount: Int64, goal: Int64?, status: String = "ACTIVE")
    /// `{"errCode": …, "errText": …}` with HTTP 200, as the service does.
    case serviceError(code: String, text: String)
    /// Answers only after `seconds` (or when the stub stops), far beyond any client timeout:
    /// a client that gives up in time sees a timeout however busy the machine is.
    case slow(seconds: Double)
    /// Any bytes with any status.
    case raw(status: HTTPStatus, body: String)
    /// 307 (repeat the POST) to this address.
    case redirect(String)
  }

  let app: Application
  let port: Int
  private let replies = NIOLockedValueBox<[String: Reply]>([:])
  private let received = NIOLockedValueBox<[String]>([])
  private let stopping = NIOLockedValueBox(false)

  private init(app: Application, port: Int) {
    self.app = app
    self.port = port
  }

  var baseURL: String { "http://127.0.0.1:\(port)/" }

  /// Request bodies received, in order.
  var requests: [String] { received.withLockedValue { $0 } }

  func set(_ jar: String, _ reply: Reply) {
    replies.withLockedValue { $0[jar] = reply }
  }

  static func start() async throws -> JarStub {
    let app = try await Application.make(.testing)
    app.logger.logLevel = .critical
    app.middleware = Middlewares()
    let box = NIOLockedValueBox<JarStub?>(nil)
    app.on(.POST, "api", "handler") { req async throws -> Response in
      guard let stub = box.withLockedValue({ $0 }) else {
        return Response(status: .serviceUnavailable)
      }
      let body = req.body.string ?? ""
      stub.received.withLockedValue { $0.append(body) }
      let object =
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
      let jar = object["clientId"] as? String ?? ""
      switch stub.replies.withLockedValue({ $0[jar] }) {
      case nil:
        return json(#"{"errCode":"NOT_FOUND","errText":"Банку не знайдено"}"#)
      case .jar(let amount, let goal, let status)?:
        let goalText = goal.map(String.init) ?? "null"
        return json(
          #"{"jarAmount":\#(amount),"jarGoal":\#(goalText),"jarStatus":"\#(status)","#
            + #""name":"Stub jar","description":"","extJarId":"ext-\#(jar)"}"#)
      case .serviceError(let code, let text)?:
        return json(#"{"errCode":"\#(code)","errText":"\#(text)"}"#)
      case .slow(let seconds)?:
        let until = Date().addingTimeInterval(seconds)
        while Date() < until, !stub.stopping.withLockedValue({ $0 }) {
          try await Task.sleep(for: .milliseconds(50))
        }
        return json(#"{"jarAmount":1,"jarGoal":2,"jarStatus":"ACTIVE"}"#)
      case .raw(let status, let text)?:
        return Response(status: status, body: .init(string: text))
      case .redirect(let location)?:
        return Response(status: .temporaryRedirect, headers: ["Location": location])
      }
    }
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    guard let port = app.http.server.shared.localAddress?.port else {
      try await app.asyncShutdown()
      throw Abort(.internalServerError, reason: "stub has no port")
    }
    let stub = JarStub(app: app, port: port)
    box.withLockedValue { $0 = stub }
    return stub
  }

  func stop() async {
    stopping.withLockedValue { $0 = true }
    await app.server.shutdown()
    try? await app.asyncShutdown()
  }

  private static func json(_ text: String) -> Response {
    let response = Response(status: .ok, body: .init(string: text))
    response.headers.contentType = .json
    return response
  }
}

/// Runs `test` with a jar stub, always stopping it.
func withJarStub<T>(_ test: (JarStub) async throws -> T) async throws -> T {
  let stub = try await JarStub.start()
  do {
    let result = try await test(stub)
    await stub.stop()
    return result
  } catch {
    await stub.stop()
    throw error
  }
}

/// An app whose jar client talks to `stub`, with a short timeout and no background loop.
func withFundraiserApp<T>(
  stub: JarStub? = nil, _ test: (TestApp) async throws -> T
) async throws -> T {
  try await withApp(
    config: { config in
      if let stub { config.monobankBaseURL = stub.baseURL }
      // Long enough for a stub's answer on a machine busy with other work; the slow stub
      // answers only after a minute, so the timeout cases still time out.
      config.jarRequestTimeout = 5
      config.jarRefreshMinutes = 0
    }, test)
}

/// A PNG whose header is real (the server reads only the header).
enum FundraiserImages {
  static func png(width: Int = 6, height: Int = 4) -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += [0, 0, 0, 13] + Array("IHDR".utf8) + be32(width) + be32(height)
    bytes += [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    bytes += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    return Data(bytes)
  }

  private static func be32(_ value: Int) -> [UInt8] {
    [
      UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
      UInt8(value & 0xFF),
    ]
  }
}

/// One field of a fundraiser form post.
struct FundraiserFormField {
  var name: String
  var value: Data
  var filename: String?

  static func text(_ name: String, _ value: String) -> FundraiserFormField {
    FundraiserFormField(name: name, value: Data(value.utf8))
  }

  static func photo(_ data: Data, filename: String = "photo.png") -> FundraiserFormField {
    FundraiserFormField(name: "photo", value: data, filename: filename)
  }
}

let fundraiserJar = "https://send.monobank.ua/jar/StubJar001"

extension TestClient {
  /// Posts the fundraiser form as a browser does (multipart), with the page's CSRF token.
  @discardableResult
  func postFundraiserForm(
    _ path: String, _ fields: [FundraiserFormField], csrf: Bool = true
  ) async throws -> TestResponse {
    let boundary = "----fundraiser-\(UUID().uuidString)"
    var all = fields
    if csrf, let token = self.csrf { all.append(.text(CSRFMiddleware.fieldName, token)) }
    if !fields.contains(where: { $0.name == VersionField.name }), let version {
      all.append(.text(VersionField.name, version))
    }
    var body = Data()
    for field in all {
      var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\""
      if let filename = field.filename {
        head += "; filename=\"\(filename)\"\r\nContent-Type: application/octet-stream"
      }
      body.append(Data((head + "\r\n\r\n").utf8))
      body.append(field.value)
      body.append(Data("\r\n".utf8))
    }
    body.append(Data("--\(boundary)--\r\n".utf8))
    return try await send(
      .POST, path, headers: ["Content-Type": "multipart/form-data; boundary=\(boundary)"],
      bytes: body)
  }

  /// Creates a fundraiser through the form and returns its id.
  @discardableResult
  func addFundraiser(
    purpose: String = "На дрон для 47 бригади", target: String = "15 000",
    jar: String = fundraiserJar, template: Int = 7, showProgress: Bool = false
  ) async throws -> UUID {
    try await get("/fundraisers/new")
    var fields: [FundraiserFormField] = [
      .text("purpose", purpose), .text("target", target), .text("jar_link", jar),
      .text("template", String(template)), .text("scale", "1.5"), .text("offset_x", "12"),
      .text("offset_y", "-8"), .photo(FundraiserImages.png()),
    ]
    if showProgress { fields.append(.text("show_progress", "1")) }
    let response = try await postFundraiserForm("/fundraisers", fields)
    #expect(response.status == .seeOther, "create failed: \(response.status) \(response.body)")
    let location = try #require(response.location)
    let id = try #require(
      location.split(separator: "/").last.flatMap { UUID(uuidString: String($0.prefix(36))) })
    try await get(location)
    return id
  }
}
