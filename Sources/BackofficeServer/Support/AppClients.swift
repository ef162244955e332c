import Foundation
import Vapor

/// Every side effect the app depends on, in one place: the clock, randomness and the outside
/// services. `configure` takes them; tests pass a fixed clock (and could pass stand-ins for the
/// services, though they prefer real loopback servers speaking the same protocol). An outside
/// service left nil is the live client for the configured address.
public struct AppClients: Sendable {
  public var now: @Sendable () -> Date
  public var randomBytes: @Sendable (Int) -> [UInt8]
  /// Monobank's jar API.
  var jar: JarClient?
  /// The marketing catalog host.
  var marketingCatalog: MarketingCatalogClient?

  public static let live = AppClients(
    now: { Date() },
    randomBytes: { count in [UInt8].random(count: count) }
  )
}

extension Application {
  private struct ClientsKey: StorageKey {
    typealias Value = AppClients
  }

  public var clients: AppClients {
    get { storage[ClientsKey.self] ?? .live }
    set { storage[ClientsKey.self] = newValue }
  }

  private struct ConfigKey: StorageKey {
    typealias Value = AppConfig
  }

  public var config: AppConfig {
    get { storage[ConfigKey.self] ?? AppConfig() }
    set { storage[ConfigKey.self] = newValue }
  }
}

extension Request {
  var clients: AppClients { application.clients }
  var config: AppConfig { application.config }
  var now: Date { application.clients.now() }
}

/// A URL-safe random secret, used for session CSRF tokens and API tokens.
func randomToken(_ clients: AppClients, bytes: Int = 32) -> String {
  Data(clients.randomBytes(bytes)).base64EncodedString()
    .replacingOccurrences(of: "+", with: "-")
    .replacingOccurrences(of: "/", with: "_")
    .replacingOccurrences(of: "=", with: "")
}
