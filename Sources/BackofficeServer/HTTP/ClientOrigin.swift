import Foundation
import NIOCore
import NIOHTTP1
import Vapor

/// Who sent a request and how, as far as this server can tell: the connection's peer, unless
/// that peer is a trusted proxy (`BACKOFFICE_TRUSTED_PROXIES`), whose forwarding headers then
/// name the client. From anyone else those headers are ignored entirely, so a client that
/// writes them itself gains nothing.
struct ClientOrigin: Sendable, Equatable {
  enum Scheme: String, Sendable {
    case http, https
  }

  /// The client's IP address in its usual text; "unknown" without one (a Unix domain socket).
  var address: String
  /// The scheme the client used, when a trusted proxy said so.
  var scheme: Scheme?

  /// The client of a request that came from `peer` with `headers`.
  ///
  /// `X-Forwarded-For` is read when the request has one, else RFC 7239 `Forwarded` (its
  /// `for=`). Each proxy appends the address it was reached from, so the list is read from
  /// the right: entries that are trusted proxies themselves are passed over and the first one
  /// that is not is the client; everything left of it was written by the client and is never
  /// looked at. An entry that is not an address (`unknown`, an obfuscated name, garbage) ends
  /// the walk at the last trusted hop before it. When every entry is a trusted proxy the
  /// left-most one is the client.
  ///
  /// The scheme comes from the same kind of header as the address: the right-most
  /// `X-Forwarded-Proto` value with `X-Forwarded-For`, or `proto=` of the nearest proxy's
  /// `Forwarded` element; only `http` and `https` count.
  static func resolve(peer: SocketAddress?, headers: HTTPHeaders, trusted: TrustedProxies)
    -> ClientOrigin
  {
    guard let peer, let peerIP = IPAddress(peer) else {
      return ClientOrigin(address: "unknown", scheme: nil)
    }
    guard !trusted.isEmpty, trusted.contains(peerIP) else {
      return ClientOrigin(address: peerIP.description, scheme: nil)
    }

    let forwardedFor = listValues(headers, "X-Forwarded-For")
    let hops: [String]
    let scheme: Scheme?
    if forwardedFor.isEmpty, headers.contains(name: "Forwarded") {
      let elements = ForwardedHeader.elements(
        headers[canonicalForm: "Forwarded"].joined(separator: ","))
      hops = elements.map { $0["for"] ?? "" }
      scheme = elements.last?["proto"].flatMap { Scheme(rawValue: $0.lowercased()) }
    } else {
      hops = forwardedFor
      scheme = listValues(headers, "X-Forwarded-Proto").last.flatMap {
        Scheme(rawValue: $0.lowercased())
      }
    }

    var client = peerIP
    for hop in hops.reversed() {
      guard let address = hopAddress(hop) else { break }
      client = address
      if !trusted.contains(address) { break }
    }
    return ClientOrigin(address: client.description, scheme: scheme)
  }

