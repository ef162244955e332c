import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Vapor

/// The limits that protect the server from clients that connect and then take their time.
public struct ConnectionLimits: Sendable, Equatable {
  /// Open connections at once, from everyone; further ones are closed as soon as accepted.
  public var maxConnections: Int = 4096
  /// Open connections at once from one client address (0: no limit). Behind a reverse proxy
  /// every connection comes from the proxy's address: raise it there, or set 0.
  public var maxConnectionsPerAddress: Int = 256
  /// From a connection's start, or the end of its previous response, until a request's headers
  /// are complete. A client that sends headers a byte at a time is closed after this.
  public var headerTimeout: TimeAmount = .seconds(20)
  /// While a request body arrives (or a keep-alive connection waits), the longest silence.
  public var idleTimeout: TimeAmount = .seconds(60)

  public init() {}
}

/// Backoffice's HTTP/1.1 server: NIO's parser and pipelining support in front of Vapor's
/// responder (routes and middleware), with what Vapor's own server cannot be told to do —
/// a connection limit in total and per address, a deadline for request headers, and bodies
/// read up to the largest limit any route has (`BodyLimits`) before the routes run.
final class BackofficeHTTPServer: Server, Sendable {
  private let application: Application
  private let limits: ConnectionLimits
  private let maxBodyBytes: Int
  private let state = NIOLockedValueBox(State())

  private struct State {
    var channel: (any Channel)?
    var shuttingDown = false
    /// Made when first asked for: a one-shot command never starts the server, and a promise
    /// nobody completes is a leak.
    var shutdownPromise: EventLoopPromise<Void>?
  }

  let connections: ConnectionCounter

  init(application: Application, limits: ConnectionLimits, maxBodyBytes: Int) {
    self.application = application
    self.limits = limits
    self.maxBodyBytes = maxBodyBytes
    self.connections = ConnectionCounter(limits: limits)
  }

  var onShutdown: EventLoopFuture<Void> {
    let loop = application.eventLoopGroup.any()
    return state.withLockedValue { state in
      if let existing = state.shutdownPromise { return existing.futureResult }
      let promise = loop.makePromise(of: Void.self)
      state.shutdownPromise = promise
      return promise.futureResult
    }
  }

  /// The address the server listens on (port 0 resolved), once started.
  var localAddress: SocketAddress? { state.withLockedValue { $0.channel?.localAddress } }

  func start(address: BindAddress?) throws {
    try startFuture(address: address).wait()
  }

  func start(address: BindAddress?) async throws {
    try await startFuture(address: address).get()
  }

  func start(hostname: String?, port: Int?) throws {
    try start(address: .hostname(hostname, port: port))
  }

  private func startFuture(address: BindAddress?) -> EventLoopFuture<Void> {
    let configuration = application.http.server.configuration
    let responder = application.responder.current
    let application = self.application
    let maxBodyBytes = self.maxBodyBytes
    let limits = self.limits
    let connections = self.connections
    let server = self
    let bootstrap = ServerBootstrap(group: application.eventLoopGroup)
      .serverChannelOption(ChannelOptions.backlog, value: Int32(configuration.backlog))
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(AcceptLimiter(counter: connections))
        }
      }
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let sync = channel.pipeline.syncOperations
          try sync.configureHTTPServerPipeline(
            withPipeliningAssistance: true, withErrorHandling: true)
          try sync.addHandler(
            RequestHandler(
              application: application, responder: responder, maxBodyBytes: maxBodyBytes,
              limits: limits, isShuttingDown: { server.isShuttingDown }))
        }
      }
      .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .childChannelOption(ChannelOptions.maxMessagesPerRead, value: 1)

    let bound: EventLoopFuture<any Channel>
    switch address {
    case .unixDomainSocket(let path):
      bound = bootstrap.bind(unixDomainSocketPath: path)
    case .hostname(let host, let port):
      bound = bootstrap.bind(
        host: host ?? configuration.hostname, port: port ?? configuration.port)
    case nil:
      bound = bootstrap.bind(host: configuration.hostname, port: configuration.port)
    }
    return bound.map { channel in
      self.state.withLockedValue { $0.channel = channel }
      if let address = channel.localAddress {
        application.logger.notice(
          "Server started on http://\(address.ipAddress ?? configuration.hostname):\(address.port ?? 0)"
        )
      }
    }
  }

  var isShuttingDown: Bool { state.withLockedValue { $0.shuttingDown } }

  func shutdown() {
    try? shutdownFuture().wait()
  }

  func shutdown() async {
    try? await shutdownFuture().get()
  }

  /// Stops accepting, lets requests in flight finish (responses then close their connection),
  /// and after 10 seconds closes whatever is left.
  private func shutdownFuture() -> EventLoopFuture<Void> {
    let (channel, promise) = state.withLockedValue { state in
      state.shuttingDown = true
      defer { state.channel = nil }
      return (state.channel, state.shutdownPromise)
    }
    let loop = application.eventLoopGroup.any()
    guard let channel else {
      promise?.succeed()
      return loop.makeSucceededVoidFuture()
    }
    let connections = self.connections
    return channel.close().flatMap {
      connections.closeIdle()
      return connections.drained(on: loop, within: .seconds(10))
    }.always { _ in promise?.succeed() }
  }
}

