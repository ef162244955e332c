import Foundation
import NIOCore
import Testing
import Vapor

@testable import BackofficeServer

/// Settings made of an environment, or the problems they were refused with.
private func load(_ environment: [String: String]) -> Result<AppConfig, ConfigError> {
  Result { () throws(ConfigError) in try AppConfig.load(from: environment) }
}

private func proxies(_ list: String) throws -> TrustedProxies {
  try TrustedProxies(parsing: list)
}

private func ip(_ text: String) throws -> IPAddress {
  try #require(IPAddress(text))
}

/// The client of a request from `peer` with `headers`, with `trusted` as the setting.
private func client(
  peer: String, trusted: String, _ headers: [(String, String)] = []
) throws -> ClientOrigin {
  ClientOrigin.resolve(
    peer: try SocketAddress(ipAddress: peer, port: 40_000), headers: HTTPHeaders(headers),
    trusted: try proxies(trusted))
}

/// Hands the app a request as its server would, from the connection's peer `peer`
/// (the in-memory test client has no peer address).
private func respond(
  _ app: Application, peer: String, _ path: String, headers: HTTPHeaders = [:]
) async throws -> Response {
  let request = Request(
    application: app, method: .GET, url: URI(string: path), version: .http1_1,
    headersNoUpdate: headers, collectedBody: nil,
    remoteAddress: try SocketAddress(ipAddress: peer, port: 40_000), logger: app.logger,
    byteBufferAllocator: ByteBufferAllocator(), on: app.eventLoopGroup.next())
  return try await app.responder.current.respond(to: request).get()
}

@Suite("Trusted proxies: settings and address rules")
struct TrustedProxyRuleTests {
  @Test func theListTakesAddressesAndBlocksOfBothFamilies() throws {
    let list = try proxies(" 127.0.0.1, 10.0.0.0/8 ,fd00::/8, ::1, 192.168.1.77/24, ,")
    #expect(list.blocks.count == 5)
    #expect(list.contains(try ip("127.0.0.1")))
    #expect(!list.contains(try ip("127.0.0.2")))
    #expect(list.contains(try ip("10.255.0.3")))
    #expect(!list.contains(try ip("11.0.0.1")))
    #expect(list.contains(try ip("fd12:3456::1")))
    #expect(!list.contains(try ip("fe80::1")))
    #expect(list.contains(try ip("::1")))
    #expect(!list.contains(try ip("::2")))
    // The bits after the length do not matter.
    #expect(list.contains(try ip("192.168.1.1")))
    #expect(!list.contains(try ip("192.168.2.1")))
    // An IPv4 block never matches an IPv6 address and the other way round, but an IPv4
    // address written the dual-stack way is the IPv4 address.
    #expect(!list.contains(try ip("::a00:1")))
    #expect(list.contains(try ip("::ffff:10.1.2.3")))
    #expect(try proxies("::ffff:10.0.0.0/104").contains(try ip("10.9.9.9")))
    #expect(!(try proxies("::ffff:10.0.0.0/104").contains(try ip("11.9.9.9"))))
    // Lengths that are not whole bytes.
    let odd = try proxies("172.16.0.0/12, 2001:db8:8000::/33")
    #expect(odd.contains(try ip("172.31.255.255")))
    #expect(!odd.contains(try ip("172.32.0.0")))
    #expect(odd.contains(try ip("2001:db8:ffff::1")))
    #expect(!odd.contains(try ip("2001:db8:7fff::1")))
    #expect(try proxies("").isEmpty)
  }

  @Test func everyBadEntryIsNamedInOneLine() throws {
    for bad in [
      "10.0.0.0/33", "::/129", "10.0.0.1/", "10.0.0.1/-1", "10.0.0.0/8/8", "10.0.0.0/ab",
      "proxy.example", "10.0.0", "10.0.0.256", "010.0.0.1", "fe80::1%eth0", "[::1]",
      "127.0.0.1:80", "::ffff:10.0.0.0/95", "*",
      // Everyone: every client would name its own address.
      "0.0.0.0/0", "::/0", "::ffff:0.0.0.0/96",
    ] {
      #expect(throws: TrustedProxies.InvalidEntries.self, "\(bad)") { try proxies(bad) }
    }
    switch load(["BACKOFFICE_TRUSTED_PROXIES": "127.0.0.1, proxy.example, 10.0.0.0/40"]) {
    case .success: Issue.record("a bad list was accepted")
    case .failure(let error):
      #expect(error.problems.count == 1)
      #expect(error.problems[0].contains(#""proxy.example", "10.0.0.0/40""#))
      #expect(error.problems[0].contains("BACKOFFICE_TRUSTED_PROXIES"))
    }
    let loaded = try load(["BACKOFFICE_TRUSTED_PROXIES": "127.0.0.1, fd00::/8"]).get()
    #expect(loaded.trustedProxies.blocks.count == 2)
    #expect(try load([:]).get().trustedProxies.isEmpty)
  }