  /// Every comma-separated value of every `name` line, in order, trimmed.
  private static func listValues(_ headers: HTTPHeaders, _ name: String) -> [String] {
    let lines = headers[name]
    guard lines.contains(where: { !$0.allSatisfy(\.isWhitespace) }) else { return [] }
    return lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
      .map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// The address of one hop: `192.0.2.7`, `192.0.2.7:4711`, `2001:db8::1`, `[2001:db8::1]` or
  /// `[2001:db8::1]:4711`; nil for anything else.
  static func hopAddress(_ hop: String) -> IPAddress? {
    if hop.hasPrefix("[") {
      guard let close = hop.firstIndex(of: "]") else { return nil }
      let rest = hop[hop.index(after: close)...]
      guard rest.isEmpty || Self.isPort(rest) else { return nil }
      return IPAddress(String(hop[hop.index(after: hop.startIndex)..<close]))
    }
    let colons = hop.filter { $0 == ":" }.count
    if colons == 1, let colon = hop.firstIndex(of: ":") {
      guard Self.isPort(hop[colon...]) else { return nil }
      let address = IPAddress(String(hop[..<colon]))
      return address?.isIPv4 == true ? address : nil
    }
    return IPAddress(hop)
  }

  /// `:` and one to five digits.
  private static func isPort(_ text: Substring) -> Bool {
    text.first == ":" && (2...6).contains(text.count)
      && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
  }
}

/// RFC 7239 `Forwarded`: elements separated by commas, each `name=value` pairs separated by
/// semicolons, values a token or a quoted string (`for="[2001:db8::1]:4711"`). Vapor's own
/// reader drops an element with a parameter it does not know, which would shift which element
/// counts as the nearest proxy's, so the header is read here.
enum ForwardedHeader {
  /// The elements in order, each with its parameters (names in lower case, values unquoted).
  static func elements(_ value: String) -> [[String: String]] {
    var elements: [[String: String]] = []
    var element: [String: String] = [:]
    var pair = ""
    var quoted = false
    var escaped = false

    func endPair() {
      let text = pair.trimmingCharacters(in: .whitespaces)
      pair = ""
      guard let equals = text.firstIndex(of: "=") else { return }
      let name = text[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
      var value = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      if value.hasPrefix("\"") {
        value = unquote(value)
      }
      // A repeated parameter makes the element unreadable; its `for` is then unknown.
      element[name] = element[name] == nil ? value : ""
    }

    for character in value {
      if quoted {
        pair.append(character)
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          quoted = false
        }
        continue
      }
      switch character {
      case "\"":
        quoted = true
        pair.append(character)
      case ";":
        endPair()
      case ",":
        endPair()
        elements.append(element)
        element = [:]
      default:
        pair.append(character)
      }
    }
    endPair()
    elements.append(element)
    return elements
  }

  /// The text of a quoted string (`"a\"b"` is `a"b`); what follows its closing quote is
  /// dropped.
  private static func unquote(_ value: String) -> String {
    var result = ""
    var escaped = false
    for character in value.dropFirst() {
      if escaped {
        result.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        break
      } else {
        result.append(character)
      }
    }
    return result
  }
}

extension Request {
  /// This request's client (see `ClientOrigin.resolve`), worked out once.
  var clientOrigin: ClientOrigin {
    let state = kept
    if let known = state.read({ $0.clientOrigin }) { return known }
    let origin = ClientOrigin.resolve(
      peer: remoteAddress, headers: headers, trusted: application.config.trustedProxies)
    state.change { $0.clientOrigin = origin }
    return origin
  }

  /// The client's address for every per-address rule (sign-in and sign-up limits, the public
  /// pages' limit) and the logs: the peer, or what a trusted proxy reported. (Vapor's
  /// `peerAddress` believes forwarding headers from anyone; it is not to be used.)
  var clientAddress: String { clientOrigin.address }

  /// What a per-address limit counts the client by: its IPv4 address, or the /64 network of
  /// its IPv6 address (every IPv6 client holds at least a /64, so counting single addresses
  /// would let one client walk around any limit).
  var clientLimitKey: String { IPAddress.limitKey(clientAddress) }
}

extension IPAddress {
  /// `address` as a per-address limit counts it: IPv6 by its /64 network, anything else as is.
  static func limitKey(_ address: String) -> String {
    guard let ip = IPAddress(address) else { return address }
    guard ip.bytes.count == 16 else { return ip.description }
    return IPAddress(bytes: Array(ip.bytes[0..<8]) + Array(repeating: 0, count: 8)).description
      + "/64"
  }
}

/// The client's address in a request's log lines, worked out when a line is written: most
/// requests log nothing, and their client is then never looked up for the logs.
struct LoggedClient: CustomStringConvertible, Sendable {
  let peer: SocketAddress?
  let headers: HTTPHeaders
  let trusted: TrustedProxies

  var description: String {
    ClientOrigin.resolve(peer: peer, headers: headers, trusted: trusted).address
  }
}
