import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing
import Vapor

@testable import BackofficeServer

/// Hands the app a request as its server would, from the connection's peer `peer`.
private func respond(
  _ app: Application, peer: String, _ path: String, headers: HTTPHeaders = [:],
  logger: Logger? = nil
) async throws -> Response {
  let request = Request(
    application: app, method: .GET, url: URI(string: path), version: .http1_1,
    headersNoUpdate: headers, collectedBody: nil,
    remoteAddress: try SocketAddress(ipAddress: peer, port: 40_000), logger: logger ?? app.logger,
    byteBufferAllocator: ByteBufferAllocator(), on: app.eventLoopGroup.next())
  return try await app.responder.current.respond(to: request).get()
}

private func status(
  _ app: Application, peer: String, headers: [(String, String)] = []
) async throws -> UInt {
  try await respond(app, peer: peer, "/metrics", headers: HTTPHeaders(headers)).status.code
}

private func expectStatus(
  _ expected: UInt, _ app: Application, peer: String, headers: [(String, String)] = [],
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  let got = try await status(app, peer: peer, headers: headers)
  #expect(got == expected, "from \(peer) \(headers)", sourceLocation: sourceLocation)
}

@Suite("Metrics: who may read them and what they say")
struct MetricsTests {
  @Test func loopbackReadsPrometheusTextWithTheRequestsAndTheAppsOwnFigures() async throws {
    try await withApp { t in
      _ = try await respond(t.app, peer: "127.0.0.1", "/health")
      let response = try await respond(t.app, peer: "127.0.0.1", "/metrics")
      #expect(response.status == .ok)
      #expect(response.headers.contentType?.description.hasPrefix("text/plain") == true)
      #expect(response.headers.first(name: .cacheControl) == "no-store")
      let text = response.body.string ?? ""
      #expect(text.contains(#"http_requests_total{method="GET",path="/health",status="200"}"#))
      #expect(text.contains(#"http_request_duration_seconds_bucket{"#))
      for name in [
        "backoffice_db_read_wait_seconds", "backoffice_db_write_wait_seconds",
        "backoffice_read_cache_lookups_total", "backoffice_import_jobs_started_total",
        "backoffice_jar_refreshes_total", "process_resident_memory_bytes", "process_open_fds",
      ] {
        #expect(text.contains("\n\(name)") || text.hasPrefix(name), "\(name) missing")
      }
      try await expectStatus(200, t.app, peer: "::1")
    }
  }

  @Test func otherAddressesAreRefused() async throws {
    try await withApp { t in
      try await expectStatus(403, t.app, peer: "203.0.113.7")
      try await expectStatus(403, t.app, peer: "10.0.0.8")
      // Words in headers change nothing without a trusted proxy.
      try await expectStatus(
        403, t.app, peer: "203.0.113.7", headers: [("X-Forwarded-For", "127.0.0.1")])
    }
  }

  @Test func aProxyThatIsNotTrustedDoesNotMakeEveryoneLoopback() async throws {
    // nginx on the same machine without BACKOFFICE_TRUSTED_PROXIES: every request arrives from
    // 127.0.0.1, and only the forwarding headers tell it came from outside.
    try await withApp { t in
      for header in ["X-Forwarded-For", "Forwarded", "X-Real-IP"] {
        try await expectStatus(403, t.app, peer: "127.0.0.1", headers: [(header, "203.0.113.7")])
      }
    }
  }

  @Test func behindATrustedProxyTheClientCounts() async throws {
    let proxies = try TrustedProxies(parsing: "127.0.0.1")
    let config: (inout AppConfig) -> Void = { $0.trustedProxies = proxies }
    try await withApp(config: config) { t in
      try await expectStatus(
        403, t.app, peer: "127.0.0.1", headers: [("X-Forwarded-For", "203.0.113.7")])
      try await expectStatus(200, t.app, peer: "127.0.0.1", headers: [("X-Forwarded-For", "::1")])
    }
  }

  @Test func theTokenOpensItFromAnywhereAndAWrongOneDoesNot() async throws {
    let token = "0123456789abcdef0123"
    let config: (inout AppConfig) -> Void = { $0.metrics.token = token }
    try await withApp(config: config) { t in
      try await expectStatus(
        200, t.app, peer: "203.0.113.7", headers: [("Authorization", "Bearer \(token)")])
      let refused = try await respond(
        t.app, peer: "203.0.113.7", "/metrics", headers: ["Authorization": "Bearer \(token)x"])
      #expect(refused.status == .unauthorized)
      #expect(refused.headers.first(name: "WWW-Authenticate") == "Bearer")
      try await expectStatus(401, t.app, peer: "203.0.113.7")
      // A wrong token is refused even from an allowed address: it was presented, and wrong.
      try await expectStatus(
        401, t.app, peer: "127.0.0.1", headers: [("Authorization", "Bearer nope")])
      try await expectStatus(200, t.app, peer: "127.0.0.1")
    }
  }

  @Test func theAllowedAddressesAreTheSetting() async throws {
    let tenNet = try TrustedProxies(parsing: "10.0.0.0/8")
    let config: (inout AppConfig) -> Void = { $0.metrics.allowed = tenNet }
    try await withApp(config: config) { t in
      try await expectStatus(200, t.app, peer: "10.20.30.40")
      try await expectStatus(403, t.app, peer: "127.0.0.1")
    }
    let nobody: (inout AppConfig) -> Void = { $0.metrics.allowed = TrustedProxies() }
    try await withApp(config: nobody) { t in
      try await expectStatus(403, t.app, peer: "127.0.0.1")
    }
  }