  @Test func thePublicURLIsTheSiteRootOverHTTPOrHTTPS() throws {
    let accepted = [
      "https://backoffice.example.org": "https://backoffice.example.org",
      "HTTPS://Backoffice.Example.ORG/": "https://backoffice.example.org",
      "http://127.0.0.1:8080": "http://127.0.0.1:8080",
      "https://[2001:db8::1]:8443/": "https://[2001:db8::1]:8443",
    ]
    for (raw, expected) in accepted {
      #expect(try load(["BACKOFFICE_PUBLIC_URL": raw]).get().publicURL == expected, "\(raw)")
    }
    for raw in [
      "backoffice.example.org", "ftp://backoffice.example.org", "https://", "https:///x",
      "https://backoffice.example.org/app", "https://backoffice.example.org/?a=1",
      "https://backoffice.example.org?", "https://backoffice.example.org/#top",
      "https://user:secret@backoffice.example.org", "javascript:alert(1)",
      "https://back office.example.org", "https://x.example:0", "https://x.example:99999",
    ] {
      switch load(["BACKOFFICE_PUBLIC_URL": raw]) {
      case .success(let config): Issue.record("\(raw) was accepted as \(config.publicURL ?? "nil")")
      case .failure(let error):
        #expect(error.problems.count == 1, "\(raw)")
        #expect(error.problems.first?.hasPrefix("BACKOFFICE_PUBLIC_URL must be") == true)
      }
    }
    #expect(try load([:]).get().publicURL == nil)
    // Served over https, the cookies are Secure unless the setting says otherwise.
    #expect(try load(["BACKOFFICE_PUBLIC_URL": "https://b.example"]).get().secureCookies)
    #expect(!(try load(["BACKOFFICE_PUBLIC_URL": "http://b.example"]).get().secureCookies))
    #expect(
      !(try load([
        "BACKOFFICE_PUBLIC_URL": "https://b.example", "BACKOFFICE_SECURE_COOKIES": "false",
      ])
      .get().secureCookies))
  }

  @Test func forwardingHeadersCountOnlyFromATrustedPeer() throws {
    let forged: [(String, String)] = [
      ("X-Forwarded-For", "203.0.113.7"), ("Forwarded", "for=198.51.100.1;proto=https"),
      ("X-Forwarded-Proto", "https"),
    ]
    // No proxies configured: the peer, whatever the headers say.
    #expect(try client(peer: "192.0.2.10", trusted: "", forged) == .init(address: "192.0.2.10"))
    // A peer that is not a listed proxy: the same.
    #expect(
      try client(peer: "192.0.2.10", trusted: "127.0.0.1, 10.0.0.0/8", forged)
        == .init(address: "192.0.2.10"))
    // The listed proxy: its word.
    #expect(
      try client(peer: "127.0.0.1", trusted: "127.0.0.1", forged)
        == .init(address: "203.0.113.7", scheme: .https))
    // The proxy without forwarding headers is the client.
    #expect(try client(peer: "127.0.0.1", trusted: "127.0.0.1") == .init(address: "127.0.0.1"))
    #expect(
      try client(peer: "127.0.0.1", trusted: "127.0.0.1", [("X-Forwarded-For", " ")])
        == .init(address: "127.0.0.1"))
  }

  @Test func xForwardedForIsReadFromTheRight() throws {
    func address(_ value: [String], trusted: String = "127.0.0.1, 10.0.0.0/8") throws -> String {
      try client(peer: "127.0.0.1", trusted: trusted, value.map { ("X-Forwarded-For", $0) })
        .address
    }
    // What the client wrote itself stays left of what the proxy appended.
    #expect(try address(["1.1.1.1, 203.0.113.7"]) == "203.0.113.7")
    #expect(try address(["1.1.1.1", "203.0.113.7"]) == "203.0.113.7", "several header lines")
    // Proxies in a chain are passed over.
    #expect(try address(["198.51.100.9, 203.0.113.7, 10.0.0.2"]) == "203.0.113.7")
    // A client that is itself in a trusted range: the left-most entry.
    #expect(try address(["10.0.0.3, 10.0.0.2"]) == "10.0.0.3")
    // Something that is no address ends the walk at the last trusted hop.
    #expect(try address(["203.0.113.7, unknown"]) == "127.0.0.1")
    #expect(try address(["garbage, 10.0.0.2"]) == "10.0.0.2")
    #expect(try address(["203.0.113.7,, 10.0.0.2"]) == "10.0.0.2")
    #expect(try address(["<script>"]) == "127.0.0.1")
    // Ports and brackets; IPv6 in its usual text, so each spelling is one address.
    #expect(try address(["203.0.113.7:5555"]) == "203.0.113.7")
    #expect(try address(["2001:DB8:0:0::1"]) == "2001:db8::1")
    #expect(try address(["[2001:db8::1]:4711"]) == "2001:db8::1")
    #expect(try address(["[2001:db8::1]"]) == "2001:db8::1")
    #expect(try address(["::ffff:203.0.113.7"]) == "203.0.113.7")
    #expect(try address(["[2001:db8::1]x"]) == "127.0.0.1")
    #expect(try address(["203.0.113.7:http"]) == "127.0.0.1")
    #expect(try address(["2001:db8::1:4711:x"]) == "127.0.0.1")
  }

  @Test func ipv6AndDualStackPeers() throws {
    #expect(
      try client(peer: "::1", trusted: "::1", [("X-Forwarded-For", "2001:db8::7")]).address
        == "2001:db8::7")
    #expect(
      try client(peer: "fd00::5", trusted: "fd00::/8", [("X-Forwarded-For", "203.0.113.7")])
        .address == "203.0.113.7")
    // An IPv4 proxy reaching a server that listens on `::` arrives as ::ffff:127.0.0.1.
    #expect(
      try client(peer: "::ffff:127.0.0.1", trusted: "127.0.0.1", [("X-Forwarded-For", "192.0.2.1")])
        .address == "192.0.2.1")
    #expect(try client(peer: "::ffff:192.0.2.10", trusted: "").address == "192.0.2.10")
    #expect(try client(peer: "2001:DB8::10", trusted: "").address == "2001:db8::10")
  }

  @Test func forwardedIsReadWhenThereIsNoXForwardedFor() throws {
    func origin(_ values: [String], trusted: String = "127.0.0.1, 10.0.0.0/8") throws
      -> ClientOrigin
    {
      try client(peer: "127.0.0.1", trusted: trusted, values.map { ("Forwarded", $0) })
    }
    #expect(
      try origin(["for=192.0.2.60;proto=https;by=203.0.113.43"])
        == .init(address: "192.0.2.60", scheme: .https))
    #expect(try origin([#"for="[2001:db8:cafe::17]:4711""#]).address == "2001:db8:cafe::17")
    #expect(
      try origin(["For=192.0.2.60 ; PROTO=HTTP"]) == .init(address: "192.0.2.60", scheme: .http))
    // From the right, as with X-Forwarded-For; elements across header lines are one list.
    #expect(try origin(["for=198.51.100.1, for=192.0.2.60"]).address == "192.0.2.60")
    #expect(
      try origin(["for=198.51.100.1", "for=192.0.2.60, for=10.0.0.9"]).address == "192.0.2.60")
    // Commas and semicolons inside quotes, escapes, and parameters of other names.
    #expect(
      try origin([#"for="_a,b;c";ext="x\"y,z", for=192.0.2.60;host="h,1";proto=https"#])
        == .init(address: "192.0.2.60", scheme: .https))
    // An unknown or hidden client, a missing or repeated `for`: the last trusted hop.
    #expect(try origin(["for=unknown"]).address == "127.0.0.1")
    #expect(try origin(["for=_hidden, for=10.0.0.2"]).address == "10.0.0.2")
    #expect(try origin(["proto=https"]).address == "127.0.0.1")
    #expect(try origin(["for=192.0.2.60;for=192.0.2.61"]).address == "127.0.0.1")
    // The scheme is the nearest proxy's.
    #expect(try origin(["for=192.0.2.60;proto=https, for=10.0.0.2;proto=http"]).scheme == .http)
    #expect(try origin(["for=192.0.2.60;proto=gopher"]).scheme == nil)
  }

  @Test func xForwardedForWinsOverForwarded() throws {
    // The documented proxies write X-Forwarded-For and pass a client's own Forwarded on: that
    // one must not count.
    let both = try client(
      peer: "127.0.0.1", trusted: "127.0.0.1",
      [
        ("Forwarded", "for=198.51.100.66;proto=https"), ("X-Forwarded-For", "203.0.113.7"),
        ("X-Forwarded-Proto", "http"),
      ])
    #expect(both == .init(address: "203.0.113.7", scheme: .http))
  }

  @Test func theSchemeIsTheNearestProxysWord() throws {
    func scheme(_ values: [String]) throws -> ClientOrigin.Scheme? {
      try client(
        peer: "127.0.0.1", trusted: "127.0.0.1",
        [("X-Forwarded-For", "203.0.113.7")] + values.map { ("X-Forwarded-Proto", $0) }
      ).scheme
    }
    #expect(try scheme(["https"]) == .https)
    #expect(try scheme(["HTTPS"]) == .https)
    #expect(try scheme(["http, https"]) == .https)
    #expect(try scheme(["https", "http"]) == .http)
    #expect(try scheme(["wss"]) == nil)
    #expect(try scheme([]) == nil)
  }
}

