import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Where and how to deliver mail.
public struct SMTPSettings: Sendable {
  public enum Security: Sendable, Hashable {
    /// Connect in plain text, then upgrade with STARTTLS. Fails if the server does not offer it.
    case startTLS
    /// TLS from the first byte ("SMTPS", normally port 465).
    case tls
    /// No encryption at all; meant for a relay on the same host.
    case none
  }

  public struct Credentials: Sendable, Hashable {
    public var username: String
    public var password: String
    public init(username: String, password: String) {
      self.username = username
      self.password = password
    }
  }

  public var host: String
  public var port: Int
  public var security: Security
  public var credentials: Credentials?
  /// Name sent with EHLO/HELO; ideally the public host name of this machine.
  public var heloName: String
  public var connectTimeout: TimeAmount
  /// Longest wait for any single reply, including the greeting and the reply after the message data.
  public var commandTimeout: TimeAmount
  /// Extra CA or self-signed certificates (PEM) trusted in addition to the system roots.
  public var additionalTrustRootsPEM: String?

  public init(
    host: String,
    port: Int? = nil,
    security: Security = .startTLS,
    credentials: Credentials? = nil,
    heloName: String = "localhost",
    connectTimeout: TimeAmount = .seconds(10),
    commandTimeout: TimeAmount = .seconds(60),
    additionalTrustRootsPEM: String? = nil
  ) {
    self.host = host
    self.port = port ?? (security == .tls ? 465 : security == .startTLS ? 587 : 25)
    self.security = security
    self.credentials = credentials
    self.heloName = heloName
    self.connectTimeout = connectTimeout
    self.commandTimeout = commandTimeout
    self.additionalTrustRootsPEM = additionalTrustRootsPEM
  }
}

/// A complete server reply; multi-line replies are joined into `lines`.
public struct SMTPReply: Sendable, Hashable {
  public var code: Int
  public var lines: [String]
  /// True when more bytes had already arrived after this reply (used to reject STARTTLS injection).
  var hasTrailingData = false

  public var text: String { lines.joined(separator: "\n") }
}

/// Everything `SMTPClient.send` throws, apart from `MailMessageError` for an invalid message.
public struct SMTPError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// Could not open the connection (refused, DNS, connect timeout).
    case connectionFailed
    /// The connection dropped in the middle of the conversation.
    case connectionClosed
    /// No reply within `commandTimeout`.
    case timeout
    /// The server answered with a code other than the expected one; see `code`.
    case unexpectedReply
    /// The server sent something that is not a valid SMTP reply.
    case malformedReply
    /// `.startTLS` was requested but the server does not offer STARTTLS.
    case startTLSNotOffered
    /// TLS could not be set up or the certificate was not accepted.
    case tlsFailed
    /// Credentials are configured but the server offers neither AUTH PLAIN nor LOGIN.
    case authNotSupported
    /// Credentials would travel unencrypted to a host that is not loopback.
    case insecureAuthRefused
    /// The HELO name is empty or has spaces, control or non-ASCII characters.
    case invalidSettings
  }

  public var kind: Kind
  /// The step that failed, e.g. "connect", "greeting", "EHLO", "RCPT TO", "end of data".
  public var command: String
  public var code: Int?
  public var serverText: String
  /// Permanent failures (5xx and configuration problems) will not succeed on retry;
  /// temporary ones (4xx, connection trouble, timeouts) may.
  public var isPermanent: Bool
  public var isTemporary: Bool { !isPermanent }

  public init(
    _ kind: Kind, command: String, code: Int? = nil, serverText: String = "", isPermanent: Bool
  ) {
    self.kind = kind
    self.command = command
    self.code = code
    self.serverText = serverText
    self.isPermanent = isPermanent
  }

  public var description: String {
    let codePart = code.map { " \($0)" } ?? ""
    let severity = isPermanent ? "permanent" : "temporary"
    return "SMTP \(kind) at \(command)\(codePart) (\(severity)): \(serverText)"
  }
}

