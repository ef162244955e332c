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
  /// Open connections at once from one client address (0: no limit). A trusted proxy's
  /// connections carry many clients, so they count toward `maxConnections` only.
  public var maxConnectionsPerAddress: Int = 256
  /// From a connection's start, or the end of its previous response, until a request's headers
  /// are complete. A client that sends headers a byte at a time is closed after this.
  public var headerTimeout: TimeAmount = .seconds(20)
  /// While a request body arrives (or a keep-alive connection waits), the longest silence.
  public var idleTimeout: TimeAmount = .seconds(60)

  public init() {}
}

/// Open connections, in total and per client address.
///
/// The per-address limit is decided when a connection is accepted, before any request names
/// the client, so it counts the connection's peer. A trusted proxy's connections carry every
/// client behind it: they are exempt from the per-address limit (the proxy's own limits apply
/// there) and count toward the total like any other.
final class ConnectionCounter: Sendable {
  private let limits: ConnectionLimits
  private let trustedProxies: TrustedProxies
  private let state = NIOLockedValueBox(
    (total: 0, perAddress: [String: Int](), open: [ObjectIdentifier: any Channel]()))

  init(limits: ConnectionLimits, trustedProxies: TrustedProxies = TrustedProxies()) {
    self.limits = limits
    self.trustedProxies = trustedProxies
  }

  var total: Int { state.withLockedValue { $0.total } }

  /// Counts `channel` in, unless a limit is reached.
  func admit(_ channel: any Channel) -> Bool {
    let peer = channel.remoteAddress.flatMap(IPAddress.init)
    let address = peer?.description ?? "unknown"
    let perAddressLimit =
      peer.map(trustedProxies.contains) == true ? 0 : limits.maxConnectionsPerAddress
    let admitted = state.withLockedValue { state -> Bool in
      guard state.total < limits.maxConnections else { return false }
      let mine = state.perAddress[address, default: 0]
      if perAddressLimit > 0, mine >= perAddressLimit {
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
final class AcceptLimiter: ChannelInboundHandler, Sendable {
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
