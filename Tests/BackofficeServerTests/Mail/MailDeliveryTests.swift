import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Mail: settings, the outbox and sending")
struct MailDeliveryTests {
  private func load(_ environment: [String: String]) -> Result<AppConfig, ConfigError> {
    Result { () throws(ConfigError) in try AppConfig.load(from: environment) }
  }

  @Test func settingsAreOffUntilAHostIsSetAndEveryMistakeIsNamed() throws {
    #expect(try load([:]).get().mail == nil)
    let on = try load([
      "BACKOFFICE_SMTP_HOST": "smtp.example.org", "BACKOFFICE_MAIL_FROM": "Bo@Example.org",
      "BACKOFFICE_SMTP_USER": "bo", "BACKOFFICE_SMTP_PASSWORD": "pw with spaces ",
      "BACKOFFICE_PUBLIC_URL": "https://bo.example.org",
    ]).get()
    let mail = try #require(on.mail)
    #expect(mail.port == 587 && mail.security == .starttls && mail.from == "bo@example.org")
    #expect(mail.password == "pw with spaces ")
    let tls = try load([
      "BACKOFFICE_SMTP_HOST": "smtp.example.org", "BACKOFFICE_MAIL_FROM": "bo@example.org",
      "BACKOFFICE_SMTP_SECURITY": "TLS", "BACKOFFICE_PUBLIC_URL": "https://bo.example.org",
    ]).get()
    #expect(tls.mail?.port == 465)

    guard
      case .failure(let error) = load([
        "BACKOFFICE_SMTP_HOST": "smtp.example.org", "BACKOFFICE_SMTP_SECURITY": "none",
        "BACKOFFICE_SMTP_PORT": "99999", "BACKOFFICE_SMTP_USER": "bo",
      ])
    else {
      Issue.record("bad mail settings were accepted")
      return
    }
    let text = error.description
    #expect(text.contains("only to a relay on this machine"))
    #expect(text.contains("BACKOFFICE_SMTP_PORT must be a port number"))
    #expect(text.contains("go together"))
    #expect(text.contains("BACKOFFICE_MAIL_FROM must be set"))
    #expect(text.contains("BACKOFFICE_PUBLIC_URL must be set when mail is on"))
    // Mail settings without a host: surely a mistake, said rather than ignored.
    #expect(throws: ConfigError.self) {
      try AppConfig.load(from: ["BACKOFFICE_MAIL_FROM": "bo@example.org"])
    }
    #expect(
      try load([
        "BACKOFFICE_SMTP_HOST": "localhost", "BACKOFFICE_SMTP_SECURITY": "none",
        "BACKOFFICE_MAIL_FROM": "bo@example.org", "BACKOFFICE_PUBLIC_URL": "http://127.0.0.1",
      ]).get().mail?.port == 25)
  }

  @Test func aQueuedMessageIsSentOnceAndItsBodyForgotten() async throws {
    try await withMailApp { t, server in
      try await t.app.queueMail(
        OutgoingMail(
          kind: .invitation, to: "someone@example.com", subject: "Запрошення до «Склад»",
          body: "Привіт!\n.a line that starts with a dot\n"))
      try await t.deliverMail()
      try await t.deliverMail()
      let messages = server.messages
      #expect(messages.count == 1)
      let message = try #require(messages.first)
      #expect(message.recipients == ["someone@example.com"])
      #expect(message.from == "backoffice@example.org")
      #expect(message.subject == "Запрошення до «Склад»")
      #expect(
        message.text.contains("Привіт!\r\n.a line that starts with a dot")
          || message.text.contains("Привіт!\n.a line that starts with a dot"))
      let entry = try #require(try await MailOutbox(db: t.db).all().first)
      #expect(entry.status == .sent)
      #expect(entry.body.isEmpty)
      #expect(entry.sentAt == t.clock.now)
    }
  }

  @Test func aPassingFailureIsTriedAgainLaterAndAFinalOneGivenUp() async throws {
    var busy = SMTPTestServer.Configuration()
    busy.faults = [.reply(to: "RCPT", code: 451, text: "4.3.0 try later")]
    try await withMailApp(busy) { t, server in
      let outbox = MailOutbox(db: t.db)
      try await t.app.queueMail(
        OutgoingMail(kind: .invitation, to: "a@example.com", subject: "s", body: "b"))
      let first = try await t.deliverMail()
      #expect(first.retrying == 1 || first == .init())
      var entry = try #require(try await outbox.all().first)
      #expect(entry.status == .queued && entry.attempts == 1)
      #expect(entry.nextAttemptAt == t.clock.now.addingTimeInterval(60))
      #expect(entry.lastError?.contains("451") == true)
      #expect(!entry.body.isEmpty)
      // Not yet its turn: nothing happens.
      #expect(try await t.deliverMail() == .init())
      // Every delay used up: given up, its body emptied.
      for delay in MailOutbox.retryDelays {
        t.clock.advance(by: delay)
        try await t.deliverMail()
      }
      entry = try #require(try await outbox.all().first)
      #expect(entry.status == .failed)
      #expect(entry.attempts == MailOutbox.retryDelays.count + 1)
      #expect(entry.body.isEmpty)
      #expect(server.messages.isEmpty)
    }
  }

  @Test func aRefusalIsGivenUpAtOnce() async throws {
    var refusing = SMTPTestServer.Configuration()
    refusing.faults = [.reply(to: "RCPT", code: 550, text: "5.1.1 no such mailbox")]
    try await withMailApp(refusing) { t, _ in
      try await t.app.queueMail(
        OutgoingMail(kind: .invitation, to: "gone@example.com", subject: "s", body: "b"))
      try await t.deliverMail()
      let entry = try #require(try await MailOutbox(db: t.db).all().first)
      #expect(entry.status == .failed && entry.attempts == 1)
      #expect(entry.lastError?.contains("no such mailbox") == true)
    }
  }

  @Test func aRelayThatIsDownLosesNothing() async throws {
    // A port nothing listens on: the message waits for the next attempt.
    let server = try await SMTPTestServer.start()
    var settings = mailSettings(server)
    try await server.shutdown()
    settings.timeoutSeconds = 5
    let config: (inout AppConfig) -> Void = {
      $0.mail = settings
      $0.publicURL = "https://bo.example.org"
    }
    try await withApp(config: config) { t in
      try await t.app.queueMail(
        OutgoingMail(kind: .invitation, to: "a@example.com", subject: "s", body: "b"))
      try await t.deliverMail()
      let entry = try #require(try await MailOutbox(db: t.db).all().first)
      #expect(entry.status == .queued && entry.attempts == 1)
      #expect(entry.lastError?.isEmpty == false)
    }
  }
}

