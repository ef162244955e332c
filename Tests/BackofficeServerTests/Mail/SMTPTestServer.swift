import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A small in-process SMTP server for tests. It binds 127.0.0.1 on an ephemeral port,
/// speaks EHLO/HELO, STARTTLS (or implicit TLS), AUTH PLAIN/LOGIN, MAIL/RCPT/DATA and QUIT,
/// records what it receives, and can be told to misbehave.
final class SMTPTestServer: Sendable {
  struct Configuration: Sendable {
    var hostname = "test.smtp.local"
    var extensions: [String] = ["8BITMIME", "SIZE 10485760"]
    var offerStartTLS = false
    /// TLS from the first byte, like port 465.
    var implicitTLS = false
    /// Advertised AUTH mechanisms, e.g. ["PLAIN", "LOGIN"]; empty means no AUTH.
    var authMechanisms: [String] = []
    /// Advertise AUTH only once the connection is encrypted.
    var authRequiresTLS = false
    var username = "mailer"
    var password = "s3cret"
    var faults: [Fault] = []
  }

  enum Fault: Sendable, Hashable {
    /// Answer `verb` ("EHLO", "MAIL", "RCPT", "DATA", "AUTH", or "." for the end of the data) with this reply.
    case reply(to: String, code: Int, text: String)
    /// Never answer `verb` ("GREETING" for the banner); used to provoke timeouts.
    case silence(at: String)
    /// Drop the connection as soon as the first line of message data arrives.
    case closeDuringData
    /// Send an extra line right behind the STARTTLS go-ahead, as an injection attack would.
    case injectAfterStartTLS
  }

  struct Envelope: Sendable {
    var from: String
    var recipients: [String]
    /// The message as received, dot-stuffing removed, CRLF line endings.
    var data: String
    var wasEncrypted: Bool
    var authenticatedUser: String?
  }

  let configuration: Configuration
  let tlsContext: NIOSSLContext
  private let state: Recorder
  private let serverChannel: any Channel

  var port: Int { serverChannel.localAddress?.port ?? 0 }
  var messages: [Envelope] { state.withLock { $0.messages } }
  /// Every command line received, AUTH payloads included.
  var commands: [String] { state.withLock { $0.commands } }

  static func start(
    _ configuration: Configuration = Configuration(),
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) async throws -> SMTPTestServer {
    let tls = try NIOSSLContext(
      configuration: .makeServerConfiguration(
        certificateChain: [
          .certificate(
            try NIOSSLCertificate(
              bytes: Array(SMTPTestCertificates.certificatePEM.utf8), format: .pem))
        ],
        privateKey: .privateKey(
          try NIOSSLPrivateKey(bytes: Array(SMTPTestCertificates.privateKeyPEM.utf8), format: .pem))
      ))
    let recorder = Recorder()
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        recorder.withLock { $0.connections.append(channel.closeFuture) }
        return channel.eventLoop.makeCompletedFuture {
          let pipeline = channel.pipeline.syncOperations
          if configuration.implicitTLS {
            try pipeline.addHandler(NIOSSLServerHandler(context: tls))
          }
          try pipeline.addHandler(ByteToMessageHandler(SMTPTestLineDecoder()))
          try pipeline.addHandler(
            SMTPTestSession(configuration: configuration, tls: tls, recorder: recorder))
        }
      }
      .bind(host: "127.0.0.1", port: 0)
      .get()
    return SMTPTestServer(
      configuration: configuration, tlsContext: tls, state: recorder, serverChannel: channel)
  }

  private init(
    configuration: Configuration, tlsContext: NIOSSLContext, state: Recorder,
    serverChannel: any Channel
  ) {
    self.configuration = configuration
    self.tlsContext = tlsContext
    self.state = state
    self.serverChannel = serverChannel
  }

  /// Waits until every connection accepted so far has been closed (by either side).
  func waitForConnectionsToClose() async throws {
    let futures = state.withLock { $0.connections }
    try await EventLoopFuture.andAllComplete(futures, on: serverChannel.eventLoop).get()
  }

  func shutdown() async throws {
    try await serverChannel.close()
  }

  // MARK: - Shared state

  struct Recorded {
    var messages: [Envelope] = []
    var commands: [String] = []
    var connections: [EventLoopFuture<Void>] = []
  }

  final class Recorder: @unchecked Sendable {  // all access goes through the lock
    private let lock = NSLock()
    private var value = Recorded()
    func withLock<T>(_ body: (inout Recorded) -> T) -> T {
      lock.lock()
      defer { lock.unlock() }
      return body(&value)
    }
  }
}

