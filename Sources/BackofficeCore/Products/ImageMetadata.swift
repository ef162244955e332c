import Foundation

/// Takes out of a JPEG or PNG what a camera writes beside the picture: EXIF (the place it was
/// taken, the phone, the time), XMP, IPTC, comments and PNG text chunks. A phone photo of a
/// receipt would otherwise tell everyone who opens it where the volunteer lives.
///
/// Only the orientation survives (as a minimal EXIF block), so a photo taken upright still shows
/// upright; the colour profile (APP2) and the Adobe colour-transform block (APP14) stay too. The
/// pixels are not touched. Anything that cannot be read with certainty comes back unchanged, and
/// the caller checks the result like any upload.
public enum ImageMetadata {
  /// The bytes without their metadata; `data` itself when it is neither JPEG nor PNG or is not
  /// well formed.
  public static func stripped(_ data: Data) -> Data {
    let bytes = [UInt8](data)
    if bytes.starts(with: [0xFF, 0xD8]) { return strippedJPEG(bytes).map { Data($0) } ?? data }
    if bytes.starts(with: pngSignature) { return strippedPNG(bytes).map { Data($0) } ?? data }
    return data
  }

  // MARK: JPEG

  /// Segments kept: JFIF (APP0), the ICC profile (APP2), Adobe (APP14) and everything that is
  /// not an application or comment segment (tables, frame, scan).
  static func strippedJPEG(_ bytes: [UInt8]) -> [UInt8]? {
    var out: [UInt8] = [0xFF, 0xD8]
    var position = 2
    while position + 1 < bytes.count {
      guard bytes[position] == 0xFF else { return nil }
      let marker = bytes[position + 1]
      if marker == 0xFF {  // fill byte before a marker
        position += 1
        continue
      }
      if marker == 0xD9 || marker == 0xDA {
        // End of image, or the scan: entropy-coded data follows, with nothing to strip.
        out += bytes[position...]
        return out
      }
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        out += [0xFF, marker]
        position += 2
        continue
      }
      guard position + 3 < bytes.count else { return nil }
      let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
      let end = position + 2 + length
      guard length >= 2, end <= bytes.count else { return nil }
      let payload = Array(bytes[(position + 4)..<end])
      switch marker {
      case 0xE1:
        if let orientation = orientation(exif: payload), orientation != 1 {
          out += orientationSegment(orientation)
        }
      case 0xE0, 0xE2, 0xEE:
        out += bytes[position..<end]
      case 0xE3...0xEF, 0xFE:
        break  // other application blocks (IPTC in APP13, makers' notes) and comments
      default:
        out += bytes[position..<end]
      }
      position = end
    }
    return nil
  }

  /// The EXIF orientation (1–8) in an APP1 payload, if it has one.
  static func orientation(exif payload: [UInt8]) -> UInt16? {
    let header: [UInt8] = Array("Exif".utf8) + [0, 0]
    guard payload.starts(with: header) else { return nil }
    let tiff = Array(payload.dropFirst(header.count))
    guard tiff.count >= 8 else { return nil }
    let big: Bool
    switch (tiff[0], tiff[1]) {
    case (0x4D, 0x4D): big = true
    case (0x49, 0x49): big = false
    default: return nil
    }
    func u16(_ at: Int) -> Int? {
      guard at >= 0, at + 1 < tiff.count else { return nil }
      return big ? Int(tiff[at]) << 8 | Int(tiff[at + 1]) : Int(tiff[at + 1]) << 8 | Int(tiff[at])
    }
    func u32(_ at: Int) -> Int? {
      guard let high = u16(big ? at : at + 2), let low = u16(big ? at + 2 : at) else { return nil }
      return high << 16 | low
    }
    guard let ifd = u32(4), let count = u16(ifd) else { return nil }
    for entry in 0..<count {
      let at = ifd + 2 + entry * 12
      guard let tag = u16(at) else { return nil }
      if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) {
        return UInt16(value)
      }
    }
    return nil
  }

  /// An APP1 segment whose EXIF holds the orientation and nothing else.
  static func orientationSegment(_ orientation: UInt16) -> [UInt8] {
    var payload: [UInt8] = Array("Exif".utf8) + [0, 0]
    payload += [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8]  // big-endian TIFF, IFD0 right after
    payload += [0, 1]  // one entry
    payload += [
      0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0,
    ]
    payload += [0, 0, 0, 0]  // no next IFD
    let length = payload.count + 2
    return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }

  // MARK: PNG

  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Text chunks and EXIF left out; every other chunk kept as it is.
  static let droppedPNGChunks: Set<String> = ["tEXt", "iTXt", "zTXt", "eXIf"]

  static func strippedPNG(_ bytes: [UInt8]) -> [UInt8]? {
    var out = pngSignature
    var position = pngSignature.count
    while position < bytes.count {
      guard position + 8 <= bytes.count else { return nil }
      let length =
        Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16
        | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
      let end = position + 12 + length
      guard length >= 0, end <= bytes.count else { return nil }
      let kind = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
      if !droppedPNGChunks.contains(kind) { out += bytes[position..<end] }
      position = end
      if kind == "IEND" { return out }
    }
    return nil
  }
}
