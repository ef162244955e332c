import Foundation
import NIOCore

/// Settings read once at start from the environment. Everything that can be wrong is collected
/// and reported together, so a user fixes their configuration in one go.
public struct AppConfig: Sendable {
  public enum Database: Sendable, Equatable {
    case sqliteFile(path: String)
    case sqliteMemory
    case postgres(url: String, searchPath: [String]?)
  }

  public var dataDirectory: String
  public var database: Database
  public var signupOpen: Bool
  public var maxUploadBytes: Int
  /// Marks the cookies `Secure` and sends HSTS; on by default when the public URL is https.
  public var secureCookies: Bool
  /// The address people reach the server at (`BACKOFFICE_PUBLIC_URL`), scheme and host with an
  /// optional port and no trailing slash, such as `https://backoffice.example.org`. Absolute
  /// URLs on public pages are written only from it, never from a request's `Host`.
  public var publicURL: String?
  /// Reverse proxies whose forwarding headers name the client (`BACKOFFICE_TRUSTED_PROXIES`).
  public var trustedProxies = TrustedProxies()
  /// Migrations run on every start so `swift run backoffice` works on an empty data folder.
  public var autoMigrate: Bool
  /// Bcrypt work factor; tests lower it to keep the suite fast.
  public var passwordCost: Int
  /// Where "Refresh catalog" fetches the marketing documents (`{base}{document id}`).
  public var catalogBaseURL: String = "https://api.npoint.io/"
  /// Marketing catalog fetches: connect and idle-read limit, and the limit per whole request.
  public var catalogRequestTimeout: Double = 3
  public var catalogTotalTimeout: Double = 6
  /// Monobank's jar API base (`{base}api/handler`); tests point it at a local stub.
  public var monobankBaseURL: String = "https://send.monobank.ua/"
  /// Minutes between background jar refreshes; 0 turns them off.
  public var jarRefreshMinutes: Int = 15
  /// Longest wait for one jar answer, in seconds.
  public var jarRequestTimeout: Double = 5
  /// New accounts one client address may create per hour.
  public var signupsPerHour: Int = 10
  /// Connection limits and timeouts of the HTTP server.
  public var connections = ConnectionLimits()
  /// Bytes the read cache may hold (`ReadCache`); 0 turns it off.
  public var readCacheBytes: Int = 16 * 1024 * 1024
  /// How long an SQLite connection sleeps waiting for another process's write lock (a CLI
  /// command or a second server on the same file) before answering "database is locked".
  public var sqliteBusyTimeoutMilliseconds = 5_000
  /// Who may read `GET /metrics` (`BACKOFFICE_METRICS_TOKEN`, `BACKOFFICE_METRICS_ALLOW`).
  public var metrics = MetricsAccess()
  /// Outgoing mail; nil (off) until `BACKOFFICE_SMTP_HOST` is set.
  public var mail: MailSettings?
  /// Scheduled backups; nil (off) until `BACKOFFICE_BACKUP_DIR` is set.
  public var backup: BackupSettings?

  public init(
    dataDirectory: String = "./data",
    database: Database = .sqliteMemory,
    signupOpen: Bool = true,
    maxUploadBytes: Int = 5 * 1024 * 1024,
    secureCookies: Bool = false,
    autoMigrate: Bool = true,
    passwordCost: Int = 12
  ) {
    self.dataDirectory = dataDirectory
    self.database = database
    self.signupOpen = signupOpen
    self.maxUploadBytes = maxUploadBytes
    self.secureCookies = secureCookies
    self.autoMigrate = autoMigrate
    self.passwordCost = passwordCost
  }

  /// Reads `BACKOFFICE_*` and `DATABASE_URL`.
  public static func load(from environment: [String: String]) throws(ConfigError) -> AppConfig {
    var problems: [String] = []
    var config = AppConfig()

    config.dataDirectory = nonEmpty(environment["BACKOFFICE_DATA_DIR"]) ?? "./data"

    if let url = nonEmpty(environment["DATABASE_URL"]) {
      let lowered = url.lowercased()
      if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
        if URLComponents(string: url)?.host?.isEmpty ?? true {
          problems.append(
            "DATABASE_URL has no host. Expected postgres://USER:PASSWORD@HOST:5432/DATABASE.")
        } else {
          config.database = .postgres(url: url, searchPath: nil)
        }
      } else if lowered.hasPrefix("sqlite://") {
        let path = String(url.dropFirst("sqlite://".count))
        config.database = path.isEmpty ? .sqliteMemory : .sqliteFile(path: path)
      } else {
        problems.append(
          "DATABASE_URL must start with postgres:// (or sqlite://PATH); leave it unset to use "
            + "SQLite in the data folder.")
      }
    } else {
      config.database = .sqliteFile(
        path: (config.dataDirectory as NSString).appendingPathComponent("backoffice.sqlite"))
    }