public enum SMTPClient {
  /// Sends one message over a fresh connection and returns the server's reply to the message data.
  /// The channel is closed on every path, including errors, timeouts and task cancellation
  /// (which surfaces as `CancellationError`). Throws `MailMessageError` for an invalid message
  /// before connecting, `SMTPError` for everything else.
  @discardableResult
  public static func send(
    _ message: MailMessage,
    settings: SMTPSettings,
    on eventLoopGroup: any EventLoopGroup
  ) async throws -> SMTPReply {
    let payload = try message.render()  // invalid messages fail before any network traffic
    guard !settings.heloName.isEmpty, settings.heloName.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
    else {
      throw SMTPError(
        .invalidSettings, command: "EHLO", serverText: "invalid HELO name", isPermanent: true)
    }
    let tlsContext = try makeTLSContext(settings)
    let connection = try await connect(settings, tlsContext: tlsContext, group: eventLoopGroup)
    let channel = connection.channel
    do {
      let reply = try await withTaskCancellationHandler {
        try await converse(
          connection, message: message, payload: payload, settings: settings, tls: tlsContext)
      } onCancel: {
        channel.close(promise: nil)
      }
      try? await channel.close()
      return reply
    } catch {
      if let error = error as? SMTPError, error.kind == .unexpectedReply {
        connection.sendQuitWithoutWaiting()  // be polite when the connection itself is fine
      }
      try? await channel.close()
      if Task.isCancelled { throw CancellationError() }
      throw error
    }
  }

  static func converse(
    _ connection: Connection, message: MailMessage, payload: String, settings: SMTPSettings,
    tls: NIOSSLContext?
  ) async throws -> SMTPReply {
    try await connection.expect(nil, command: "greeting", codes: [220])
    var capabilities = try await hello(connection, settings)
    var encrypted = settings.security == .tls

    if settings.security == .startTLS, let tls {
      guard capabilities["STARTTLS"] != nil else {
        throw SMTPError(
          .startTLSNotOffered, command: "STARTTLS", serverText: "server does not offer STARTTLS",
          isPermanent: true)
      }
      let reply = try await connection.expect("STARTTLS", command: "STARTTLS", codes: [220])
      guard !reply.hasTrailingData else {
        throw SMTPError(
          .malformedReply, command: "STARTTLS", serverText: "data sent before TLS handshake",
          isPermanent: false)
      }
      try await connection.startTLS(tls, serverHostname: sniHostname(settings.host))
      encrypted = true
      capabilities = try await hello(connection, settings)  // capabilities may differ after TLS
    }

    if let credentials = settings.credentials {
      guard mayAuthenticate(encrypted: encrypted, remote: connection.channel.remoteAddress) else {
        throw SMTPError(
          .insecureAuthRefused, command: "AUTH",
          serverText: "refusing to send credentials over an unencrypted connection",
          isPermanent: true)
      }
      try await authenticate(connection, credentials, mechanisms: capabilities["AUTH"] ?? [])
    }

    try await connection.expect(
      "MAIL FROM:<\(message.envelopeSender)>", command: "MAIL FROM", codes: [250])
    for recipient in message.envelopeRecipients {
      try await connection.expect("RCPT TO:<\(recipient)>", command: "RCPT TO", codes: [250, 251])
    }
    try await connection.expect("DATA", command: "DATA", codes: [354])
    let accepted = try await connection.expect(
      raw: dotStuffed(payload), command: "end of data", codes: [250])
    // The message is accepted at this point; a failing QUIT must not make the caller retry.
    _ = try? await connection.expect("QUIT", command: "QUIT", codes: [221])
    return accepted
  }

  /// EHLO, falling back to HELO for servers that reject EHLO; returns the extensions by upper-cased keyword.
  static func hello(_ connection: Connection, _ settings: SMTPSettings) async throws -> [String:
    [String]]
  {
    let reply: SMTPReply
    do {
      reply = try await connection.expect(
        "EHLO \(settings.heloName)", command: "EHLO", codes: [250])
    } catch let error as SMTPError where error.kind == .unexpectedReply && error.isPermanent {
      try await connection.expect("HELO \(settings.heloName)", command: "HELO", codes: [250])
      return [:]
    }
    var capabilities: [String: [String]] = [:]
    for line in reply.lines.dropFirst() {
      let words = line.split(whereSeparator: { $0 == " " || $0 == "=" }).map {
        String($0).uppercased()
      }
      if let keyword = words.first { capabilities[keyword, default: []] += words.dropFirst() }
    }
    return capabilities
  }