// MARK: - connection counting

/// Open connections, in total and per client address.
final class ConnectionCounter: Sendable {
  private let limits: ConnectionLimits
  private let state = NIOLockedValueBox(
    (total: 0, perAddress: [String: Int](), open: [ObjectIdentifier: any Channel]()))

  init(limits: ConnectionLimits) {
    self.limits = limits
  }

  var total: Int { state.withLockedValue { $0.total } }

  /// Counts `channel` in, unless a limit is reached.
  func admit(_ channel: any Channel) -> Bool {
    let address = channel.remoteAddress?.ipAddress ?? "unknown"
    let admitted = state.withLockedValue { state -> Bool in
      guard state.total < limits.maxConnections else { return false }
      let mine = state.perAddress[address, default: 0]
      if limits.maxConnectionsPerAddress > 0, mine >= limits.maxConnectionsPerAddress {
        return false
      }
      state.total += 1
      state.perAddress[address] = mine + 1
      state.open[ObjectIdentifier(channel)] = channel
      return true
    }
    if admitted {
      channel.closeFuture.whenComplete { [self] _ in
        state.withLockedValue { state in
          state.total -= 1
          let left = state.perAddress[address, default: 1] - 1
          state.perAddress[address] = left > 0 ? left : nil
          state.open[ObjectIdentifier(channel)] = nil
        }
      }
    }
    return admitted
  }

  /// Asks every connection waiting for a request to close (those busy close after answering).
  func closeIdle() {
    for channel in state.withLockedValue({ Array($0.open.values) }) {
      channel.pipeline.fireUserInboundEventTriggered(ServerShuttingDown())
    }
  }

  /// Succeeds when every connection is closed, closing the rest after `deadline`.
  func drained(on loop: any EventLoop, within deadline: TimeAmount) -> EventLoopFuture<Void> {
    let promise = loop.makePromise(of: Void.self)
    poll(until: .now() + deadline, on: loop, promise: promise)
    return promise.futureResult
  }

  private func poll(until end: NIODeadline, on loop: any EventLoop, promise: EventLoopPromise<Void>)
  {
    let open = state.withLockedValue { Array($0.open.values) }
    if open.isEmpty {
      promise.succeed()
    } else if NIODeadline.now() > end {
      for channel in open { channel.close(promise: nil) }
      promise.succeed()
    } else {
      loop.scheduleTask(in: .milliseconds(50)) { self.poll(until: end, on: loop, promise: promise) }
    }
  }
}

struct ServerShuttingDown {}

/// On the listening channel: every accepted connection is counted, or closed at once when a
/// limit is reached (the client sees its connection closed; nothing is read from it).
private final class AcceptLimiter: ChannelInboundHandler, Sendable {
  typealias InboundIn = any Channel
  typealias InboundOut = any Channel