    switch nonEmpty(environment["BACKOFFICE_SIGNUP"])?.lowercased() {
    case nil, "open": config.signupOpen = true
    case "closed": config.signupOpen = false
    case let other?:
      problems.append("BACKOFFICE_SIGNUP must be open or closed, not \"\(other)\".")
    }

    if let raw = nonEmpty(environment["BACKOFFICE_MAX_UPLOAD_MB"]) {
      if let megabytes = Int(raw), (1...100).contains(megabytes) {
        config.maxUploadBytes = megabytes * 1024 * 1024
      } else {
        problems.append("BACKOFFICE_MAX_UPLOAD_MB must be a whole number from 1 to 100.")
      }
    }

    func flag(_ name: String, _ apply: (Bool) -> Void) {
      guard let raw = nonEmpty(environment[name]) else { return }
      switch raw.lowercased() {
      case "1", "true", "yes": apply(true)
      case "0", "false", "no": apply(false)
      default: problems.append("\(name) must be true or false.")
      }
    }
    if let raw = nonEmpty(environment["BACKOFFICE_PUBLIC_URL"]) {
      if let url = publicURL(raw) {
        config.publicURL = url
        // Served over https: cookies are Secure unless BACKOFFICE_SECURE_COOKIES says otherwise.
        config.secureCookies = url.hasPrefix("https:")
      } else {
        problems.append(
          "BACKOFFICE_PUBLIC_URL must be the http(s) address of the site's root, without path, "
            + "query or fragment, such as https://backoffice.example.org.")
      }
    }
    flag("BACKOFFICE_SECURE_COOKIES") { config.secureCookies = $0 }

    if let raw = nonEmpty(environment["BACKOFFICE_TRUSTED_PROXIES"]) {
      do {
        config.trustedProxies = try TrustedProxies(parsing: raw)
      } catch {
        problems.append(
          "BACKOFFICE_TRUSTED_PROXIES must list IP addresses or CIDR blocks separated by commas, "
            + "such as 127.0.0.1, 10.0.0.0/8, fd00::/8; not "
            + error.entries.map { "\"\($0)\"" }.joined(separator: ", ") + ".")
      }
    }

    if let raw = nonEmpty(environment["BACKOFFICE_CATALOG_URL"]) {
      let components = URLComponents(string: raw)
      if ["http", "https"].contains(components?.scheme?.lowercased() ?? ""),
        !(components?.host ?? "").isEmpty
      {
        config.catalogBaseURL = raw.hasSuffix("/") ? raw : raw + "/"
      } else {
        problems.append(
          "BACKOFFICE_CATALOG_URL must be an http(s) URL such as https://api.npoint.io/.")
      }
    }

    if let raw = nonEmpty(environment["BACKOFFICE_MONOBANK_URL"]) {
      let components = URLComponents(string: raw)
      if ["http", "https"].contains(components?.scheme?.lowercased() ?? ""),
        !(components?.host ?? "").isEmpty
      {
        config.monobankBaseURL = raw.hasSuffix("/") ? raw : raw + "/"
      } else {
        problems.append(
          "BACKOFFICE_MONOBANK_URL must be an http(s) URL such as https://send.monobank.ua/.")
      }
    }

    if let raw = nonEmpty(environment["BACKOFFICE_JAR_REFRESH_MINUTES"]) {
      if let minutes = Int(raw), (0...1440).contains(minutes) {
        config.jarRefreshMinutes = minutes
      } else {
        problems.append(
          "BACKOFFICE_JAR_REFRESH_MINUTES must be a whole number from 0 (off) to 1440.")
      }
    }

    if let raw = nonEmpty(environment["BACKOFFICE_SIGNUPS_PER_HOUR"]) {
      if let count = Int(raw), (1...100_000).contains(count) {
        config.signupsPerHour = count
      } else {
        problems.append("BACKOFFICE_SIGNUPS_PER_HOUR must be a whole number from 1 to 100000.")
      }
    }