  static func authenticate(
    _ connection: Connection, _ credentials: SMTPSettings.Credentials, mechanisms: [String]
  ) async throws {
    func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
    if mechanisms.contains("PLAIN") {
      let token = base64("\0\(credentials.username)\0\(credentials.password)")
      try await connection.expect("AUTH PLAIN \(token)", command: "AUTH PLAIN", codes: [235])
    } else if mechanisms.contains("LOGIN") {
      try await connection.expect("AUTH LOGIN", command: "AUTH LOGIN", codes: [334])
      try await connection.expect(
        base64(credentials.username), command: "AUTH LOGIN username", codes: [334])
      try await connection.expect(
        base64(credentials.password), command: "AUTH LOGIN password", codes: [235])
    } else {
      let offered = mechanisms.isEmpty ? "none" : mechanisms.joined(separator: " ")
      throw SMTPError(
        .authNotSupported, command: "AUTH",
        serverText: "server offers no supported AUTH mechanism (offered: \(offered))",
        isPermanent: true)
    }
  }

  // MARK: - Helpers

  /// Credentials go out only over TLS, or in plain text to a loopback address.
  static func mayAuthenticate(encrypted: Bool, remote: SocketAddress?) -> Bool {
    if encrypted { return true }
    guard let ip = remote?.ipAddress else { return false }
    return ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
  }

  /// SNI must be a host name; for an IP literal NIOSSL checks the certificate against the IP instead.
  static func sniHostname(_ host: String) -> String? {
    (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
  }

  /// Adds the extra leading dot to lines that start with "." and appends the CRLF.CRLF terminator.
  static func dotStuffed(_ message: String) -> ByteBuffer {
    var buffer = ByteBuffer()
    buffer.reserveCapacity(message.utf8.count + 64)
    var atLineStart = true
    for byte in message.utf8 {
      if atLineStart && byte == UInt8(ascii: ".") { buffer.writeInteger(UInt8(ascii: ".")) }
      buffer.writeInteger(byte)
      atLineStart = byte == UInt8(ascii: "\n")
    }
    if !atLineStart { buffer.writeString("\r\n") }
    buffer.writeString(".\r\n")
    return buffer
  }

  static func makeTLSContext(_ settings: SMTPSettings) throws -> NIOSSLContext? {
    guard settings.security != .none else { return nil }
    do {
      // Full verification against the system's roots.
      var configuration = TLSConfiguration.makeClientConfiguration()
      if let pem = settings.additionalTrustRootsPEM {
        configuration.additionalTrustRoots = [
          .certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))
        ]
      }
      return try NIOSSLContext(configuration: configuration)
    } catch {
      throw SMTPError(.tlsFailed, command: "TLS setup", serverText: "\(error)", isPermanent: true)
    }
  }

  static func connect(
    _ settings: SMTPSettings, tlsContext: NIOSSLContext?, group: any EventLoopGroup
  ) async throws -> Connection {
    let implicitTLS = settings.security == .tls ? tlsContext : nil
    let serverHostname = sniHostname(settings.host)
    let commandTimeout = settings.commandTimeout
    let bootstrap = ClientBootstrap(group: group)
      .connectTimeout(settings.connectTimeout)
      .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let pipeline = channel.pipeline.syncOperations
          if let implicitTLS {
            try pipeline.addHandler(
              NIOSSLClientHandler(context: implicitTLS, serverHostname: serverHostname))
          }
          try pipeline.addHandler(ByteToMessageHandler(SMTPLineDecoder()))
          try pipeline.addHandler(
            SMTPClientHandler(timeout: commandTimeout, eventLoop: channel.eventLoop))
        }
      }
    do {
      // Picked up on the channel's event loop right after connecting, before any I/O can happen.
      return try await bootstrap.connect(host: settings.host, port: settings.port).flatMapThrowing {
        channel in
        let handler = try channel.pipeline.syncOperations.handler(type: SMTPClientHandler.self)
        return Connection(channel: channel, failure: handler.failure)
      }.get()
    } catch {
      throw SMTPError(
        .connectionFailed, command: "connect", serverText: "\(error)", isPermanent: false)
    }
  }

  /// Async front end of one channel: one command at a time, each awaiting its reply.
  struct Connection: Sendable {
    let channel: any Channel
    /// Fails with the first error the handler saw (timeout, TLS, protocol, close).
    let failure: EventLoopFuture<Void>

    /// Completes `promise` when a write could not even reach the handler because the channel is
    /// already closed; the handler's own error (say a failed TLS handshake) says more than "closed".
    private func failOnWriteError(
      _ write: EventLoopFuture<Void>, _ promise: EventLoopPromise<SMTPReply>
    ) {
      let failure = self.failure
      write.whenFailure { writeError in
        failure.whenComplete { result in
          if case .failure(let reason) = result {
            promise.fail(reason)
          } else {
            promise.fail(writeError)
          }
        }
      }
    }

    @discardableResult
    func expect(_ line: String?, command: String, codes: Set<Int>) async throws -> SMTPReply {
      try await expect(
        raw: line.map { ByteBuffer(string: $0 + "\r\n") }, command: command, codes: codes)
    }

    @discardableResult
    func expect(raw: ByteBuffer?, command: String, codes: Set<Int>) async throws -> SMTPReply {
      let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
      failOnWriteError(channel.writeAndFlush(SMTPRequest(payload: raw, reply: promise)), promise)
      let reply: SMTPReply
      do {
        reply = try await promise.futureResult.get()
      } catch {
        throw SMTPError(wrapping: error, command: command)
      }
      guard codes.contains(reply.code) else {
        throw SMTPError(
          .unexpectedReply, command: command, code: reply.code, serverText: reply.text,
          isPermanent: reply.code >= 500)
      }
      return reply
    }

    func startTLS(_ context: NIOSSLContext, serverHostname: String?) async throws {
      let channel = self.channel
      do {
        try await channel.eventLoop.submit {
          let handler = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
          try channel.pipeline.syncOperations.addHandler(handler, position: .first)
        }.get()
      } catch {
        throw SMTPError(wrapping: error, command: "STARTTLS")
      }
    }

    func sendQuitWithoutWaiting() {
      let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
      failOnWriteError(
        channel.writeAndFlush(SMTPRequest(payload: ByteBuffer(string: "QUIT\r\n"), reply: promise)),
        promise)
    }
  }
}

