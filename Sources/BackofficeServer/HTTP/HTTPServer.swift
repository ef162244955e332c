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
    /// Made when first asked for: a one-shot command never starts the server, and a promise
    /// nobody completes is a leak.
    var shutdownPromise: EventLoopPromise<Void>?
  }

  let connections: ConnectionCounter

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
