import Foundation
import Vapor

/// Why a request to an outside service got no answer, in the kinds a person can act on: the one
/// reading of transport errors behind every client (the jar, the marketing catalog). Each
/// client words the kinds in its own language.
enum NetworkFailure: Equatable, Sendable {
  /// No connection was made in time (connect, TLS handshake, a free pooled connection).
  case connectTimeout
  /// Connected, then the host stopped answering (read or write).
  case readTimeout
  /// The whole request ran past its deadline.
  case deadlineExceeded
  /// Too slow, said only in the error's text.
  case timeout
  /// The host closed the connection before answering.
  case closed
  /// Nothing listens at the address.
  case refused
  /// The host name could not be resolved.
  case unknownHost
  /// Anything else, with the error's own description.
  case other(String)

  init(_ error: any Error) {
    if let client = error as? HTTPClientError, let kind = Self.kind(client) {
      self = kind
      return
    }
    let text = String(describing: error)
    if text.localizedCaseInsensitiveContains("refused") {
      self = .refused
    } else if text.localizedCaseInsensitiveContains("timeout")
      || text.localizedCaseInsensitiveContains("timed out")
    {
      self = .timeout
    } else if text.localizedCaseInsensitiveContains("resolve") || text.contains("NXDOMAIN")
      || text.localizedCaseInsensitiveContains("dns")
    {
      self = .unknownHost
    } else {
      self = .other(text)
    }
  }

  private static func kind(_ error: HTTPClientError) -> NetworkFailure? {
    switch error {
    case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout: .connectTimeout
    case .readTimeout, .writeTimeout: .readTimeout
    case .deadlineExceeded: .deadlineExceeded
    case .remoteConnectionClosed: .closed
    default: nil
    }
  }
}