  let counter: ConnectionCounter

  init(counter: ConnectionCounter) {
    self.counter = counter
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let child = unwrapInboundIn(data)
    if counter.admit(child) {
      context.fireChannelRead(data)
    } else {
      child.close(promise: nil)
    }
  }
}

// MARK: - requests

/// One connection's requests: collects each request (head and body, up to `maxBodyBytes`),
/// hands it to Vapor's responder and writes the response. NIO's pipeline handler keeps
/// pipelined requests in order; its error handler answers 400 to what cannot be parsed.
private final class RequestHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private enum State {
    /// Waiting for the next request's headers.
    case waiting
    case receiving(HTTPRequestHead, ByteBuffer?)
    /// The body went over the limit: the rest is dropped and the connection closes after.
    case refusing
    case responding
  }

  private let application: Application
  private let responder: any Responder
  private let maxBodyBytes: Int
  private let limits: ConnectionLimits
  private let isShuttingDown: @Sendable () -> Bool
  private var state = State.waiting
  private var deadline: Scheduled<Void>?
  private var closeAfterResponse = false

  init(
    application: Application, responder: any Responder, maxBodyBytes: Int,
    limits: ConnectionLimits, isShuttingDown: @escaping @Sendable () -> Bool
  ) {
    self.application = application
    self.responder = responder
    self.maxBodyBytes = maxBodyBytes
    self.limits = limits
    self.isShuttingDown = isShuttingDown
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { armHeaderDeadline(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    armHeaderDeadline(context)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
    context.fireChannelInactive()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ServerShuttingDown {
      if case .waiting = state { context.close(promise: nil) } else { closeAfterResponse = true }
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch (unwrapInboundIn(data), state) {
    case (.head(let head), .waiting):
      if let length = head.headers.first(name: "content-length").flatMap(Int.init),
        length > maxBodyBytes
      {
        refuse(context, head: head, status: .payloadTooLarge)
        return
      }
      if head.headers.first(name: "expect")?.lowercased() == "100-continue" {
        context.writeAndFlush(
          wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))),
          promise: nil)
      }
      state = .receiving(head, nil)
      armIdleDeadline(context)
    case (.body(var chunk), .receiving(let head, var body)):
      if (body?.readableBytes ?? 0) + chunk.readableBytes > maxBodyBytes {
        refuse(context, head: head, status: .payloadTooLarge)
        return
      }
      if body == nil {
        body = chunk
      } else {
        body?.writeBuffer(&chunk)
      }
      state = .receiving(head, body)
      armIdleDeadline(context)
    case (.end, .receiving(let head, let body)):
      deadline?.cancel()
      deadline = nil
      state = .responding
      respond(context, head: head, body: body)
    case (.end, .refusing):
      context.close(promise: nil)
    case (.body, .refusing):
      break
    default:
      // Parts out of order cannot come from NIO's decoder; close rather than guess.
      application.logger.warning("HTTP: unexpected request part in state \(state)")
      context.close(promise: nil)
    }
  }

  /// How long the rest of a refused body is read and dropped before the connection is cut.
  static let lingerTime = TimeAmount.seconds(5)

  /// Answers `status` at once. The connection then stops sending but goes on reading (and
  /// dropping) what the client is still sending for a moment, so the client gets to read the
  /// answer instead of a connection reset; then it closes.
  private func refuse(_ context: ChannelHandlerContext, head: HTTPRequestHead, status: HTTPStatus) {
    state = .refusing
    arm(context, after: Self.lingerTime)
    var headers = HTTPHeaders()
    headers.add(name: "connection", value: "close")
    headers.add(name: "content-length", value: "0")
    context.write(
      wrapOutboundOut(
        .head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
      promise: nil)
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(mode: .output, promise: nil)
    }
  }

  private func respond(_ context: ChannelHandlerContext, head: HTTPRequestHead, body: ByteBuffer?) {
    var headers = head.headers
    if !headers.contains(name: "x-request-id") {
      headers.add(name: "x-request-id", value: RequestIDs.next())
    }
    let request = Request(
      application: application, method: head.method, url: URI(string: head.uri),
      version: head.version, headersNoUpdate: headers, collectedBody: body,
      remoteAddress: context.channel.remoteAddress, logger: application.logger,
      byteBufferAllocator: context.channel.allocator, on: context.eventLoop)
    let keepAlive = head.isKeepAlive
    let isHead = head.method == .HEAD
    let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
    let loop = context.eventLoop
    responder.respond(to: request)
      .flatMap { response in
        response.body.collect(on: loop).map { (response, $0) }
      }
      .hop(to: context.eventLoop)
      .whenComplete { result in
        let (context, handler) = bound.value
        switch result {
        case .success(let (response, collected)):
          handler.write(
            context, response: response, body: collected, version: head.version,
            keepAlive: keepAlive, isHead: isHead)
        case .failure(let error):
          handler.application.logger.report(error: error)
          let response = Response(status: .internalServerError)
          handler.write(
            context, response: response, body: nil, version: head.version, keepAlive: false,
            isHead: isHead)
        }
      }
  }

  private func write(
    _ context: ChannelHandlerContext, response: Response, body: ByteBuffer?,
    version: HTTPVersion, keepAlive: Bool, isHead: Bool
  ) {
    let keep = keepAlive && !closeAfterResponse && !isShuttingDown()
    var headers = response.headers
    headers.remove(name: "transfer-encoding")
    let noBody =
      response.status == .noContent || response.status == .notModified
      || response.status.code < 200
    if !noBody {
      headers.replaceOrAdd(name: "content-length", value: String(body?.readableBytes ?? 0))
    } else {
      headers.remove(name: "content-length")
    }
    headers.replaceOrAdd(name: "date", value: HTTPDate.now())
    headers.replaceOrAdd(name: "connection", value: keep ? "keep-alive" : "close")
    context.write(
      wrapOutboundOut(
        .head(HTTPResponseHead(version: version, status: response.status, headers: headers))),
      promise: nil)
    if !isHead, !noBody, let body, body.readableBytes > 0 {
      context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    }
    // Ready for the next request before `.end` goes out: NIO's pipelining handler passes on
    // a request it held back as soon as it sees the end of this response.
    if keep {
      state = .waiting
      armHeaderDeadline(context)
    } else {
      state = .refusing
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      if !keep { channel.close(promise: nil) }
    }
  }

  private func armHeaderDeadline(_ context: ChannelHandlerContext) {
    arm(context, after: limits.headerTimeout)
  }

  private func armIdleDeadline(_ context: ChannelHandlerContext) {
    arm(context, after: limits.idleTimeout)
  }

  private func arm(_ context: ChannelHandlerContext, after delay: TimeAmount) {
    deadline?.cancel()
    let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
    deadline = context.eventLoop.scheduleTask(in: delay) {
      bound.value.close(promise: nil)
    }
  }
}

/// Request ids without a random number per request: a per-process prefix and a counter.
enum RequestIDs {
  private static let prefix = String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
  private static let counter = NIOLockedValueBox<UInt64>(0)

  static func next() -> String {
    let number = counter.withLockedValue { value -> UInt64 in
      value &+= 1
      return value
    }
    return prefix + "-" + String(number, radix: 36)
  }
}

/// The `Date` header, formatted once a second per thread.
enum HTTPDate {
  private final class Cache {
    var second = -1
    var text = ""
  }

  // Each thread reads and writes only its own value.
  private nonisolated(unsafe) static let cache = ThreadSpecificVariable<Cache>()

  static func now() -> String {
    let now = time(nil)
    let cache: Cache
    if let existing = Self.cache.currentValue {
      cache = existing
    } else {
      cache = Cache()
      Self.cache.currentValue = cache
    }
    if cache.second != now {
      cache.second = now
      cache.text = format(now)
    }
    return cache.text
  }

  private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  static func format(_ seconds: Int) -> String {
    var value = time_t(seconds)
    var parts = tm()
    gmtime_r(&value, &parts)
    func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
      + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }
}