extension RawConnection {
  /// Asks for `/health` and reads the whole answer, leaving the connection open (so it stays
  /// counted until the test ends, however late the server accepts the others), or nothing
  /// when the connection was refused at once.
  func health() async -> String {
    send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    return await read(until: Self.isWholeAnswer)
  }

  /// True once `text` holds an answer's head and as many body bytes as its `Content-Length`.
  static func isWholeAnswer(_ text: String) -> Bool {
    guard let end = text.range(of: "\r\n\r\n") else { return false }
    let head = text[..<end.lowerBound].lowercased()
    let length =
      head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
      .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) }
      ?? 0
    return text[end.upperBound...].utf8.count >= length
  }
}

@Suite("Trusted proxies: connection limits")
struct TrustedProxyConnectionTests {
  /// How many of `count` connections opened at once from 127.0.0.1 are answered.
  private func answered(
    _ count: Int, config: @escaping (inout AppConfig) -> Void
  ) async throws -> Int {
    // The connections are opened at once and asked one after another: with the processors
    // busy (the whole suite, a build beside it), the last may wait long, and the header
    // deadline closing it would count as a refusal. An answered connection stays open: the
    // server may accept the last ones only after the first were answered, and a closed one
    // would have freed its place by then.
    let patient: (inout AppConfig) -> Void = {
      config(&$0)
      $0.connections.headerTimeout = .seconds(600)
      $0.connections.idleTimeout = .seconds(600)
    }
    return try await withApp(config: patient) { t in
      try await t.app.server.start(address: .hostname("127.0.0.1", port: 0))
      let server = try #require(t.app.server as? BackofficeHTTPServer)
      let port = try #require(server.localAddress?.port)
      let connections = try (0..<count).map { _ in try RawConnection(port: port) }
      var answered = 0
      for connection in connections where await connection.health().hasPrefix("HTTP/1.1 200") {
        answered += 1
      }
      await t.app.server.shutdown()
      return answered
    }
  }