  @Test func settings() throws {
    func load(_ environment: [String: String]) -> Result<AppConfig, ConfigError> {
      Result { () throws(ConfigError) in try AppConfig.load(from: environment) }
    }
    let defaults = try load([:]).get()
    // `IPAddress(...)!` of literals.
    #expect(defaults.metrics.token == nil)
    #expect(defaults.metrics.allowed.contains(IPAddress("127.0.0.1")!))
    #expect(defaults.metrics.allowed.contains(IPAddress("::1")!))
    #expect(!defaults.metrics.allowed.contains(IPAddress("10.0.0.1")!))
    let set = try load([
      "BACKOFFICE_METRICS_TOKEN": "abcdefghijklmnopqrstuvwx",
      "BACKOFFICE_METRICS_ALLOW": "10.0.0.0/8, fd00::/8",
    ]).get()
    #expect(set.metrics.token == "abcdefghijklmnopqrstuvwx")
    #expect(set.metrics.allowed.contains(IPAddress("10.1.1.1")!))
    #expect(!set.metrics.allowed.contains(IPAddress("127.0.0.1")!))
    #expect(try load(["BACKOFFICE_METRICS_ALLOW": "none"]).get().metrics.allowed.isEmpty)
    guard
      case .failure(let error) = load([
        "BACKOFFICE_METRICS_TOKEN": "short", "BACKOFFICE_METRICS_ALLOW": "10.0.0.0/8, everyone",
      ])
    else {
      Issue.record("a short token and a bad address were accepted")
      return
    }
    #expect(error.problems.count == 2)
    #expect(error.description.contains("BACKOFFICE_METRICS_TOKEN must be at least 16"))
    #expect(error.description.contains(#""everyone""#))
  }
}

/// Lines a log handler wrote.
private final class Lines: Sendable {
  private let box = NIOLockedValueBox<[String]>([])
  var all: [String] { box.withLockedValue { $0 } }
  let output: JSONLogHandler.Output

  init() {
    let box = self.box
    output = JSONLogHandler.Output { line in box.withLockedValue { $0.append(line) } }
  }
}

@Suite("Logs: one line per request, JSON on request")
struct RequestLogTests {
  @Test func oneJSONLinePerRequestWithTheRouteTemplateNotThePath() async throws {
    let id = "7c0e2f1e-54a4-4f0e-9a53-0c8f3c1f0b6a"
    let lines = Lines()
    let output = lines.output
    let logger = Logger(label: "test") { label in
      JSONLogHandler(label: label, level: .info, output: output, metadataProvider: nil)
    }
    let proxies = try TrustedProxies(parsing: "127.0.0.1")
    let config: (inout AppConfig) -> Void = { $0.trustedProxies = proxies }
    try await withApp(config: config) { t in
      _ = try await respond(
        t.app, peer: "127.0.0.1", "/api/v1/products/\(id)?secret=x",
        headers: ["X-Forwarded-For": "203.0.113.7"], logger: logger)
      _ = try await respond(
        t.app, peer: "127.0.0.1", "/no/such/page?token=abc", logger: logger)
    }
    let requests = lines.all.filter { $0.contains(#""message":"request""#) }
    #expect(requests.count == 2)
    guard requests.count == 2 else { return }
    let first = try JSONSerialization.jsonObject(with: Data(requests[0].utf8)) as? [String: Any]
    #expect(first?["route"] as? String == "/api/v1/products/:productID")
    #expect(first?["client"] as? String == "203.0.113.7")
    #expect(first?["method"] as? String == "GET")
    #expect(first?["status"] as? Int == 401)
    #expect(first?["duration_ms"] is Double || first?["duration_ms"] is Int)
    #expect(first?["level"] as? String == "info")
    #expect(!requests[0].contains(id))
    let second = try JSONSerialization.jsonObject(with: Data(requests[1].utf8)) as? [String: Any]
    #expect(second?["path"] as? String == "/no/such/page")
    #expect(second?["status"] as? Int == 404)
    #expect(!requests[1].contains("token=abc"))
  }

  @Test func valuesAreEscapedAndNumbersStayNumbers() throws {
    #expect(JSONLogHandler.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    #expect(JSONLogHandler.quoted("Збір") == "\"Збір\"")
    #expect(JSONLogHandler.json(.stringConvertible(42)) == "42")
    #expect(JSONLogHandler.json(.stringConvertible(1.5)) == "1.5")
    #expect(JSONLogHandler.json(.stringConvertible(Double.nan)) == #""nan""#)
    #expect(JSONLogHandler.json(.array([.string("x"), .stringConvertible(1)])) == #"["x",1]"#)
    #expect(
      JSONLogHandler.json(.dictionary(["b": .string("2"), "a": .string("1")]))
        == #"{"a":"1","b":"2"}"#)
    let lines = Lines()
    var logger = Logger(label: "l") { label in
      JSONLogHandler(label: label, level: .warning, output: lines.output, metadataProvider: nil)
    }
    logger[metadataKey: "message"] = "shadow"
    logger.info("not written")
    logger.warning("line\nbreak", metadata: ["n": .stringConvertible(3)])
    #expect(lines.all.count == 1)
    let object = try JSONSerialization.jsonObject(with: Data(lines.all[0].utf8)) as? [String: Any]
    #expect(object?["message"] as? String == "line\nbreak")
    #expect(object?["n"] as? Int == 3)
    #expect(object?["label"] as? String == "l")
    #expect(lines.all[0].hasSuffix("}\n"))
    #expect(try LogFormat.from([:]) == .text)
    #expect(try LogFormat.from(["LOG_FORMAT": "JSON"]) == .json)
    #expect(throws: ConfigError.self) { try LogFormat.from(["LOG_FORMAT": "xml"]) }
  }
}
