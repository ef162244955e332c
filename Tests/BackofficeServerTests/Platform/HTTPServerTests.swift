import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing
import Vapor

@testable import BackofficeServer

/// A connection to the running server over a plain socket, so every byte is what the test
/// wrote (no client library tidying requests up). Reads block, so they run on a thread of
/// their own: blocking one of the few threads Swift's concurrency runs on would starve the
/// server under test.
final class RawConnection: @unchecked Sendable {
  let handle: Int32

  init(port: Int) throws {
    handle = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(handle, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(handle, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw Abort(.internalServerError, reason: "connect failed") }
  }

  deinit { close(handle) }

  func send(_ text: String) {
    let bytes = Array(text.utf8)
    // MSG_NOSIGNAL: writing to a connection the server already closed fails instead of
    // ending the test process with SIGPIPE.
    _ = bytes.withUnsafeBytes { Glibc.send(handle, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// Reads until `done` holds for what arrived, the peer closes, or 30 s pass.
  func read(until done: @escaping @Sendable (String) -> Bool) async -> String {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread { continuation.resume(returning: self.blockingRead(until: done)) }
    }
  }

  /// True when the server closed the connection (a read returns end of file).
  func isClosedByServer() async -> Bool {
    await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        var byte: UInt8 = 0
        continuation.resume(returning: recv(self.handle, &byte, 1, 0) == 0)
      }
    }
  }

  private func blockingRead(until done: (String) -> Bool) -> String {
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !done(String(decoding: received, as: UTF8.self)) {
      let count = recv(handle, &buffer, buffer.count, 0)
      if count <= 0 { break }
      received += buffer[0..<count]
    }
    return String(decoding: received, as: UTF8.self)
  }
}

private func countResponses(_ text: String) -> Int {
  text.components(separatedBy: "HTTP/1.1 ").count - 1
}

/// Starts the app's own HTTP server on a free loopback port for `test`.
private func withRunningServer(
  config: @escaping (inout AppConfig) -> Void = { _ in },
  _ test: (TestApp, Int) async throws -> Void
) async throws {
  try await withApp(config: config) { t in
    try await t.app.server.start(address: .hostname("127.0.0.1", port: 0))
    let server = try #require(t.app.server as? BackofficeHTTPServer)
    let port = try #require(server.localAddress?.port)
    do {
      try await test(t, port)
      await t.app.server.shutdown()
    } catch {
      await t.app.server.shutdown()
      throw error
    }
  }
}

@Suite("HTTP server: keep-alive, pipelining, limits")
struct HTTPServerTests {
  @Test func keepAliveAndPipelinedRequestsAnswerInOrder() async throws {
    try await withRunningServer { _, port in
      let connection = try RawConnection(port: port)
      connection.send(
        "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /ready HTTP/1.1\r\nHost: x\r\n\r\n"
          + "HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n")
      let text = await connection.read { countResponses($0) == 3 && $0.hasSuffix("\r\n\r\n") }
      #expect(countResponses(text) == 3)
      let health = try #require(text.range(of: #"{"status":"ok"}"#))
      let ready = try #require(text.range(of: #"{"status":"ready"}"#))
      #expect(health.lowerBound < ready.lowerBound, "answers keep the order of the requests")
      #expect(text.lowercased().contains("connection: keep-alive"))
      #expect(text.lowercased().contains("date: "))
      let headAnswer = String(text[ready.upperBound...])
      #expect(headAnswer.contains("content-length: 15"), "HEAD says how long the body would be")
      #expect(!headAnswer.contains(#"{"status""#), "and sends none")
    }
  }