  @Test("a trusted proxy's connections skip the per-address limit and count toward the total")
  func proxyConnections() async throws {
    let perAddress: (inout AppConfig) -> Void = { $0.connections.maxConnectionsPerAddress = 2 }
    let trusted = try proxies("127.0.0.1")
    #expect(try await answered(4, config: perAddress) == 2)
    #expect(
      try await answered(4) {
        perAddress(&$0)
        $0.trustedProxies = trusted
      } == 4)
    #expect(
      try await answered(4) {
        perAddress(&$0)
        $0.trustedProxies = trusted
        $0.connections.maxConnections = 3
      } == 3)
  }
}

@Suite("Trusted proxies: the rules that use the client address")
struct TrustedProxyRequestTests {
  @Test("the public pages' limit counts each forwarded client, and forged headers count nothing")
  func publicPageLimitPerForwardedClient() async throws {
    let trusted = try proxies("127.0.0.1")
    let config: (inout AppConfig) -> Void = { $0.trustedProxies = trusted }
    try await withApp(config: config) { t async throws in
      t.app.publicPageLimiter = PublicPageLimiter(limit: 3)
      func status(peer: String, forwardedFor: String?) async throws -> HTTPStatus {
        var headers = HTTPHeaders()
        if let forwardedFor { headers.add(name: "X-Forwarded-For", value: forwardedFor) }
        return try await respond(t.app, peer: peer, "/f/aaaaaaaaaa", headers: headers).status
      }
      // Through the proxy: one client uses its budget up ...
      for _ in 0..<3 {
        #expect(try await status(peer: "127.0.0.1", forwardedFor: "203.0.113.1") == .notFound)
      }
      #expect(try await status(peer: "127.0.0.1", forwardedFor: "203.0.113.1") == .tooManyRequests)
      // ... and writing another address left of the proxy's does not help it,
      #expect(
        try await status(peer: "127.0.0.1", forwardedFor: "203.0.113.99, 203.0.113.1")
          == .tooManyRequests)
      // while another client behind the same proxy still has all of its own.
      #expect(try await status(peer: "127.0.0.1", forwardedFor: "203.0.113.2") == .notFound)

      // Straight to the app, a client naming a new address each time is still one client.
      for n in 0..<3 {
        #expect(
          try await status(peer: "192.0.2.50", forwardedFor: "198.51.100.\(n)") == .notFound)
      }
      #expect(
        try await status(peer: "192.0.2.50", forwardedFor: "198.51.100.77") == .tooManyRequests)
      // Nor can it spend someone else's budget by naming them.
      #expect(try await status(peer: "127.0.0.1", forwardedFor: "198.51.100.5") == .notFound)
    }
  }
}

