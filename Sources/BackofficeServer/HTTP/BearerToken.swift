import NIOHTTP1

extension HTTPHeaders {
  /// The token of an `Authorization: Bearer <token>` header, read as Vapor's
  /// `bearerAuthorization` reads it (the scheme in any case, spaces around and between the two
  /// words, nil for anything but exactly two words), without its split into an array, its
  /// lower-cased copy of the scheme and its `BearerAuthorization` value: every API call reads
  /// this first.
  var bearerToken: String? {
    guard let value = first(name: "authorization") else { return nil }
    let bytes = value.utf8
    let space = UInt8(ascii: " ")
    guard let schemeStart = bytes.firstIndex(where: { $0 != space }) else { return nil }
    let afterScheme = bytes[schemeStart...].firstIndex(of: space) ?? bytes.endIndex
    guard Self.isBearer(bytes[schemeStart..<afterScheme]),
      let tokenStart = bytes[afterScheme...].firstIndex(where: { $0 != space })
    else { return nil }
    let tokenEnd = bytes[tokenStart...].firstIndex(of: space) ?? bytes.endIndex
    // A third word makes it something else.
    guard !bytes[tokenEnd...].contains(where: { $0 != space }) else { return nil }
    return String(value[tokenStart..<tokenEnd])
  }

  private static func isBearer(_ scheme: Substring.UTF8View) -> Bool {
    guard scheme.count == 6 else { return false }
    // With the lower-case bit set, only the upper- and lower-case letter give each letter.
    return zip(scheme, "bearer".utf8).allSatisfy { byte, letter in (byte | 0x20) == letter }
  }
}