extension SMTPError {
  /// Classifies errors from the channel: TLS handshake problems are permanent, the rest temporary.
  init(wrapping error: any Error, command: String) {
    switch error {
    case let error as SMTPError:
      self = error
    case SMTPHandlerError.timeout:
      self.init(.timeout, command: command, serverText: "no reply in time", isPermanent: false)
    case SMTPHandlerError.malformed(let text):
      self.init(.malformedReply, command: command, serverText: text, isPermanent: false)
    case SMTPHandlerError.closed, NIOSSLError.uncleanShutdown:
      self.init(
        .connectionClosed, command: command, serverText: "connection closed by server",
        isPermanent: false)
    case NIOSSLError.handshakeFailed, is NIOSSLExtraError:
      self.init(.tlsFailed, command: command, serverText: "\(error)", isPermanent: true)
    case is NIOSSLError:
      self.init(.tlsFailed, command: command, serverText: "\(error)", isPermanent: false)
    default:
      self.init(.connectionClosed, command: command, serverText: "\(error)", isPermanent: false)
    }
  }
}

// MARK: - Channel handlers

enum SMTPHandlerError: Error, Equatable {
  case timeout
  case closed
  case malformed(String)
}

/// One line of server output without its CRLF.
struct SMTPLine {
  var text: String
  /// Whether more bytes were already buffered behind this line.
  var hasTrailingData: Bool
}

/// Splits the byte stream into CRLF-terminated lines (a bare LF is tolerated), bounded in length.
struct SMTPLineDecoder: ByteToMessageDecoder {
  typealias InboundOut = SMTPLine
  static let maximumLineLength = 4096

  mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws
    -> DecodingState
  {
    guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
      if buffer.readableBytes > Self.maximumLineLength {
        throw SMTPHandlerError.malformed("reply line too long")
      }
      return .needMoreData
    }
    let length = newline - buffer.readerIndex
    guard length <= Self.maximumLineLength else {
      throw SMTPHandlerError.malformed("reply line too long")
    }
    guard var bytes = buffer.readBytes(length: length + 1) else { return .needMoreData }
    bytes.removeLast()
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    let line = SMTPLine(
      text: String(decoding: bytes, as: UTF8.self), hasTrailingData: buffer.readableBytes > 0)
    context.fireChannelRead(wrapInboundOut(line))
    return .continue
  }

  mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool)
    throws -> DecodingState
  {
    while try decode(context: context, buffer: &buffer) == .continue {}
    return .needMoreData
  }
}