@Suite("Per-address limits: an IPv6 client counts by its /64")
struct ClientLimitKeyTests {
  @Test func ipv6AddressesOfOneNetworkAreOneClient() {
    let key = IPAddress.limitKey
    #expect(key("2001:db8:1::1") == "2001:db8:1::/64")
    #expect(key("2001:db8:1::1") == key("2001:db8:1:0:ffff::9"))
    #expect(key("2001:db8:1::1") != key("2001:db8:1:1::1"))
    #expect(key("203.0.113.7") == "203.0.113.7")
    #expect(key("::ffff:203.0.113.7") == "203.0.113.7")
    #expect(key("unknown") == "unknown")
  }

  @Test func aLimitCountsANetworkOnce() async throws {
    let trusted = try proxies("127.0.0.1")
    let config: (inout AppConfig) -> Void = { $0.trustedProxies = trusted }
    try await withApp(config: config) { t async throws in
      t.app.publicPageLimiter = PublicPageLimiter(limit: 2)
      func status(_ client: String) async throws -> HTTPStatus {
        try await respond(
          t.app, peer: "127.0.0.1", "/f/aaaaaaaaaa", headers: ["X-Forwarded-For": client]
        ).status
      }
      #expect(try await status("2001:db8:1::1") == .notFound)
      #expect(try await status("2001:db8:1::2") == .notFound)
      // Another address of the same /64 is the same client ...
      #expect(try await status("2001:db8:1:0:ffff::9") == .tooManyRequests)
      // ... another network is another.
      #expect(try await status("2001:db8:2::1") == .notFound)
    }
  }
}

@Suite("Public address: absolute URLs never come from Host", .ukrainian)
struct PublicAddressTests {
  /// A fundraiser with its public page open and a preview picture; its path.
  private func publishedPage(_ t: TestApp) async throws -> String {
    let owner = t.client()
    try await owner.signUp()
    let id = try await owner.addFundraiser()
    let path = try await FundraiserPublicPageTests.publish(owner, id: id)
    let put = try await owner.send(
      .PUT, "/fundraisers/\(id.uuidString.lowercased())/share-image",
      headers: ["Content-Type": "image/png", "X-CSRF-Token": owner.csrf ?? ""],
      bytes: FundraiserImages.png(width: 1080, height: 1080))
    #expect(put.status == .noContent)
    return path
  }