  @Test func aDeclaredBodyOverTheLimitIsRefusedBeforeReading() async throws {
    try await withRunningServer { _, port in
      let connection = try RawConnection(port: port)
      connection.send(
        "POST /api/v1/products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + "Content-Length: 999999999999\r\n\r\n{}")
      let text = await connection.read { $0.contains("\r\n\r\n") }
      #expect(text.hasPrefix("HTTP/1.1 413"))
      #expect(text.lowercased().contains("connection: close"))
    }
  }

  @Test func expectContinueGetsAnInterimAnswer() async throws {
    try await withRunningServer { _, port in
      let connection = try RawConnection(port: port)
      connection.send(
        "POST /sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
          + "Content-Length: 7\r\nExpect: 100-continue\r\n\r\n")
      #expect(await connection.read { $0.contains("\r\n\r\n") }.hasPrefix("HTTP/1.1 100 Continue"))
      connection.send("email=x")
      #expect(await connection.read { $0.contains("\r\n\r\n") }.hasPrefix("HTTP/1.1 403"))
    }
  }

  @Test func connectionsFromOneAddressAreLimited() async throws {
    let limited: (inout AppConfig) -> Void = { $0.connections.maxConnectionsPerAddress = 3 }
    try await withRunningServer(config: limited) { t, port in
      let server = try #require(t.app.server as? BackofficeHTTPServer)
      var open = try (0..<3).map { _ in try RawConnection(port: port) }
      // The fourth is closed as soon as it is accepted, without being read.
      let fourth = try RawConnection(port: port)
      #expect(await fourth.isClosedByServer())
      // The three admitted ones still work.
      open[0].send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(await open[0].read { $0.contains(#"{"status":"ok"}"#) }.hasPrefix("HTTP/1.1 200"))
      // One closes, and there is room again once the server has seen it go.
      open.removeFirst()
      for _ in 0..<600 where server.connections.total > 2 {
        try await Task.sleep(for: .milliseconds(50))
      }
      let again = try RawConnection(port: port)
      again.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      #expect(await again.read { _ in false }.hasPrefix("HTTP/1.1 200"))
      #expect(open.count == 2)
    }
  }

  @Test func headersThatNeverFinishAreCutOff() async throws {
    let quick: (inout AppConfig) -> Void = { $0.connections.headerTimeout = .milliseconds(300) }
    try await withRunningServer(config: quick) { _, port in
      let connection = try RawConnection(port: port)
      connection.send("GET /health HTTP/1.1\r\nHost: x\r\n")
      // The read blocks until the server closes (or 30 s pass, failing the test).
      #expect(await connection.isClosedByServer())
    }
  }

  /// The deadline moves with each request on a kept-alive connection (one timer, started
  /// again when it finds a later deadline): a connection that had answers and then sends
  /// half a request is still cut off. The requests arrive together, so how fast the server
  /// answers does not matter.
  @Test func aKeptAliveConnectionIsCutOffAfterItsLastRequest() async throws {
    let quick: (inout AppConfig) -> Void = { $0.connections.headerTimeout = .milliseconds(300) }
    try await withRunningServer(config: quick) { _, port in
      let connection = try RawConnection(port: port)
      connection.send(
        String(repeating: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", count: 3)
          + "GET /health HTTP/1.1\r\nHost: x\r\n")
      // Reads until the server closes (or 30 s pass, and the check below fails).
      let text = await connection.read { _ in false }
      #expect(countResponses(text) == 3)
      #expect(await connection.isClosedByServer())
    }
  }

  /// Paths the server does not route by itself (percent-escapes, `//`) are routed by the
  /// parsed URL, as Vapor's responder routes them: escapes are not decoded, and a path that
  /// begins with `//` names a host.
  @Test func unusualPathsAreRoutedByTheParsedURL() async throws {
    try await withRunningServer { _, port in
      for (target, status) in [
        ("/%68ealth", "404"), ("/health?x=%20", "200"), ("//example/health", "200"),
      ] {
        let connection = try RawConnection(port: port)
        connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = await connection.read { _ in false }
        #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(target)")
      }
    }
  }

  /// `TCP_NODELAY` is set at the TCP level: set at the socket level the same number is
  /// `SO_DEBUG`, refused to anyone but root, and every connection of a server run as its own
  /// user (systemd's unit) was closed at once.
  @Test func connectionsGetNoDelayAndNothingOnlyRootMaySet() async throws {
    try await withRunningServer { t, port in
      let server = try #require(t.app.server as? BackofficeHTTPServer)
      let accepted = NIOLockedValueBox<(any Channel)?>(nil)
      server.acceptObserver.withLockedValue {
        $0 = { channel in accepted.withLockedValue { $0 = channel } }
      }
      let connection = try RawConnection(port: port)
      connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
      let answer = await connection.read(until: { $0.contains("\r\n\r\n") })
      #expect(answer.hasPrefix("HTTP/1.1 200"))
      let channel = try #require(accepted.withLockedValue { $0 })
      let noDelay = try await channel.getOption(ChannelOptions.tcpOption(.tcp_nodelay)).get()
      #expect(noDelay != 0)
      let debug = try await channel.getOption(
        ChannelOptions.socketOption(NIOBSDSocket.Option(rawValue: SO_DEBUG))
      ).get()
      #expect(debug == 0)
    }
  }

  @Test func theDateHeaderIsInHTTPFormat() {
    #expect(HTTPDate.format(1_790_000_000) == "Mon, 21 Sep 2026 14:13:20 GMT")
    #expect(HTTPDate.format(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
  }
}
