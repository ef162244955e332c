import Foundation
import NIOCore

/// An IP address as its bytes: 4 for IPv4, 16 for IPv6. An IPv4-mapped IPv6 address
/// (`::ffff:192.0.2.7`, how a dual-stack socket reports an IPv4 peer) is read as the IPv4
/// address it stands for, so one client is one address however it arrived.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
  public let bytes: [UInt8]

  /// A bare address (`192.0.2.7`, `2001:db8::1`); nil for anything else, including names,
  /// ports, brackets and IPv6 zones.
  public init?(_ text: String) {
    guard !text.isEmpty, text.utf8.count <= 45,
      text.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == "." || $0 == ":" }),
      let socket = try? SocketAddress(ipAddress: text, port: 0)
    else { return nil }
    self.init(socket)
  }

  /// The address of an IPv4 or IPv6 socket; nil for a Unix domain socket.
  public init?(_ socket: SocketAddress) {
    switch socket {
    case .v4(let v4):
      var raw = v4.address.sin_addr
      self.init(bytes: withUnsafeBytes(of: &raw) { Array($0) })
    case .v6(let v6):
      var raw = v6.address.sin6_addr
      self.init(bytes: withUnsafeBytes(of: &raw) { Array($0) })
    case .unixDomainSocket:
      return nil
    }
  }

  init(bytes: [UInt8]) {
    if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff,
      bytes[11] == 0xff
    {
      self.bytes = Array(bytes[12...])
    } else {
      self.bytes = bytes
    }
  }

  public var isIPv4: Bool { bytes.count == 4 }

  /// The usual text: dotted IPv4, or IPv6 in its shortest form in lower case, so every
  /// spelling of one address is one key for the limits and one name in the logs.
  public var description: String {
    if isIPv4 { return bytes.map(String.init).joined(separator: ".") }
    var buffer = ByteBufferAllocator().buffer(capacity: 16)
    buffer.writeBytes(bytes)
    return (try? SocketAddress(packedIPAddress: buffer, port: 0))?.ipAddress ?? "unknown"
  }
}

/// The reverse proxies whose word about a request's client is believed
/// (`BACKOFFICE_TRUSTED_PROXIES`): addresses and CIDR blocks, IPv4 or IPv6. Empty by default,
/// and then no forwarding header is read at all.
public struct TrustedProxies: Sendable, Equatable {
  struct Block: Sendable, Equatable {
    var network: IPAddress
    var prefixLength: Int

    func contains(_ address: IPAddress) -> Bool {
      guard address.bytes.count == network.bytes.count else { return false }
      var left = prefixLength
      for (mine, theirs) in zip(network.bytes, address.bytes) where left > 0 {
        let bits = min(left, 8)
        let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
        if mine & mask != theirs & mask { return false }
        left -= bits
      }
      return true
    }
  }

  var blocks: [Block] = []

  public init() {}

  public var isEmpty: Bool { blocks.isEmpty }

  /// Reads a comma-separated list (`127.0.0.1, 10.0.0.0/8, fd00::/8`). Every entry that is
  /// not an address or a block is named in the error, so one start shows every mistake.
  public init(parsing list: String) throws(InvalidEntries) {
    var invalid: [String] = []
    for raw in list.split(separator: ",") {
      let entry = raw.trimmingCharacters(in: .whitespaces)
      guard !entry.isEmpty else { continue }
      if let block = Self.block(entry) {
        blocks.append(block)
      } else {
        invalid.append(entry)
      }
    }
    if !invalid.isEmpty { throw InvalidEntries(entries: invalid) }
  }

  public struct InvalidEntries: Error, Sendable {
    public var entries: [String]
  }

  /// `address` or `address/length`; the bits after the length are ignored. A length of 0 is
  /// refused: it would trust every client to name its own address.
  static func block(_ entry: String) -> Block? {
    let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count <= 2, let address = IPAddress(String(parts[0])) else { return nil }
    let width = address.bytes.count * 8
    guard parts.count == 2 else { return Block(network: address, prefixLength: width) }
    guard parts[1].count <= 3, parts[1].allSatisfy(\.isASCIIDigit), var length = Int(parts[1])
    else { return nil }
    // An IPv4-mapped IPv6 block (`::ffff:10.0.0.0/104`) is the IPv4 block it stands for.
    if address.isIPv4, parts[0].contains(":") {
      guard length >= 96 else { return nil }
      length -= 96
    }
    guard (1...width).contains(length) else { return nil }
    return Block(network: address, prefixLength: length)
  }

  public func contains(_ address: IPAddress) -> Bool {
    blocks.contains { $0.contains(address) }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