    func number(_ name: String, _ range: ClosedRange<Int>, _ apply: (Int) -> Void) {
      guard let raw = nonEmpty(environment[name]) else { return }
      if let value = Int(raw), range.contains(value) {
        apply(value)
      } else {
        problems.append(
          "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
      }
    }
    number("BACKOFFICE_MAX_CONNECTIONS", 16...1_000_000) { config.connections.maxConnections = $0 }
    number("BACKOFFICE_MAX_CONNECTIONS_PER_ADDRESS", 0...1_000_000) {
      config.connections.maxConnectionsPerAddress = $0
    }
    number("BACKOFFICE_HEADER_TIMEOUT_SECONDS", 1...600) {
      config.connections.headerTimeout = .seconds(Int64($0))
    }
    number("BACKOFFICE_IDLE_TIMEOUT_SECONDS", 5...3600) {
      config.connections.idleTimeout = .seconds(Int64($0))
    }
    number("BACKOFFICE_READ_CACHE_MB", 0...4096) { config.readCacheBytes = $0 * 1024 * 1024 }

    if let token = nonEmpty(environment["BACKOFFICE_METRICS_TOKEN"]) {
      if token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) {
        config.metrics.token = token
      } else {
        problems.append(
          "BACKOFFICE_METRICS_TOKEN must be at least 16 characters without spaces "
            + "(for example the output of `openssl rand -hex 24`).")
      }
    }
    if let raw = nonEmpty(environment["BACKOFFICE_METRICS_ALLOW"]) {
      if raw.lowercased() == "none" {
        config.metrics.allowed = TrustedProxies()
      } else {
        do {
          config.metrics.allowed = try TrustedProxies(parsing: raw)
        } catch {
          problems.append(
            "BACKOFFICE_METRICS_ALLOW must list IP addresses or CIDR blocks separated by "
              + "commas (or be none), not "
              + error.entries.map { "\"\($0)\"" }.joined(separator: ", ") + ".")
        }
      }
    }

    config.mail = MailSettings.load(from: environment, problems: &problems)
    config.backup = BackupSettings.load(
      from: environment, database: config.database, problems: &problems)
    if nonEmpty(environment["BACKOFFICE_SMTP_HOST"]) != nil, config.publicURL == nil {
      problems.append(
        "BACKOFFICE_PUBLIC_URL must be set when mail is on: the links in mail (password "
          + "reset, invitations) are written from it, never from a request's Host header.")
    }

    if !problems.isEmpty { throw ConfigError(problems: problems) }
    return config
  }

  /// `scheme://host[:port]` of an http(s) address with nothing after the host but an optional
  /// `/`; nil otherwise. The scheme and host are lower-cased.
  static func publicURL(_ raw: String) -> String? {
    guard let components = URLComponents(string: raw),
      let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
      var host = components.percentEncodedHost, !host.isEmpty,
      PublicAddress.printableHost(host) != nil,
      components.user == nil, components.password == nil,
      components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/",
      components.query == nil, components.fragment == nil,
      !raw.hasSuffix("?"), !raw.hasSuffix("#"),
      components.port.map({ (1...65_535).contains($0) }) ?? true
    else { return nil }
    if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
    let port = components.port.map { ":\($0)" } ?? ""
    return "\(scheme)://\(host.lowercased())\(port)"
  }

  private static func nonEmpty(_ value: String?) -> String? {
    guard let trimmed = value?.trimmingCharacters(in: .whitespaces), !trimmed.isEmpty else {
      return nil
    }
    return trimmed
  }
}

/// Who may read the metrics: anyone presenting the token, and clients at the allowed
/// addresses (loopback unless set) without it.
public struct MetricsAccess: Sendable, Equatable {
  public var token: String?
  public var allowed: TrustedProxies

  public init(token: String? = nil, allowed: TrustedProxies? = nil) {
    self.token = token
    // Loopback only: a Prometheus on the same machine, or an SSH tunnel.
    self.allowed =
      allowed ?? ((try? TrustedProxies(parsing: "127.0.0.0/8, ::1")) ?? TrustedProxies())
  }
}

public struct ConfigError: Error, CustomStringConvertible, Sendable {
  public var problems: [String]
  public var description: String {
    "Configuration problem\(problems.count == 1 ? "" : "s"):\n"
      + problems.map { "  - \($0)" }.joined(separator: "\n")
  }
}

/// A failure before the server can serve, reported as one readable line instead of a trace.
public struct StartupError: Error, CustomStringConvertible, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
