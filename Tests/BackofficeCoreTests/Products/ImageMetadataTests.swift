import Foundation
import Testing

@testable import BackofficeCore

/// Camera notes out of receipts: what a phone writes beside the picture must not reach a
/// public page, while the picture, its orientation and its colours stay.
@Suite("Image metadata")
struct ImageMetadataTests {
  static let gpsText = Array("GPS 50.4501N 30.5234E Kyiv home".utf8)

  /// An EXIF block (little-endian, as phones write it) with the orientation and a GPS pointer.
  static func exif(orientation: UInt16) -> [UInt8] {
    var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
    tiff += [2, 0]  // two entries
    tiff += [0x12, 0x01, 3, 0, 1, 0, 0, 0, UInt8(orientation), 0, 0, 0]  // orientation
    tiff += [0x25, 0x88, 4, 0, 1, 0, 0, 0, 38, 0, 0, 0]  // GPS IFD pointer
    tiff += [0, 0, 0, 0]
    tiff += gpsText
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }

  static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }

  /// A JPEG's structure: JFIF, EXIF, XMP, ICC, IPTC, a comment, a frame header and a scan.
  static func jpeg(orientation: UInt16 = 6) -> Data {
    var bytes: [UInt8] = [0xFF, 0xD8]
    bytes += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    bytes += exif(orientation: orientation)
    bytes += segment(
      0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x>home</x>".utf8))
    bytes += segment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 1, 7, 7])
    bytes += segment(0xED, Array("Photoshop 3.0".utf8) + [0] + Array("IPTC city".utf8))
    bytes += segment(0xFE, Array("taken at home".utf8))
    bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08, 0, 20, 0, 30, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    bytes += [0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 0x3F, 0, 0x12, 0x34, 0xFF, 0x00, 0x56]
    bytes += [0xFF, 0xD9]
    return Data(bytes)
  }

  static func contains(_ data: Data, _ text: String) -> Bool {
    data.range(of: Data(text.utf8)) != nil
  }

  @Test func aJPEGLosesPlaceDeviceAndTextButKeepsOrientationColoursAndPixels() throws {
    let original = Self.jpeg()
    let stripped = ImageMetadata.stripped(original)
    for secret in ["Kyiv", "<x>home</x>", "IPTC city", "taken at home"] {
      #expect(Self.contains(original, secret))
      #expect(!Self.contains(stripped, secret), "\(secret)")
    }
    #expect(Self.contains(stripped, "JFIF"))
    #expect(Self.contains(stripped, "ICC_PROFILE"))
    // The orientation block is the only EXIF left, and reads back as 6.
    let app1 = try #require(stripped.firstRange(of: Data([0xFF, 0xE1])))
    let payload = [UInt8](stripped[(app1.upperBound + 2)...].prefix(30))
    #expect(ImageMetadata.orientation(exif: payload) == 6)
    // The frame and scan are byte for byte the same, and the file still reads as the picture.
    let scan = Data([0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 0x3F, 0, 0x12, 0x34, 0xFF, 0x00, 0x56])
    #expect(stripped.range(of: scan) != nil)
    let info = try ImageUpload.validate(stripped).get()
    #expect(info.dimensions == ImageDimensions(width: 30, height: 20))
  }

  @Test func anUprightPhotoKeepsNoEXIFAtAll() {
    let stripped = ImageMetadata.stripped(Self.jpeg(orientation: 1))
    #expect(stripped.firstRange(of: Data([0xFF, 0xE1])) == nil)
    #expect(!Self.contains(stripped, "Exif"))
  }

  @Test func aPNGLosesItsTextChunksAndKeepsTheRest() throws {
    func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
      let length = UInt32(data.count)
      return [
        UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
        UInt8(length & 0xFF),
      ]
        + Array(kind.utf8) + data + [0, 0, 0, 0]
    }
    var bytes = ImageMetadata.pngSignature
    bytes += chunk("IHDR", [0, 0, 0, 4, 0, 0, 0, 3, 8, 2, 0, 0, 0])
    bytes += chunk("tEXt", Array("Location\0Kyiv".utf8))
    bytes += chunk("eXIf", Array("MM\0*GPS".utf8))
    bytes += chunk("iTXt", Array("Author\0\0\0\0\0Olena".utf8))
    bytes += chunk("IDAT", [1, 2, 3])
    bytes += chunk("IEND", [])
    let stripped = ImageMetadata.stripped(Data(bytes))
    for secret in ["Kyiv", "GPS", "Olena"] { #expect(!Self.contains(stripped, secret)) }
    #expect(Self.contains(stripped, "IHDR") && Self.contains(stripped, "IDAT"))
    #expect(
      try ImageUpload.validate(stripped).get().dimensions == ImageDimensions(width: 4, height: 3))
  }

  @Test(
    "what cannot be read with certainty comes back unchanged",
    arguments: [
      Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x00]),  // a segment longer than the file
      Data([0xFF, 0xD8, 0x00, 0x00]),  // no marker where one must be
      Data([0xFF, 0xD8]),  // nothing after the start
      Data(ImageMetadata.pngSignature + [0, 0, 0, 99]),  // a chunk cut short
      Data("GIF89a".utf8),
      Data(),
    ])
  func malformedInputIsLeftAsItIs(_ data: Data) {
    #expect(ImageMetadata.stripped(data) == data)
  }
}
