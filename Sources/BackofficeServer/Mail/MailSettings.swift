import BackofficeCore
import Foundation

/// Outgoing mail (`BACKOFFICE_SMTP_*`, `BACKOFFICE_MAIL_FROM`): off until a host is set. The
/// server speaks SMTP itself to a relay (the provider's submission port, or Postfix on the same
/// machine); docs/platform.md, "Mail", says why not a sendmail program.
public struct MailSettings: Sendable, Equatable {
  public enum Security: String, Sendable, CaseIterable {
    /// Plain connection upgraded with STARTTLS before anything else is sent (port 587).
    case starttls
    /// TLS from the first byte (port 465).
    case tls
    /// No encryption: only to a relay on this machine.
    case none
  }

  public var host: String
  public var port: Int
  public var security: Security
  public var username: String?
  public var password: String?
  /// The sender's address, and the name shown with it.
  public var from: String
  public var fromName: String = "Backoffice"
  /// A certificate (PEM) trusted besides the system's, for a relay with its own authority.
  public var extraTrustRootPEM: String?
  /// Longest wait for the relay's answer to one command, in seconds.
  public var timeoutSeconds: Int = 30

  public init(
    host: String, port: Int? = nil, security: Security = .starttls, from: String,
    username: String? = nil, password: String? = nil
  ) {
    self.host = host
    self.security = security
    self.port = port ?? (security == .tls ? 465 : security == .starttls ? 587 : 25)
    self.from = from
    self.username = username
    self.password = password
  }

  /// Reads the settings; nil when no host is set. Every problem goes into `problems`.
  static func load(from environment: [String: String], problems: inout [String]) -> MailSettings? {
    func value(_ name: String) -> String? {
      guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty
      else { return nil }
      return raw
    }
    guard let host = value("BACKOFFICE_SMTP_HOST") else {
      if value("BACKOFFICE_MAIL_FROM") != nil || value("BACKOFFICE_SMTP_USER") != nil {
        problems.append(
          "BACKOFFICE_SMTP_HOST is not set, so mail is off; set it (with BACKOFFICE_MAIL_FROM) "
            + "or remove the other BACKOFFICE_SMTP_* settings.")
      }
      return nil
    }
    let before = problems.count
    var security = Security.starttls
    if let raw = value("BACKOFFICE_SMTP_SECURITY") {
      if let chosen = Security(rawValue: raw.lowercased()) {
        security = chosen
      } else {
        problems.append("BACKOFFICE_SMTP_SECURITY must be starttls, tls or none, not \"\(raw)\".")
      }
    }
    if host.contains(where: { $0.isWhitespace || $0 == "/" || $0 == "@" }) {
      problems.append(
        "BACKOFFICE_SMTP_HOST must be a host name or an IP address, such as smtp.example.org.")
    }
    if security == .none, !Self.isLoopback(host) {
      problems.append(
        "BACKOFFICE_SMTP_SECURITY=none sends mail and passwords in clear text, so it is allowed "
          + "only to a relay on this machine (localhost, 127.0.0.1 or ::1); use starttls or tls.")
    }
    var port: Int?
    if let raw = value("BACKOFFICE_SMTP_PORT") {
      if let number = Int(raw), (1...65_535).contains(number) {
        port = number
      } else {
        problems.append("BACKOFFICE_SMTP_PORT must be a port number from 1 to 65535.")
      }
    }
    let user = value("BACKOFFICE_SMTP_USER")
    let password = environment["BACKOFFICE_SMTP_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
    if (user == nil) != (password == nil) {
      problems.append(
        "BACKOFFICE_SMTP_USER and BACKOFFICE_SMTP_PASSWORD go together: set both or neither.")
    }
    let from = EmailAddress.normalize(value("BACKOFFICE_MAIL_FROM") ?? "")
    if from.isEmpty {
      problems.append(
        "BACKOFFICE_MAIL_FROM must be set with BACKOFFICE_SMTP_HOST: the address mail is sent "
          + "from, such as backoffice@example.org.")
    } else if EmailAddress.problem(with: from) != nil {
      problems.append("BACKOFFICE_MAIL_FROM must be an email address, not \"\(from)\".")
    }
    var settings = MailSettings(
      host: host, port: port, security: security, from: from, username: user, password: password)
    if let name = value("BACKOFFICE_MAIL_FROM_NAME") {
      if name.count <= 100, !name.contains(where: { $0.isNewline || $0 == "<" || $0 == ">" }) {
        settings.fromName = name
      } else {
        problems.append(
          "BACKOFFICE_MAIL_FROM_NAME must be one line of at most 100 characters without < or >.")
      }
    }
    if let path = value("BACKOFFICE_SMTP_CA_FILE") {
      if let pem = try? String(contentsOfFile: path, encoding: .utf8),
        pem.contains("-----BEGIN CERTIFICATE-----")
      {
        settings.extraTrustRootPEM = pem
      } else {
        problems.append(
          "BACKOFFICE_SMTP_CA_FILE must name a readable PEM certificate file; \(path) is not one.")
      }
    }
    return problems.count == before ? settings : nil
  }

  static func isLoopback(_ host: String) -> Bool {
    let lowered = host.lowercased()
    if lowered == "localhost" || lowered == "::1" || lowered == "[::1]" { return true }
    return lowered.hasPrefix("127.") && IPAddress(lowered) != nil
  }
}
