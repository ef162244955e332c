import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Vapor

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
    /// The first shutdown's work; a second call (the serve command's, after `drain`) waits
    /// for the same.
    var stopped: EventLoopFuture<Void>?
    /// Made when first asked for: a one-shot command never starts the server, and a promise
    /// nobody completes is a leak.
    var shutdownPromise: EventLoopPromise<Void>?
  }

  let connections: ConnectionCounter
  /// Called with every accepted connection's channel (tests look at its options).
  let acceptObserver = NIOLockedValueBox<(@Sendable (any Channel) -> Void)?>(nil)
  /// Requests whose handler is running (the route's work, not the writing of its answer).
  let handling = InFlight()

  init(application: Application, limits: ConnectionLimits, maxBodyBytes: Int) {
    self.application = application
    self.limits = limits
    self.maxBodyBytes = maxBodyBytes
    self.connections = ConnectionCounter(
      limits: limits, trustedProxies: application.config.trustedProxies)
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
    let handling = self.handling
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
        server.acceptObserver.withLockedValue { $0 }?(channel)
        return channel.eventLoop.makeCompletedFuture {
          let sync = channel.pipeline.syncOperations
          try sync.configureHTTPServerPipeline(
            withPipeliningAssistance: true, withErrorHandling: true)
          try sync.addHandler(
            RequestHandler(
              application: application, responder: responder, inFlight: handling,
              maxBodyBytes: maxBodyBytes,
              limits: limits, isShuttingDown: { server.isShuttingDown }))
        }
      }
      // A TCP-level option: at the socket level the same number is SO_DEBUG, which only root
      // may set, so every connection of a server not run as root was closed at once.
      .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
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

  /// How long a stop waits for handlers still running, then for answers still being written.
  static let handlerGrace: TimeAmount = .seconds(60)
  static let writeGrace: TimeAmount = .seconds(10)

  /// Stops accepting, lets every request whose handler is running finish (its answer then
  /// closes the connection; idle connections close at once), and only then returns, closing
  /// what is left after `writeGrace`. The app shuts its background work and its database
  /// down after this (`drain`), so no handler can reach a database that is gone.
  private func shutdownFuture() -> EventLoopFuture<Void> {
    let loop = application.eventLoopGroup.any()
    let (channel, promise, earlier) = state.withLockedValue {
      state -> ((any Channel)?, EventLoopPromise<Void>?, EventLoopFuture<Void>?) in
      if let stopped = state.stopped { return (nil, nil, stopped) }
      state.shuttingDown = true
      let channel = state.channel
      state.channel = nil
      return (channel, state.shutdownPromise, nil)
    }
    if let earlier { return earlier }
    let connections = self.connections
    let handling = self.handling
    let closed = channel?.close() ?? loop.makeSucceededVoidFuture()
    let stopped = closed.flatMapError { _ in loop.makeSucceededVoidFuture() }.flatMap {
      connections.closeIdle()
      return handling.idle(on: loop, within: Self.handlerGrace)
    }.flatMap { [application] in
      if handling.current > 0 {
        application.logger.warning(
          "Stopping with \(handling.current) requests still running after \(Self.handlerGrace)")
      }
      return connections.drained(on: loop, within: Self.writeGrace)
    }.always { _ in promise?.succeed() }
    state.withLockedValue { $0.stopped = stopped }
    return stopped
  }
}

/// Counts the requests whose handler is running.
final class InFlight: Sendable {
  private let count = NIOLockedValueBox(0)

  var current: Int { count.withLockedValue { $0 } }

  func enter() { count.withLockedValue { $0 += 1 } }
  func leave() { count.withLockedValue { $0 -= 1 } }

  /// Succeeds once no handler runs, or after `deadline` (the stop then says how many still do).
  func idle(on loop: any EventLoop, within deadline: TimeAmount) -> EventLoopFuture<Void> {
    let promise = loop.makePromise(of: Void.self)
    poll(until: .now() + deadline, on: loop, promise: promise)
    return promise.futureResult
  }

  private func poll(until end: NIODeadline, on loop: any EventLoop, promise: EventLoopPromise<Void>)
  {
    if current == 0 || NIODeadline.now() > end {
      promise.succeed()
    } else {
      loop.scheduleTask(in: .milliseconds(20)) { self.poll(until: end, on: loop, promise: promise) }
    }
  }
}

extension Application {
  /// Stops the HTTP server the way a stop signal should: no new connections, every handler
  /// that runs finishes and its answer is written. Called before the app shuts down its
  /// background work and its database (`Application.asyncShutdown` would otherwise stop them in
  /// an order of its own while requests still run).
  public func drain() async {
    await server.shutdown()
  }
}