/// A command (nil payload: only wait for the greeting) and the promise for its reply.
struct SMTPRequest: Sendable {
  var payload: ByteBuffer?
  var reply: EventLoopPromise<SMTPReply>
}

/// Assembles reply lines into replies and hands each one to the single waiting request.
/// Arms a timer whenever a reply is expected; on timeout, error or close it fails the
/// waiter and closes the channel.
final class SMTPClientHandler: ChannelDuplexHandler {
  typealias InboundIn = SMTPLine
  typealias OutboundIn = SMTPRequest
  typealias OutboundOut = ByteBuffer

  private let timeout: TimeAmount
  private let failurePromise: EventLoopPromise<Void>
  private var waiter: EventLoopPromise<SMTPReply>?
  private var greeting: SMTPReply?  // a greeting that arrived before anyone asked for it
  private var firstError: (any Error)?
  private var expectingReply = true  // the greeting comes unasked
  private var replyLines: [String] = []
  private var replyCode: Int?
  private var timer: Scheduled<Void>?

  init(timeout: TimeAmount, eventLoop: any EventLoop) {
    self.timeout = timeout
    self.failurePromise = eventLoop.makePromise()
  }

  /// Fails with the first error; outlives the handler's removal from the pipeline.
  var failure: EventLoopFuture<Void> { failurePromise.futureResult }

  func channelActive(context: ChannelHandlerContext) {
    armTimer(context)
    context.fireChannelActive()
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    let request = unwrapOutboundIn(data)
    if let firstError {
      request.reply.fail(firstError)
      promise?.fail(firstError)
    } else if waiter != nil || (request.payload == nil && !expectingReply && greeting == nil) {
      request.reply.fail(SMTPHandlerError.malformed("command issued while another is pending"))
      promise?.succeed(())
    } else if let payload = request.payload {
      waiter = request.reply
      expectingReply = true
      armTimer(context)
      context.writeAndFlush(wrapOutboundOut(payload), promise: promise)
    } else if let greeting {
      self.greeting = nil
      request.reply.succeed(greeting)
      promise?.succeed(())
    } else {
      waiter = request.reply
      promise?.succeed(())
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let line = unwrapInboundIn(data)
    guard expectingReply else {
      return fail(context, SMTPHandlerError.malformed("unsolicited: \(line.text)"))
    }
    let bytes = Array(line.text.utf8)
    guard bytes.count >= 3, bytes[0] >= UInt8(ascii: "2"), bytes[0] <= UInt8(ascii: "5"),
      bytes[1...2].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      bytes.count == 3 || bytes[3] == UInt8(ascii: " ") || bytes[3] == UInt8(ascii: "-"),
      let code = Int(String(decoding: bytes[0..<3], as: UTF8.self)),
      replyCode == nil || replyCode == code, replyLines.count < 512
    else { return fail(context, SMTPHandlerError.malformed("bad reply line: \(line.text)")) }

    replyCode = code
    replyLines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
    guard bytes.count == 3 || bytes[3] == UInt8(ascii: " ") else { return }  // "250-" continues

    let reply = SMTPReply(code: code, lines: replyLines, hasTrailingData: line.hasTrailingData)
    replyLines = []
    replyCode = nil
    expectingReply = false
    timer?.cancel()
    timer = nil
    if let waiter {
      self.waiter = nil
      waiter.succeed(reply)
    } else {
      greeting = reply
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    fail(context, error)
  }

  func channelInactive(context: ChannelHandlerContext) {
    fail(context, SMTPHandlerError.closed)
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    fail(context, SMTPHandlerError.closed)
  }

  private func armTimer(_ context: ChannelHandlerContext) {
    timer?.cancel()
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
      fail(context, SMTPHandlerError.timeout)
    }
  }

  private func fail(_ context: ChannelHandlerContext, _ error: any Error) {
    let firstFailure = firstError == nil
    if firstFailure {
      firstError = error
      failurePromise.fail(error)
    }
    timer?.cancel()
    timer = nil
    if let waiter {
      self.waiter = nil
      waiter.fail(firstError ?? error)
    }
    if firstFailure { context.close(promise: nil) }
  }
}
