import Fluent
import Foundation
import Metrics
import NIOConcurrencyHelpers
import NIOCore
import Vapor

/// Sends what the outbox holds, in the background: right after a message is queued, and
/// every `pollEvery` for retries. One instance at a time sends (a lease in the database), so
/// several servers on one database do not send a message twice. A message that fails for a
/// passing reason (the relay is down, 4xx) is tried again after `MailOutbox.retryDelays`;
/// one the relay refuses for good (5xx) is given up at once, and both are logged and shown to
/// whoever asked for it (Settings, "Mail").
final class MailDelivery: Sendable {
  let settings: MailSettings
  /// The name the server gives itself to the relay (the public URL's host).
  let heloName: String
  let pollEvery: Duration
  private struct Wake {
    var pending = false
    var waiter: CheckedContinuation<Void, Never>?
  }
  private let wake = NIOLockedValueBox(Wake())
  private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)
  private let holder = UUID.random().uuidString
  private let rounds = OneAtATime()

  static let lease = "mail-delivery"
  static let sent = Metrics.Counter(label: "backoffice_mail_sent_total")
  static let retried = Metrics.Counter(
    label: "backoffice_mail_failures_total", dimensions: [("kind", "temporary")])
  static let givenUp = Metrics.Counter(
    label: "backoffice_mail_failures_total", dimensions: [("kind", "permanent")])
  static let queued = Metrics.Gauge(label: "backoffice_mail_queue_length")

  init(settings: MailSettings, heloName: String, pollEvery: Duration = .seconds(30)) {
    _ = AppMetrics.shared
    self.settings = settings
    self.heloName = heloName
    self.pollEvery = pollEvery
  }

  var smtp: SMTPSettings {
    let security: SMTPSettings.Security =
      switch settings.security {
      case .starttls: .startTLS
      case .tls: .tls
      case .none: .none
      }
    return SMTPSettings(
      host: settings.host, port: settings.port, security: security,
      credentials: settings.username.map {
        SMTPSettings.Credentials(username: $0, password: settings.password ?? "")
      },
      heloName: heloName, connectTimeout: .seconds(10),
      commandTimeout: .seconds(Int64(settings.timeoutSeconds)),
      additionalTrustRootsPEM: settings.extraTrustRootPEM)
  }

  /// Asks the loop to look at the outbox now.
  func poke() {
    let waiter = wake.withLockedValue { wake -> CheckedContinuation<Void, Never>? in
      guard let waiter = wake.waiter else {
        wake.pending = true
        return nil
      }
      wake.waiter = nil
      return waiter
    }
    waiter?.resume()
  }

  func start(_ app: Application) {
    let loop = Task.detached { [self] in
      while !Task.isCancelled {
        do {
          _ = try await self.runOnce(app)
        } catch is CancellationError {
          return
        } catch {
          app.logger.warning("mail delivery: \(String(reflecting: error))")
        }
        await self.sleep()
      }
    }
    task.withLockedValue { $0 = loop }
  }

  func stop() async {
    let loop = task.withLockedValue { current in
      defer { current = nil }
      return current
    }
    loop?.cancel()
    poke()
    await loop?.value
  }

  /// Sleeps until poked or `pollEvery` has passed.
  private func sleep() async {
    let every = pollEvery
    let timer = Task { [self] in
      if (try? await Task.sleep(for: every)) != nil { poke() }
    }
    await withCheckedContinuation { continuation in
      let now = wake.withLockedValue { wake -> Bool in
        if wake.pending {
          wake.pending = false
          return true
        }
        wake.waiter = continuation
        return false
      }
      if now { continuation.resume() }
    }
    timer.cancel()
  }

  struct Round: Sendable, Equatable {
    var sent = 0
    var retrying = 0
    var givenUp = 0
  }

  /// Sends every message whose turn has come, if this instance holds the lease. One round at
  /// a time per instance (the loop's, or one a test or command starts beside it).
  func runOnce(_ app: Application) async throws -> Round {
    await rounds.enter()
    defer { rounds.leave() }
    return try await round(app)
  }

  private func round(_ app: Application) async throws -> Round {
    let db = app.db
    let now = app.clients.now
    var round = Round()
    var holding = try await JobLease.acquire(
      Self.lease, holder: holder, for: 120, now: now(), on: db)
    if !holding {
      holding = try await JobLease.renew(Self.lease, holder: holder, for: 120, now: now(), on: db)
    }
    guard holding else { return round }
    let outbox = MailOutbox(db: db)
    while !Task.isCancelled {
      let due = try await outbox.due(now: now(), limit: 20)
      if due.isEmpty { break }
      for entry in due {
        do {
          try await send(entry, on: app.eventLoopGroup)
          try await outbox.markSent(entry.id, now: now())
          Self.sent.increment()
          round.sent += 1
          app.logger.info(
            "mail sent", metadata: ["kind": .string(entry.kind.rawValue), "id": "\(entry.id)"])
        } catch is CancellationError {
          throw CancellationError()
        } catch {
          let (text, permanent) = Self.describe(error)
          let gaveUp = try await outbox.markFailed(
            entry, error: text, permanent: permanent, now: now())
          (gaveUp ? Self.givenUp : Self.retried).increment()
          if gaveUp { round.givenUp += 1 } else { round.retrying += 1 }
          app.logger.warning(
            "mail not sent\(gaveUp ? ", given up" : ", will retry"): \(text)",
            metadata: ["kind": .string(entry.kind.rawValue), "id": "\(entry.id)"])
        }
      }
      _ = try await JobLease.renew(Self.lease, holder: holder, for: 120, now: now(), on: db)
    }
    try await outbox.prune(olderThan: 30 * 24 * 60 * 60, now: now())
    Self.queued.record(try await outbox.count(.queued))
    return round
  }

  func send(_ entry: MailOutbox.Entry, on group: any EventLoopGroup) async throws {
    let message = MailMessage(
      from: MailAddress(settings.from, name: settings.fromName),
      to: [MailAddress(entry.to)], replyTo: entry.replyTo.map { MailAddress($0) },
      subject: entry.subject, textBody: entry.body,
      extraHeaders: [MailHeader("Auto-Submitted", "auto-generated")])
    try await SMTPClient.send(message, settings: smtp, on: group)
  }

  /// Words for the log and the person who asked, and whether trying again can help.
  static func describe(_ error: any Error) -> (String, permanent: Bool) {
    switch error {
    case let smtp as SMTPError:
      let code = smtp.code.map { " \($0)" } ?? ""
      let server = smtp.serverText.isEmpty ? "" : ": \(smtp.serverText)"
      return ("\(smtp.command)\(code)\(server) (\(smtp.kind))", smtp.isPermanent)
    case let message as MailMessageError:
      return (message.description, true)
    default:
      return (String(describing: error), false)
    }
  }
}

