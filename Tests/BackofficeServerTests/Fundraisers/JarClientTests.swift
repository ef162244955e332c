import BackofficeCore
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Jar client against a stub of the jar protocol on loopback")
struct JarClientTests {
  static let jar = JarID(rawValue: "StubJar001")!

  func client(_ t: TestApp) -> JarClient { t.app.jarClient }

  @Test func readsAJarAndSendsTheProtocolBody() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 1_234_550, goal: 5_000_000))
      try await withFundraiserApp(stub: stub) { t in
        let value = try await client(t).fetch(Self.jar).get()
        #expect(value.amountKopiykas == 1_234_550)
        #expect(value.goalKopiykas == 5_000_000)
        #expect(value.status == .active)
        let body = try #require(stub.requests.last)
        #expect(body.hasPrefix(#"{"c":"hello","clientId":"StubJar001","Pc":""#))
      }
    }
  }

  @Test func aClosedJarIsClosed() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 10, goal: nil, status: "DONE"))
      try await withFundraiserApp(stub: stub) { t in
        let value = try await client(t).fetch(Self.jar).get()
        #expect(value.status == .closed)
        #expect(value.goalKopiykas == nil)
      }
    }
  }

  @Test func serviceErrorCodeIsAServiceFailure() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .serviceError(code: "LIMIT", text: "Забагато запитів"))
      try await withFundraiserApp(stub: stub) { t in
        let result = await client(t).fetch(Self.jar)
        #expect(result == .failure(.service(code: "LIMIT", text: "Забагато запитів")))
      }
    }
  }

  @Test func aSlowAnswerIsATimeout() async throws {
    try await withJarStub { stub in
      // The stub answers only after 60 s; a client without its 5 s limit would get the jar.
      stub.set("StubJar001", .slow(seconds: 60))
      try await withFundraiserApp(stub: stub) { t in
        let result = await client(t).fetch(Self.jar)
        #expect(result == .failure(.timeout))
      }
    }
  }

  @Test func garbageIsMalformed() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .raw(status: .ok, body: "<html>Технічні роботи</html>"))
      try await withFundraiserApp(stub: stub) { t in
        let result = await client(t).fetch(Self.jar)
        guard case .failure(.malformed) = result else {
          Issue.record("garbage was read as \(result)")
          return
        }
      }
    }
  }

  @Test func anHTTPErrorIsReported() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .raw(status: .badGateway, body: "bad gateway"))
      try await withFundraiserApp(stub: stub) { t in
        #expect(await client(t).fetch(Self.jar) == .failure(.http(502)))
      }
    }
  }

  @Test func nobodyListeningIsANetworkFailure() async throws {
    // A port that was just free: nothing answers there.
    let stub = try await JarStub.start()
    let base = stub.baseURL
    await stub.stop()
    let settings: (inout AppConfig) -> Void = {
      $0.monobankBaseURL = base
      $0.jarRequestTimeout = 0.5
      $0.jarRefreshMinutes = 0
    }
    try await withApp(config: settings) { t in
      let result = await t.app.jarClient.fetch(Self.jar)
      switch result {
      case .failure(.network), .failure(.timeout): break
      default: Issue.record("expected a connection failure, got \(result)")
      }
    }
  }
}