@Suite("Mail: the administrator sees what failed")
struct MailAdministratorTests {
  @Test func failuresNobodyElseSeesAreOnTheAdministratorsSettings() async throws {
    var refusing = SMTPTestServer.Configuration()
    refusing.faults = [.reply(to: "RCPT", code: 550, text: "5.1.1 mailbox unavailable")]
    try await withMailApp(refusing) { t, _ in
      try await t.makeAccount("admin@example.com")  // the first account: the administrator
      try await t.makeAccount("someone@example.com")
      // A stranger asks for a reset link for someone: the relay refuses it.
      let stranger = t.client()
      try await stranger.get("/forgot-password")
      try await stranger.post("/forgot-password", form: [("email", "someone@example.com")])
      try await t.deliverMail()

      let admin = t.client()
      #expect(try await admin.signIn(email: "admin@example.com").status == .seeOther)
      let page = try await admin.get("/settings")
      #expect(page.body.contains("Outgoing mail"))
      #expect(page.body.contains("someone@example.com"))
      #expect(page.body.contains("mailbox unavailable"))
      #expect(page.body.contains("password reset"))
      // Anyone else does not see the server's mail.
      let member = t.client()
      #expect(try await member.signIn(email: "someone@example.com").status == .seeOther)
      let theirs = try await member.get("/settings")
      #expect(!theirs.body.contains("Outgoing mail"))
    }
  }
}