extension Application {
  private struct MailDeliveryKey: StorageKey {
    typealias Value = MailDelivery
  }

  /// The mail sender; nil when mail is not configured.
  var mailDelivery: MailDelivery? {
    get { storage[MailDeliveryKey.self] }
    set { storage[MailDeliveryKey.self] = newValue }
  }

  /// Queues `mail` and wakes the sender. Without mail configured this is a mistake of the
  /// caller's (every page that offers mail checks first), so it throws.
  func queueMail(_ mail: OutgoingMail, on db: (any Database)? = nil) async throws {
    guard let delivery = mailDelivery else {
      throw Abort(.internalServerError, reason: "Mail is not configured.")
    }
    try await MailOutbox(db: db ?? self.db).enqueue(mail, now: clients.now())
    delivery.poke()
  }
}

/// Starts and stops the sender with the app.
struct MailDeliveryLifecycle: LifecycleHandler {
  func didBoot(_ application: Application) throws {
    application.mailDelivery?.start(application)
  }

  func shutdownAsync(_ application: Application) async {
    await application.mailDelivery?.stop()
  }
}

/// Lets one caller in at a time, the others waiting in order.
final class OneAtATime: Sendable {
  private struct Line {
    var busy = false
    var waiting: [CheckedContinuation<Void, Never>] = []
  }
  private let line = NIOLockedValueBox(Line())

  func enter() async {
    await withCheckedContinuation { continuation in
      let now = line.withLockedValue { line -> Bool in
        guard line.busy else {
          line.busy = true
          return true
        }
        line.waiting.append(continuation)
        return false
      }
      if now { continuation.resume() }
    }
  }

  func leave() {
    let next = line.withLockedValue { line -> CheckedContinuation<Void, Never>? in
      guard !line.waiting.isEmpty else {
        line.busy = false
        return nil
      }
      return line.waiting.removeFirst()
    }
    next?.resume()
  }
}
