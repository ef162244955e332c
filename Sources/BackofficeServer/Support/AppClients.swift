import Foundation
import Vapor

/// Side effects the app depends on, swapped for fixed values in tests.
public struct AppClients: Sendable {
  public var now: @Sendable () -> Date
  public var randomBytes: @Sendable (Int) -> [UInt8]

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
