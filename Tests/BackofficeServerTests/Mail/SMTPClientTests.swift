import Foundation
import NIOCore
import NIOPosix
import XCTest

@testable import BackofficeServer

final class SMTPClientTests: XCTestCase {
  private let group = MultiThreadedEventLoopGroup.singleton
  private let credentials = SMTPSettings.Credentials(username: "mailer", password: "s3cret")

  private func message(
    subject: String = "Password reset",
    text: String = "Hello,\nuse the link below.\n",
    html: String? = nil,
    to: [MailAddress] = [MailAddress("user@example.org")]
  ) -> MailMessage {
    MailMessage(
      from: MailAddress("noreply@backoffice.example", name: "Backoffice"),
      to: to, subject: subject, textBody: text, htmlBody: html)
  }

  private func settings(
    _ server: SMTPTestServer,
    security: SMTPSettings.Security = .none,
    credentials: SMTPSettings.Credentials? = nil,
    host: String = "127.0.0.1",
    trustTestCertificate: Bool = true,
    commandTimeout: TimeAmount = .seconds(10)
  ) -> SMTPSettings {
    SMTPSettings(
      host: host, port: server.port, security: security, credentials: credentials,
      heloName: "backoffice.test", connectTimeout: .seconds(5), commandTimeout: commandTimeout,
      additionalTrustRootsPEM: trustTestCertificate ? SMTPTestCertificates.certificatePEM : nil)
  }

  /// Runs `body`, which must throw an `SMTPError`, and returns that error.
  private func smtpError(
    _ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line
  ) async -> SMTPError? {
    do {
      try await body()
      XCTFail("expected an SMTPError", file: file, line: line)
    } catch let error as SMTPError {
      return error
    } catch {
      XCTFail("expected an SMTPError, got \(error)", file: file, line: line)
    }
    return nil
  }

  // MARK: - Happy paths

  func testPlainSend() async throws {
    let server = try await SMTPTestServer.start()
    let two = [MailAddress("a@example.org"), MailAddress("b@example.org", name: "Bee")]
    let reply = try await SMTPClient.send(message(to: two), settings: settings(server), on: group)
    XCTAssertEqual(reply.code, 250)

    let received = try XCTUnwrap(server.messages.first)
    XCTAssertEqual(server.messages.count, 1)
    XCTAssertEqual(received.from, "noreply@backoffice.example")
    XCTAssertEqual(received.recipients, ["a@example.org", "b@example.org"])
    XCTAssertFalse(received.wasEncrypted)
    XCTAssertEqual(server.commands.first, "EHLO backoffice.test")
    XCTAssertEqual(server.commands.last, "QUIT")
    let decoded = DecodedMessage(received.data)
    XCTAssertEqual(decoded.header("Subject"), "Password reset")
    XCTAssertEqual(decoded.header("From"), "Backoffice <noreply@backoffice.example>")
    XCTAssertEqual(decoded.header("To"), "a@example.org, Bee <b@example.org>")
    XCTAssertEqual(decoded.textParts["text/plain"], "Hello,\r\nuse the link below.\r\n")
    try await server.waitForConnectionsToClose()
    try await server.shutdown()
  }

  func testStartTLSWithAuthPlain() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.offerStartTLS = true
    configuration.authMechanisms = ["PLAIN", "LOGIN"]
    configuration.authRequiresTLS = true
    let server = try await SMTPTestServer.start(configuration)
    // "localhost" exercises SNI plus host-name verification against the certificate.
    let settings = settings(
      server, security: .startTLS, credentials: credentials, host: "localhost")
    try await SMTPClient.send(message(), settings: settings, on: group)

