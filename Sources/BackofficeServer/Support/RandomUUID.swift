import Foundation

extension UUID {
  /// A new random id (version 4, RFC 9562), as `UUID.random()` makes, from the system's generator.
  ///
  /// On Linux Foundation's `UUID.random()` opens, reads and closes `/dev/urandom` for every id; a
  /// product creation makes three, and the three system calls cost more than the rest of the
  /// id. `SystemRandomNumberGenerator` asks the kernel with one `getrandom` call.
  static func random() -> UUID {
    var generator = SystemRandomNumberGenerator()
    var high = generator.next() as UInt64
    var low = generator.next() as UInt64
    // Version 4 in the top bits of byte 6, variant 10 in the top bits of byte 8.
    high = (high & ~0x0000_0000_0000_F000) | 0x0000_0000_0000_4000
    low = (low & ~0xC000_0000_0000_0000) | 0x8000_0000_0000_0000
    return withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { bytes in
      UUID(
        uuid: (
          bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
          bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        ))
    }
  }
}
