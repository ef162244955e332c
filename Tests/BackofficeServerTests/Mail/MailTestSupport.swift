import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Mail settings for a test SMTP server on loopback (no TLS: it is on this machine).
func mailSettings(_ server: SMTPTestServer) -> MailSettings {
  var settings = MailSettings(
    host: "127.0.0.1", port: server.port, security: .none, from: "backoffice@example.org")
  settings.timeoutSeconds = 30
  return settings
}

/// Runs `test` with mail sent to a fresh test SMTP server, and the public URL set (mail's
/// links are written from it).
func withMailApp<T>(
  _ configuration: SMTPTestServer.Configuration = .init(),
  config: @escaping (inout AppConfig) -> Void = { _ in },
  _ test: (TestApp, SMTPTestServer) async throws -> T
) async throws -> T {
  let server = try await SMTPTestServer.start(configuration)
  do {
    let settings = mailSettings(server)
    let result = try await withApp(
      config: {
        $0.mail = settings
        $0.publicURL = "https://bo.example.org"
        config(&$0)
      }, { t in try await test(t, server) })
    try await server.shutdown()
    return result
  } catch {
    try? await server.shutdown()
    throw error
  }
}

extension TestApp {
  /// Sends what the outbox holds now (the background sender may have sent some already).
  @discardableResult
  func deliverMail() async throws -> MailDelivery.Round {
    let delivery = try #require(app.mailDelivery)
    return try await delivery.runOnce(app)
  }

  /// An account made directly (sign-up may ask to confirm the address when mail is on).
  @discardableResult
  func makeAccount(_ email: String, password: String = "correct horse battery") async throws
    -> UUID
  {
    let user = User(
      email: email, passwordHash: try await app.password.async.hash(password), locale: "en-US",
      currency: "USD")
    _ = try await Accounts.create(user, on: app.db)
    return try user.requireID()
  }
}

extension SMTPTestServer.Envelope {
  var decoded: DecodedMessage { DecodedMessage(data) }
  var subject: String { decoded.decodedHeader("Subject") ?? "" }
  var text: String { decoded.textParts["text/plain"] ?? "" }
}

/// The first `https://bo.example.org/…` link in `text`.
func firstLink(in text: String, after prefix: String) -> String? {
  guard let start = text.range(of: "https://bo.example.org" + prefix) else { return nil }
  let tail = text[start.upperBound...].prefix { !$0.isWhitespace }
  return prefix + tail
}