    let received = try XCTUnwrap(server.messages.first)
    XCTAssertTrue(received.wasEncrypted)
    XCTAssertEqual(received.authenticatedUser, "mailer")
    XCTAssertEqual(
      server.commands.filter { $0.hasPrefix("EHLO") }.count, 2, "EHLO is repeated after STARTTLS")
    XCTAssertTrue(server.commands.contains { $0.hasPrefix("AUTH PLAIN ") })
    try await server.shutdown()
  }

  func testImplicitTLS() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.implicitTLS = true
    configuration.authMechanisms = ["PLAIN"]
    let server = try await SMTPTestServer.start(configuration)
    try await SMTPClient.send(
      message(), settings: settings(server, security: .tls, credentials: credentials), on: group)

    let received = try XCTUnwrap(server.messages.first)
    XCTAssertTrue(received.wasEncrypted)
    XCTAssertEqual(received.authenticatedUser, "mailer")
    try await server.shutdown()
  }

  func testAuthLoginWhenPlainIsNotOffered() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.authMechanisms = ["LOGIN"]
    let server = try await SMTPTestServer.start(configuration)
    // Plain text is acceptable here only because the server is on loopback.
    try await SMTPClient.send(
      message(), settings: settings(server, credentials: credentials), on: group)

    XCTAssertEqual(server.messages.first?.authenticatedUser, "mailer")
    XCTAssertTrue(server.commands.contains("AUTH LOGIN"))
    try await server.shutdown()
  }

  func testFallsBackToHELOWhenEHLOIsRejected() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.reply(to: "EHLO", code: 502, text: "5.5.1 EHLO not implemented")]
    let server = try await SMTPTestServer.start(configuration)
    try await SMTPClient.send(message(), settings: settings(server), on: group)

    XCTAssertEqual(server.messages.count, 1)
    XCTAssertEqual(
      Array(server.commands.prefix(2)), ["EHLO backoffice.test", "HELO backoffice.test"])
    try await server.shutdown()
  }

  // MARK: - Refusals

  func testRefusesWhenStartTLSIsNotOffered() async throws {
    let server = try await SMTPTestServer.start()
    let error = await smtpError {
      try await SMTPClient.send(
        self.message(), settings: self.settings(server, security: .startTLS), on: self.group)
    }
    XCTAssertEqual(error?.kind, .startTLSNotOffered)
    XCTAssertEqual(error?.isPermanent, true)
    XCTAssertFalse(
      server.commands.contains { $0.hasPrefix("MAIL") }, "nothing may be sent in clear text")
    XCTAssertTrue(server.messages.isEmpty)
    try await server.waitForConnectionsToClose()
    try await server.shutdown()
  }

  func testRejectsDataInjectedBeforeTLSHandshake() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.offerStartTLS = true
    configuration.faults = [.injectAfterStartTLS]
    let server = try await SMTPTestServer.start(configuration)
    let error = await smtpError {
      try await SMTPClient.send(
        self.message(), settings: self.settings(server, security: .startTLS), on: self.group)
    }
    XCTAssertEqual(error?.kind, .malformedReply)
    XCTAssertTrue(server.messages.isEmpty)
    try await server.shutdown()
  }

  func testUntrustedCertificateIsPermanentTLSFailure() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.implicitTLS = true
    let server = try await SMTPTestServer.start(configuration)
    let settings = settings(server, security: .tls, trustTestCertificate: false)
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: settings, on: self.group)
    }
    XCTAssertEqual(error?.kind, .tlsFailed, "\(String(describing: error))")
    XCTAssertEqual(error?.isPermanent, true)
    XCTAssertTrue(server.commands.isEmpty)
    try await server.shutdown()
  }

  func testNoSupportedAuthMechanism() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.authMechanisms = ["CRAM-MD5"]
    let server = try await SMTPTestServer.start(configuration)
    let error = await smtpError {
      try await SMTPClient.send(
        self.message(), settings: self.settings(server, credentials: self.credentials),
        on: self.group)
    }
    XCTAssertEqual(error?.kind, .authNotSupported)
    XCTAssertEqual(error?.isPermanent, true)
    try await server.shutdown()
  }

  func testWrongPasswordIsPermanent() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.authMechanisms = ["PLAIN"]
    let server = try await SMTPTestServer.start(configuration)
    let wrong = SMTPSettings.Credentials(username: "mailer", password: "nope")
    let error = await smtpError {
      try await SMTPClient.send(
        self.message(), settings: self.settings(server, credentials: wrong), on: self.group)
    }
    XCTAssertEqual(error?.kind, .unexpectedReply)
    XCTAssertEqual(error?.command, "AUTH PLAIN")
    XCTAssertEqual(error?.code, 535)
    XCTAssertEqual(error?.isPermanent, true)
    XCTAssertFalse(error?.description.contains("nope") ?? true)
    try await server.shutdown()
  }

  func testCredentialsOnlyOverTLSOrLoopback() throws {
    let remote = try SocketAddress(ipAddress: "192.0.2.10", port: 25)
    XCTAssertFalse(SMTPClient.mayAuthenticate(encrypted: false, remote: remote))
    XCTAssertTrue(SMTPClient.mayAuthenticate(encrypted: true, remote: remote))
    XCTAssertTrue(
      SMTPClient.mayAuthenticate(
        encrypted: false, remote: try SocketAddress(ipAddress: "127.0.0.1", port: 25)))
    XCTAssertTrue(
      SMTPClient.mayAuthenticate(
        encrypted: false, remote: try SocketAddress(ipAddress: "::1", port: 25)))
    XCTAssertFalse(SMTPClient.mayAuthenticate(encrypted: false, remote: nil))
  }

  // MARK: - Failure classification

  func testTemporaryRecipientFailure() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.reply(to: "RCPT", code: 451, text: "4.3.0 Try again later")]
    let server = try await SMTPTestServer.start(configuration)
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: self.settings(server), on: self.group)
    }
    XCTAssertEqual(error?.kind, .unexpectedReply)
    XCTAssertEqual(error?.command, "RCPT TO")
    XCTAssertEqual(error?.code, 451)
    XCTAssertEqual(error?.serverText, "4.3.0 Try again later")
    XCTAssertEqual(error?.isTemporary, true)
    XCTAssertTrue(server.messages.isEmpty)
    try await server.waitForConnectionsToClose()
    XCTAssertEqual(server.commands.last, "QUIT", "the client says goodbye after a refusal")
    try await server.shutdown()
  }

  func testPermanentRecipientFailure() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.reply(to: "RCPT", code: 550, text: "5.1.1 No such user")]
    let server = try await SMTPTestServer.start(configuration)
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: self.settings(server), on: self.group)
    }
    XCTAssertEqual(error?.code, 550)
    XCTAssertEqual(error?.isPermanent, true)
    try await server.shutdown()
  }

  func testRejectedMessageDataIsReported() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.reply(to: ".", code: 554, text: "5.7.1 Message rejected as spam")]
    let server = try await SMTPTestServer.start(configuration)
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: self.settings(server), on: self.group)
    }
    XCTAssertEqual(error?.command, "end of data")
    XCTAssertEqual(error?.code, 554)
    XCTAssertEqual(error?.isPermanent, true)
    try await server.shutdown()
  }

  func testConnectionClosedDuringDataIsTemporary() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.closeDuringData]
    let server = try await SMTPTestServer.start(configuration)
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: self.settings(server), on: self.group)
    }
    XCTAssertEqual(error?.kind, .connectionClosed)
    XCTAssertEqual(error?.isTemporary, true)
    XCTAssertTrue(server.messages.isEmpty)
    try await server.shutdown()
  }

  func testConnectionRefusedIsTemporary() async throws {
    let server = try await SMTPTestServer.start()
    let settings = settings(server)
    try await server.shutdown()  // nothing listens on the port any more
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: settings, on: self.group)
    }
    XCTAssertEqual(error?.kind, .connectionFailed)
    XCTAssertEqual(error?.isTemporary, true)
  }

  func testCommandTimeoutClosesConnection() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.silence(at: "MAIL")]
    let server = try await SMTPTestServer.start(configuration)
    let settings = settings(server, commandTimeout: .milliseconds(200))
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: settings, on: self.group)
    }
    XCTAssertEqual(error?.kind, .timeout)
    XCTAssertEqual(error?.command, "MAIL FROM")
    XCTAssertEqual(error?.isTemporary, true)
    try await server.waitForConnectionsToClose()  // the client closed its side
    try await server.shutdown()
  }

  func testGreetingTimeout() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.silence(at: "GREETING")]
    let server = try await SMTPTestServer.start(configuration)
    let settings = settings(server, commandTimeout: .milliseconds(200))
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: settings, on: self.group)
    }
    XCTAssertEqual(error?.kind, .timeout)
    XCTAssertEqual(error?.command, "greeting")
    try await server.waitForConnectionsToClose()
    try await server.shutdown()
  }

  func testCancellationClosesConnection() async throws {
    var configuration = SMTPTestServer.Configuration()
    configuration.faults = [.silence(at: "MAIL")]
    let server = try await SMTPTestServer.start(configuration)
    let settings = settings(server)  // long timeout: only cancellation can end the wait
    let (mail, group) = (message(), group)
    let task = Task { try await SMTPClient.send(mail, settings: settings, on: group) }
    for _ in 0..<500 where !server.commands.contains(where: { $0.hasPrefix("MAIL") }) {
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    task.cancel()
    do {
      _ = try await task.value
      XCTFail("expected cancellation")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    try await server.waitForConnectionsToClose()
    try await server.shutdown()
  }

  // MARK: - Content round trips

  func testDotStuffingRoundTrip() async throws {
    let server = try await SMTPTestServer.start()
    let body = ".starts with a dot\n..two dots\n.\nlast line ."
    try await SMTPClient.send(message(text: body), settings: settings(server), on: group)

    let received = try XCTUnwrap(server.messages.first)
    let text = DecodedMessage(received.data).textParts["text/plain"]
    XCTAssertEqual(text, body.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n")
    try await server.shutdown()
  }

  func testDotStuffingOnTheWire() {
    let stuffed = SMTPClient.dotStuffed(".a\r\nb\r\n..c\r\n.\r\n")
    XCTAssertEqual(String(buffer: stuffed), "..a\r\nb\r\n...c\r\n..\r\n.\r\n")
    XCTAssertEqual(String(buffer: SMTPClient.dotStuffed("no newline")), "no newline\r\n.\r\n")
  }

  func testUTF8RoundTrip() async throws {
    let server = try await SMTPTestServer.start()
    let subject = "Скидання пароля для облікового запису «Бекофіс» — посилання дійсне 24 години"
    let text =
      "Вітаємо!\n\nЩоб скинути пароль, перейдіть за посиланням:\nhttps://backoffice.example/reset?token=abc\n"
    let html =
      "<p>Вітаємо!</p><p><a href=\"https://backoffice.example/reset?token=abc\">Скинути пароль</a></p>"
    var mail = message(
      subject: subject, text: text, html: html,
      to: [MailAddress("olena@example.org", name: "Олена Петренко")])
    mail.from = MailAddress("noreply@backoffice.example", name: "Бекофіс")
    mail.replyTo = MailAddress("support@backoffice.example", name: "Служба підтримки")
    try await SMTPClient.send(mail, settings: settings(server), on: group)

    let raw = try XCTUnwrap(server.messages.first?.data)
    XCTAssertTrue(raw.utf8.allSatisfy { $0 < 0x80 }, "the message on the wire is 7-bit")
    for line in raw.components(separatedBy: "\r\n") {
      XCTAssertLessThanOrEqual(line.utf8.count, 78, line)
    }
    let decoded = DecodedMessage(raw)
    XCTAssertEqual(decoded.decodedHeader("Subject"), subject)
    XCTAssertEqual(decoded.decodedHeader("From"), "Бекофіс <noreply@backoffice.example>")
    XCTAssertEqual(decoded.decodedHeader("To"), "Олена Петренко <olena@example.org>")
    XCTAssertEqual(
      decoded.decodedHeader("Reply-To"), "Служба підтримки <support@backoffice.example>")
    XCTAssertEqual(decoded.header("MIME-Version"), "1.0")
    XCTAssertTrue(decoded.header("Message-ID")?.hasSuffix("@backoffice.example>") ?? false)
    XCTAssertTrue(decoded.header("Content-Type")?.hasPrefix("multipart/alternative;") ?? false)
    let parts = decoded.textParts
    XCTAssertEqual(parts["text/plain"], text.replacingOccurrences(of: "\n", with: "\r\n"))
    XCTAssertEqual(parts["text/html"], html)
    try await server.shutdown()
  }

  // MARK: - Message rendering and validation

  func testHeaderInjectionIsRejected() async throws {
    let server = try await SMTPTestServer.start()
    var cases: [(MailMessage, MailMessageError)] = []
    var mail = message(subject: "Hi\r\nBcc: victim@example.org")
    cases.append((mail, .invalidHeaderValue(field: "Subject")))
    mail = message(subject: "Hi\nBcc: victim@example.org")
    cases.append((mail, .invalidHeaderValue(field: "Subject")))
    mail = message(to: [MailAddress("user@example.org>\r\nRCPT TO:<victim@example.org")])
    cases.append((mail, .invalidAddress("user@example.org>\r\nRCPT TO:<victim@example.org")))
    mail = message(to: [MailAddress("user@example.org", name: "Evil\rBcc: x@y.z")])
    cases.append((mail, .invalidHeaderValue(field: "To")))
    mail = message()
    mail.extraHeaders = [MailHeader("X-Note", "ok\r\nBcc: victim@example.org")]
    cases.append((mail, .invalidHeaderValue(field: "X-Note")))
    mail = message()
    mail.extraHeaders = [MailHeader("X-Bad\r\nBcc", "value")]
    cases.append((mail, .invalidHeaderName("X-Bad\r\nBcc")))
    mail = message()
    mail.extraHeaders = [MailHeader("bcc", "victim@example.org")]
    cases.append((mail, .reservedHeader("bcc")))

    for (mail, expected) in cases {
      XCTAssertThrowsError(try mail.render()) { XCTAssertEqual($0 as? MailMessageError, expected) }
      do {
        try await SMTPClient.send(mail, settings: settings(server), on: group)
        XCTFail("send must refuse \(expected)")
      } catch {
        XCTAssertEqual(error as? MailMessageError, expected)
      }
    }
    var badHelo = settings(server)
    badHelo.heloName = "host\r\nRCPT TO:<victim@example.org>"
    let error = await smtpError {
      try await SMTPClient.send(self.message(), settings: badHelo, on: self.group)
    }
    XCTAssertEqual(error?.kind, .invalidSettings)
    XCTAssertTrue(server.commands.isEmpty, "an invalid message never reaches the network")
    try await server.shutdown()
  }

  func testAddressValidation() {
    for good in ["a@b.c", "first.last+tag@sub.example.org", "x@[127.0.0.1]"] {
      XCTAssertNoThrow(try MailMessage.validateAddress(good), good)
    }
    for bad in [
      "", "no-at", "two@@example.org", "a@b@c", "@example.org", "user@", "sp ace@example.org",
      "tab\t@example.org", "<user@example.org>", "user@exa>mple.org", "юзер@example.org",
      "nul\0@x.y",
    ] {
      XCTAssertThrowsError(try MailMessage.validateAddress(bad), bad)
    }
  }

  func testRenderedHeadersAndLineLengths() throws {
    var mail = message(
      subject: "Welcome to Backoffice",
      text: String(repeating: "long line with = and ü ", count: 20))
    mail.date = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13:20 UTC, a Tuesday
    mail.messageID = "<fixed-id@backoffice.example>"
    mail.extraHeaders = [MailHeader("X-Backoffice-Kind", "invitation")]
    let raw = try mail.render()

    XCTAssertTrue(raw.hasPrefix("Date: Tue, 14 Nov 2023 22:13:20 +0000\r\n"))
    XCTAssertTrue(raw.contains("\r\nMessage-ID: <fixed-id@backoffice.example>\r\n"))
    XCTAssertTrue(raw.contains("\r\nX-Backoffice-Kind: invitation\r\n"))
    XCTAssertTrue(raw.contains("\r\nContent-Type: text/plain; charset=utf-8\r\n"))
    XCTAssertTrue(raw.contains("\r\nContent-Transfer-Encoding: quoted-printable\r\n"))
    XCTAssertFalse(raw.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare LF")
    XCTAssertTrue(
      raw.components(separatedBy: "\r\n").allSatisfy {
        $0.utf8.count <= 76 || $0.hasPrefix("Subject")
      })
    XCTAssertEqual(DecodedMessage(raw).textParts["text/plain"], mail.textBody + "\r\n")

    // Mostly Cyrillic text is shorter in base64 than in quoted-printable.
    let cyrillic = try message(text: String(repeating: "Запрошення до системи. ", count: 10))
      .render()
    XCTAssertTrue(cyrillic.contains("Content-Transfer-Encoding: base64"))
    XCTAssertTrue(cyrillic.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
  }

  func testLongASCIISubjectIsFolded() throws {
    let subject = Array(repeating: "invitation", count: 20).joined(separator: " ")
    let raw = try message(subject: subject).render()
    let decoded = DecodedMessage(raw)
    XCTAssertEqual(decoded.decodedHeader("Subject"), subject)
    XCTAssertTrue(raw.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 78 })
  }

}
