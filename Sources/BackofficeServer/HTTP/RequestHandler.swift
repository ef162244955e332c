import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Vapor

/// One connection's requests: collects each request (head and body, up to `maxBodyBytes`),
/// hands it to Vapor's responder and writes the response. NIO's pipeline handler keeps
/// pipelined requests in order; its error handler answers 400 to what cannot be parsed.
final class RequestHandler: ChannelInboundHandler, RemovableChannelHandler {
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
  /// The same responder when it is the app's own, which is told the path it routes by.
  private let appResponder: AppResponder?
  private let inFlight: InFlight
  private let maxBodyBytes: Int
  private let limits: ConnectionLimits
  private let isShuttingDown: @Sendable () -> Bool
  /// Read once per connection: the app's configuration is a look-up in its storage.
  private let trustedProxies: TrustedProxies
  private var state = State.waiting
  private var deadline = ConnectionDeadline()
  private var closeAfterResponse = false

  init(
    application: Application, responder: any Responder, inFlight: InFlight, maxBodyBytes: Int,
    limits: ConnectionLimits, isShuttingDown: @escaping @Sendable () -> Bool
  ) {
    self.application = application
    self.responder = responder
    self.appResponder = responder as? AppResponder
    self.inFlight = inFlight
    self.maxBodyBytes = maxBodyBytes
    self.limits = limits
    self.isShuttingDown = isShuttingDown
    self.trustedProxies = application.config.trustedProxies
  }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { armHeaderDeadline(context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    armHeaderDeadline(context)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline.cancel()
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
      deadline.disarm()
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
    // Every line logged for the request names its client (a trusted proxy's client, not the
    // proxy), worked out only when a line is written.
    request.logger[metadataKey: "client"] = .stringConvertible(
      LoggedClient(
        peer: request.remoteAddress, headers: headers, trusted: trustedProxies))
    let keepAlive = head.isKeepAlive
    let isHead = head.method == .HEAD
    let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
    let loop = context.eventLoop
    let inFlight = self.inFlight
    inFlight.enter()
    let plain = RoutedPath.target(head.uri)
    if let plain { request.plainTarget = plain }
    let answered =
      appResponder?.respond(
        to: request, path: plain.map { Substring($0.path) } ?? RoutedPath.plain(head.uri))
      ?? responder.respond(to: request)
    answered.hop(to: loop).whenComplete { result in
      inFlight.leave()
      let (context, handler) = bound.value
      switch result {
      case .success(let response):
        if let collected = response.body.buffer {
          handler.write(
            context, response: response, body: collected, version: head.version,
            keepAlive: keepAlive, isHead: isHead)
          return
        }
        // A streamed body (or none): read to its end first, as every answer has a length.
        response.body.collect(on: loop).hop(to: loop).whenComplete { collected in
          let (context, handler) = bound.value
          switch collected {
          case .success(let body):
            handler.write(
              context, response: response, body: body, version: head.version,
              keepAlive: keepAlive, isHead: isHead)
          case .failure(let error):
            handler.failed(context, error: error, version: head.version, isHead: isHead)
          }
        }
      case .failure(let error):
        handler.failed(context, error: error, version: head.version, isHead: isHead)
      }
    }
  }

  private func failed(
    _ context: ChannelHandlerContext, error: any Error, version: HTTPVersion, isHead: Bool
  ) {
    application.logger.report(error: error)
    write(
      context, response: Response(status: .internalServerError), body: nil, version: version,
      keepAlive: false, isHead: isHead)
  }

  private func write(
    _ context: ChannelHandlerContext, response: Response, body: ByteBuffer?,
    version: HTTPVersion, keepAlive: Bool, isHead: Bool
  ) {
    let keep = keepAlive && !closeAfterResponse && !isShuttingDown()
    var headers = response.headers
    // Room for the three added below, so the copy is made once.
    headers.reserveCapacity(headers.count + 3)
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
    guard !keep else {
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
      return
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  private func armHeaderDeadline(_ context: ChannelHandlerContext) {
    arm(context, after: limits.headerTimeout)
  }

  private func armIdleDeadline(_ context: ChannelHandlerContext) {
    arm(context, after: limits.idleTimeout)
  }

  private func arm(_ context: ChannelHandlerContext, after delay: TimeAmount) {
    if let start = deadline.arm(at: .now() + delay) { startTimer(context, at: start) }
  }

  private func startTimer(_ context: ChannelHandlerContext, at due: NIODeadline) {
    let bound = NIOLoopBound((context, self), eventLoop: context.eventLoop)
    let number = deadline.starting(due: due)
    let timer = context.eventLoop.scheduleTask(deadline: due) {
      let (context, handler) = bound.value
      switch handler.deadline.fired(now: .now(), timer: number) {
      case .close: context.close(promise: nil)
      case .wait(let until): handler.startTimer(context, at: until)
      case .none: break
      }
    }
    deadline.started(timer)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline.cancel()
  }
}

/// A connection's one deadline (for its next request's headers, for the rest of a body, for
/// a refused body's linger), moved with every request without a new timer each time: the
/// timer runs until the earliest deadline it was started for and, when it fires, the
/// connection closes only if a deadline is still set and has passed; otherwise the timer
/// starts again for the current one. (Rescheduling a task on every request cost a heap
/// entry, a promise and a cancellation each time.) Timers are numbered: one cancelled after
/// the event loop had already taken it to run finds a newer number and does nothing.
struct ConnectionDeadline {
  private var due: NIODeadline?
  private var timer: Scheduled<Void>?
  private var timerDue: NIODeadline?
  /// The number of the timer that counts; any other that fires is a cancelled one.
  private var current: UInt64 = 0

  enum Fired: Equatable {
    case close
    case wait(NIODeadline)
  }

  /// Sets the deadline; returns when a timer must be started for it (nil: one already runs
  /// that fires no later).
  mutating func arm(at deadline: NIODeadline) -> NIODeadline? {
    due = deadline
    if let timerDue, timerDue <= deadline { return nil }
    stopTimer()
    return deadline
  }

  /// A timer is being started for `due`: its number, to call `fired` with.
  mutating func starting(due: NIODeadline) -> UInt64 {
    current &+= 1
    timerDue = due
    return current
  }

  mutating func started(_ timer: Scheduled<Void>) {
    self.timer = timer
  }

  private mutating func stopTimer() {
    timer?.cancel()
    timer = nil
    timerDue = nil
    current &+= 1
  }

  /// No deadline until the next `arm` (a running timer then finds nothing due).
  mutating func disarm() {
    due = nil
  }

  mutating func cancel() {
    stopTimer()
    due = nil
  }

  /// Timer `number` fired at `now`: close, start again for a later deadline, or nothing to do
  /// (also when it is not the current timer).
  mutating func fired(now: NIODeadline, timer number: UInt64) -> Fired? {
    guard number == current else { return nil }
    timer = nil
    timerDue = nil
    guard let due else { return nil }
    if due <= now {
      self.due = nil
      return .close
    }
    return .wait(due)
  }
}