  private let hostile: HTTPHeaders = [
    "Host": "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https",
    "Forwarded": "host=evil.example;proto=https",
  ]

  @Test func withThePublicURLThePageNamesItAlone() async throws {
    let config: (inout AppConfig) -> Void = { $0.publicURL = "https://zbir.example.org" }
    try await withApp(config: config) { t in
      let path = try await publishedPage(t)
      let page = try await t.client().get(path, headers: hostile)
      #expect(page.status == .ok)
      #expect(page.headers.first(name: .cacheControl)?.hasPrefix("public") == true)
      #expect(
        page.body.contains(
          #"<meta property="og:url" content="https://zbir.example.org\#(path)"/>"#))
      #expect(
        page.body.contains(
          #"<meta property="og:image" content="https://zbir.example.org\#(path)/poster.png"/>"#))
      #expect(!page.body.contains("evil"))
      // The same through a trusted proxy that passes the hostile Host on.
      let proxied = try await respond(
        t.app, peer: "127.0.0.1", path,
        headers: hostile.adding("X-Forwarded-For", "203.0.113.1"))
      let body = String(buffer: try #require(proxied.body.buffer))
      #expect(body.contains(#"content="https://zbir.example.org\#(path)"/>"#))
      #expect(!body.contains("evil"))
    }
  }

  @Test func withoutThePublicURLThePageHasNoAbsoluteAddress() async throws {
    try await withApp { t in
      let path = try await publishedPage(t)
      let page = try await t.client().get(path, headers: hostile)
      #expect(page.status == .ok)
      #expect(!page.body.contains("og:url"))
      #expect(page.body.contains(#"<meta property="og:image" content="\#(path)/poster.png"/>"#))
      #expect(!page.body.contains("evil"))
    }
  }

  @Test("private answers: the public URL first, else the Host reached, https on a proxy's word")
  func privateAnswers() async throws {
    let trusted = try proxies("127.0.0.1")
    let config: (inout AppConfig) -> Void = { $0.trustedProxies = trusted }
    try await withApp(config: config) { t async throws in
      func base(peer: String?, _ headers: HTTPHeaders) throws -> String {
        Request(
          application: t.app, method: .GET, url: URI(string: "/"), headersNoUpdate: headers,
          remoteAddress: try peer.map { try SocketAddress(ipAddress: $0, port: 40_000) },
          on: t.app.eventLoopGroup.next()
        ).publicBaseURL
      }
      let proto: HTTPHeaders = ["Host": "shop.example", "X-Forwarded-Proto": "https"]
      #expect(try base(peer: nil, ["Host": "shop.example"]) == "http://shop.example")
      #expect(
        try base(peer: "192.0.2.9", proto) == "http://shop.example",
        "a scheme from anyone but the proxy is ignored")
      #expect(try base(peer: "127.0.0.1", proto) == "https://shop.example")
      #expect(
        try base(peer: nil, ["Host": #"evil"><script>"#]) == "http://127.0.0.1:8080",
        "a Host that is not a host name is never printed")
    }
    let publicURL: (inout AppConfig) -> Void = { $0.publicURL = "https://shop.example.org" }
    try await withApp(config: publicURL) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await SwipeCompatibleAPITests.add(
        client, token: token,
        SwipeCompatibleAPITests.fields + [
          .file("files[]", ProductImages.png(), filename: "p.png", type: "image/png")
        ])
      let list = try await client.send(
        .GET, "/api/public/get",
        headers: ["Authorization": "Bearer \(token)", "Host": "evil.example"])
      #expect(list.body.contains(#""image": "https://shop.example.org/api/v1/products/"#))
      #expect(!list.body.contains("evil"))
      let invite = try await client.send(
        .POST, "/api/v1/workspace/invitations",
        headers: [
          "Authorization": "Bearer \(token)", "Content-Type": "application/json",
          "Host": "evil.example",
        ],
        body: #"{"role": "editor"}"#)
      #expect(invite.status == .created, "\(invite.body)")
      let url = try invite.json()["url"] as? String
      #expect(url?.hasPrefix("https://shop.example.org/join/") == true, "\(url ?? "nil")")
    }
  }
}

extension HTTPHeaders {
  fileprivate func adding(_ name: String, _ value: String) -> HTTPHeaders {
    var copy = self
    copy.add(name: name, value: value)
    return copy
  }
}