/// Splits input into lines, dropping the CRLF (or LF).
struct SMTPTestLineDecoder: ByteToMessageDecoder {
  typealias InboundOut = String

  mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws
    -> DecodingState
  {
    guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
      return .needMoreData
    }
    var bytes = buffer.readBytes(length: newline - buffer.readerIndex + 1)!
    bytes.removeLast()
    if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
    context.fireChannelRead(wrapInboundOut(String(decoding: bytes, as: UTF8.self)))
    return .continue
  }
}

/// The server side of one connection.
final class SMTPTestSession: ChannelInboundHandler {
  typealias InboundIn = String
  typealias OutboundOut = ByteBuffer

  private enum Phase {
    case command, authPlain, authLoginUser
    case authLoginPassword(user: String)
    case data, silent
  }

  private let configuration: SMTPTestServer.Configuration
  private let tls: NIOSSLContext
  private let recorder: SMTPTestServer.Recorder
  private var phase = Phase.command
  private var encrypted: Bool
  private var user: String?
  private var from: String?
  private var recipients: [String] = []
  private var data = ""

  init(
    configuration: SMTPTestServer.Configuration, tls: NIOSSLContext,
    recorder: SMTPTestServer.Recorder
  ) {
    self.configuration = configuration
    self.tls = tls
    self.recorder = recorder
    self.encrypted = configuration.implicitTLS
  }

  func channelActive(context: ChannelHandlerContext) {
    if configuration.faults.contains(.silence(at: "GREETING")) {
      phase = .silent
    } else {
      send(context, "220 \(configuration.hostname) ESMTP test server")
    }
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let line = unwrapInboundIn(data)
    switch phase {
    case .silent:
      return
    case .data:
      receiveData(context, line)
      return
    case .authPlain:
      record(line)
      return finishPlain(context, line)
    case .authLoginUser:
      record(line)
      phase = .authLoginPassword(user: decode(line))
      return send(context, "334 UGFzc3dvcmQ6")
    case .authLoginPassword(let name):
      record(line)
      phase = .command
      return checkCredentials(context, name, decode(line))
    case .command:
      record(line)
    }

    let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
    if configuration.faults.contains(.silence(at: verb)) {
      phase = .silent
      return
    }
    if let reply = injectedReply(for: verb) { return send(context, reply) }

    switch verb {
    case "EHLO":
      resetTransaction()
      var lines = ["\(configuration.hostname) greets you"] + configuration.extensions
      if configuration.offerStartTLS && !encrypted { lines.append("STARTTLS") }
      if !configuration.authMechanisms.isEmpty && (encrypted || !configuration.authRequiresTLS) {
        lines.append("AUTH " + configuration.authMechanisms.joined(separator: " "))
      }
      let text = lines.enumerated()
        .map { "250\($0.offset == lines.count - 1 ? " " : "-")\($0.element)" }
        .joined(separator: "\r\n")
      send(context, text)
    case "HELO":
      resetTransaction()
      send(context, "250 \(configuration.hostname)")
    case "STARTTLS":
      guard configuration.offerStartTLS, !encrypted else {
        return send(context, "502 5.5.1 Not offered")
      }
      let injection = configuration.faults.contains(.injectAfterStartTLS) ? "\r\n250 injected" : ""
      send(context, "220 2.0.0 Ready to start TLS" + injection)
      // The go-ahead above is already written in plain text; everything after it is encrypted.
      try? context.pipeline.syncOperations.addHandler(
        NIOSSLServerHandler(context: tls), position: .first)
      encrypted = true
      resetTransaction()
    case "AUTH":
      let parts = line.split(separator: " ").map(String.init)
      let mechanism = parts.count > 1 ? parts[1].uppercased() : ""
      guard configuration.authMechanisms.contains(mechanism),
        encrypted || !configuration.authRequiresTLS
      else { return send(context, "504 5.5.4 Unrecognized authentication type") }
      if mechanism == "PLAIN" {
        if parts.count > 2 { return finishPlain(context, parts[2]) }
        phase = .authPlain
        send(context, "334 ")
      } else {
        phase = .authLoginUser
        send(context, "334 VXNlcm5hbWU6")
      }
    case "MAIL":
      guard user != nil || configuration.authMechanisms.isEmpty else {
        return send(context, "530 5.7.0 Authentication required")
      }
      from = Self.path(in: line)
      send(context, "250 2.1.0 Ok")
    case "RCPT":
      guard from != nil else { return send(context, "503 5.5.1 Need MAIL first") }
      recipients.append(Self.path(in: line))
      send(context, "250 2.1.5 Ok")
    case "DATA":
      guard !recipients.isEmpty else { return send(context, "503 5.5.1 Need RCPT first") }
      phase = .data
      self.data = ""
      send(context, "354 End data with <CR><LF>.<CR><LF>")
    case "RSET":
      resetTransaction()
      send(context, "250 2.0.0 Ok")
    case "NOOP":
      send(context, "250 2.0.0 Ok")
    case "QUIT":
      send(context, "221 2.0.0 Bye")
      context.close(promise: nil)
    default:
      send(context, "500 5.5.2 Command not recognized")
    }
  }

  private func receiveData(_ context: ChannelHandlerContext, _ line: String) {
    if configuration.faults.contains(.closeDuringData) {
      context.close(promise: nil)
      return
    }
    guard line != "." else {
      phase = .command
      if let reply = injectedReply(for: ".") { return send(context, reply) }
      let envelope = SMTPTestServer.Envelope(
        from: from ?? "", recipients: recipients, data: data, wasEncrypted: encrypted,
        authenticatedUser: user)
      recorder.withLock { $0.messages.append(envelope) }
      resetTransaction()
      return send(context, "250 2.0.0 Ok: queued")
    }
    data += (line.hasPrefix(".") ? String(line.dropFirst()) : line) + "\r\n"
  }

  private func finishPlain(_ context: ChannelHandlerContext, _ token: String) {
    phase = .command
    let fields = decode(token).split(separator: "\0", omittingEmptySubsequences: false).map(
      String.init)
    guard fields.count == 3 else { return send(context, "501 5.5.2 Malformed AUTH PLAIN") }
    checkCredentials(context, fields[1], fields[2])
  }

  private func checkCredentials(
    _ context: ChannelHandlerContext, _ name: String, _ password: String
  ) {
    if name == configuration.username && password == configuration.password {
      user = name
      send(context, "235 2.7.0 Authentication successful")
    } else {
      send(context, "535 5.7.8 Authentication credentials invalid")
    }
  }

  private func injectedReply(for verb: String) -> String? {
    for case .reply(let to, let code, let text) in configuration.faults where to == verb {
      return "\(code) \(text)"
    }
    return nil
  }

  private func resetTransaction() {
    from = nil
    recipients = []
    data = ""
  }

  private func record(_ line: String) {
    recorder.withLock { $0.commands.append(line) }
  }

  private func decode(_ base64: String) -> String {
    Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  private func send(_ context: ChannelHandlerContext, _ text: String) {
    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text + "\r\n")), promise: nil)
  }

  /// The address between angle brackets in "MAIL FROM:<a@b>" or "RCPT TO:<a@b>".
  private static func path(in line: String) -> String {
    guard let open = line.firstIndex(of: "<"), let close = line.lastIndex(of: ">"), open < close
    else { return "" }
    return String(line[line.index(after: open)..<close])
  }
}
