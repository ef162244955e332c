import Foundation
import Testing

@testable import BackofficeCore

@Suite("ImageKind")
struct ImageKindTests {
  /// A real 3×2 PNG.
  static let png: [UInt8] = [
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D,
    0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02,
    0x08, 0x02, 0x00, 0x00, 0x00, 0x12, 0x16, 0xF1, 0x4D, 0x00, 0x00, 0x00,
    0x15, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x3C, 0x21, 0x27, 0xC7,
    0xC0, 0xC0, 0xC0, 0xC0, 0xC0, 0xC0, 0xC4, 0x00, 0x03, 0x00, 0x13, 0x2E,
    0x01, 0x08, 0x6A, 0xC0, 0x65, 0x61, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
  ]

  /// The head of a real 3×2 baseline JPEG, up to and including its frame header.
  static let jpegHead: [UInt8] = [
    0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01,
    0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43,
    0x00, 0x10, 0x0B, 0x0C, 0x0E, 0x0C, 0x0A, 0x10, 0x0E, 0x0D, 0x0E, 0x12,
    0x11, 0x10, 0x13, 0x18, 0x28, 0x1A, 0x18, 0x16, 0x16, 0x18, 0x31, 0x23,
    0x25, 0x1D, 0x28, 0x3A, 0x33, 0x3D, 0x3C, 0x39, 0x33, 0x38, 0x37, 0x40,
    0x48, 0x5C, 0x4E, 0x40, 0x44, 0x57, 0x45, 0x37, 0x38, 0x50, 0x6D, 0x51,
    0x57, 0x5F, 0x62, 0x67, 0x68, 0x67, 0x3E, 0x4D, 0x71, 0x79, 0x70, 0x64,
    0x78, 0x5C, 0x65, 0x67, 0x63, 0xFF, 0xDB, 0x00, 0x43, 0x01, 0x11, 0x12,
    0x12, 0x18, 0x15, 0x18, 0x2F, 0x1A, 0x1A, 0x2F, 0x63, 0x42, 0x38, 0x42,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63, 0x63,
    0x63, 0x63, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x03, 0x03,
    0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
  ]

  /// A JPEG made of the given segments between SOI and a scan.
  static func jpeg(_ segments: [[UInt8]]) -> [UInt8] {
    [0xFF, 0xD8] + segments.flatMap { $0 } + [0xFF, 0xDA, 0x00, 0x02, 0x00, 0xFF, 0xD9]
  }

  static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }

  static func frame(_ marker: UInt8 = 0xC0, width: Int, height: Int) -> [UInt8] {
    segment(
      marker,
      [
        0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
        0x01,
        0x01, 0x11, 0x00,
      ])
  }

  static let jfif = segment(
    0xE0, Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00])

  @Test func detectsByBytesNotByName() {
    #expect(ImageKind.detect(Self.png) == .png)
    #expect(ImageKind.detect(Data(Self.png)) == .png)
    #expect(ImageKind.detect(Self.jpegHead) == .jpeg)
    #expect(ImageKind.detect(Data(Self.jpegHead)) == .jpeg)
    // A PNG saved as "photo.jpg" is still a PNG: there is no name to be fooled by.
    #expect(ImageInfo.read(Data(Self.png))?.kind == .png)
  }

  @Test(
    "not images",
    arguments: [
      Array("hello, this is a text file\n".utf8),
      Array("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>".utf8),
      Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00],
      Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8),
      [0x25, 0x50, 0x44, 0x46, 0x2D],  // %PDF-
      [],
      [0x89, 0x50, 0x4E, 0x47],  // half a PNG signature
      [0xFF, 0xD8],  // SOI without a marker after it
      [0x00, 0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],  // signature not at the start
    ])
  func notImages(_ bytes: [UInt8]) {
    #expect(ImageKind.detect(bytes) == nil)
    #expect(ImageInfo.read(bytes) == nil)
  }

  @Test func readsDimensions() {
    #expect(
      ImageInfo.read(Self.png) == ImageInfo(kind: .png, dimensions: .init(width: 3, height: 2)))
    #expect(
      ImageInfo.read(Self.jpegHead)
        == ImageInfo(kind: .jpeg, dimensions: .init(width: 3, height: 2)))
    let large = Self.jpeg([Self.jfif, Self.frame(width: 4032, height: 3024)])
    #expect(ImageInfo.read(large)?.dimensions == ImageDimensions(width: 4032, height: 3024))
  }

  @Test(
    "JPEG frame markers",
    arguments: [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]
      as [UInt8])
  func frameMarkers(_ marker: UInt8) {
    let bytes = Self.jpeg([Self.jfif, Self.frame(marker, width: 640, height: 480)])
    #expect(ImageInfo.read(bytes)?.dimensions == ImageDimensions(width: 640, height: 480))
  }

  @Test func jpegSegmentsAreWalkedNotSearched() {
    // An Exif segment whose payload contains a fake frame header must be skipped whole, and
    // DHT (C4), JPG (C8) and DAC (CC) are not frame headers.
    let fake: [UInt8] = [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x01, 0x00, 0x01]
    let bytes = Self.jpeg([
      Self.segment(0xE1, Array("Exif".utf8) + [0, 0] + fake),
      Self.segment(0xC4, [0x00] + Array(repeating: 0x01, count: 16)),
      Self.segment(0xC8, [0x00]),
      Self.segment(0xCC, [0x00, 0x00]),
      Self.frame(width: 800, height: 600),
    ])
    #expect(ImageInfo.read(bytes)?.dimensions == ImageDimensions(width: 800, height: 600))
  }

  @Test func jpegFillBytesAndStandaloneMarkers() {
    let bytes: [UInt8] =
      [0xFF, 0xD8, 0xFF, 0xFF, 0xFF] + Array(Self.jfif.dropFirst())  // fill bytes before APP0
      + [0xFF, 0x01, 0xFF, 0xD0]  // TEM and RST0 carry no length
      + Self.frame(width: 10, height: 20)
    #expect(ImageInfo.read(bytes)?.dimensions == ImageDimensions(width: 10, height: 20))
  }

  @Test(
    "unusable JPEG headers",
    arguments: [
      // End of image or scan before any frame header.
      [0xFF, 0xD8, 0xFF, 0xD9],
      jpeg([jfif]),
      // Zero width or height (height defined later by DNL: not supported for uploads).
      jpeg([frame(width: 0, height: 10)]),
      jpeg([frame(width: 10, height: 0)]),
      // Segment lengths that cannot be right.
      [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00],
      [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xC0],
      [0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0x00],
      [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x05, 0x08, 0x00, 0x02, 0x00, 0x03],
      // Garbage where a marker should be.
      [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34],
      [0xFF, 0xD8, 0xFF, 0x00, 0x00, 0x00],
      [0xFF, 0xD8] + Array(repeating: 0xFF, count: 64),
    ] as [[UInt8]])
  func unusableJPEG(_ bytes: [UInt8]) {
    #expect(ImageKind.detect(bytes) == .jpeg)
    #expect(ImageInfo.read(bytes) == nil)
  }

  @Test(
    "unusable PNG headers",
    arguments: [
      // IHDR not first, wrong length, zero or oversized dimensions.
      Array(png.prefix(8)) + [0, 0, 0, 13] + Array("IDAT".utf8) + Array(png[16...]),
      Array(png.prefix(8)) + [0, 0, 0, 12] + Array("IHDR".utf8) + Array(png[16...]),
      Array(png.prefix(16)) + [0, 0, 0, 0, 0, 0, 0, 2] + Array(png[24...]),
      Array(png.prefix(16)) + [0, 0, 0, 3, 0, 0, 0, 0] + Array(png[24...]),
      Array(png.prefix(16)) + [0x80, 0, 0, 0, 0, 0, 0, 2] + Array(png[24...]),
    ] as [[UInt8]])
  func unusablePNG(_ bytes: [UInt8]) {
    #expect(ImageKind.detect(bytes) == .png)
    #expect(ImageInfo.read(bytes) == nil)
  }

  @Test func everyTruncationIsHandled() {
    // PNG needs its signature and a complete IHDR (29 bytes); the JPEG head ends with the
    // frame header, which must be complete.
    for length in 0...Self.png.count {
      let info = ImageInfo.read(Array(Self.png.prefix(length)))
      #expect((info != nil) == (length >= 29), "PNG cut at \(length)")
    }
    for length in 0...Self.jpegHead.count {
      let info = ImageInfo.read(Data(Self.jpegHead.prefix(length)))
      #expect((info != nil) == (length == Self.jpegHead.count), "JPEG cut at \(length)")
    }
  }

  @Test func garbageAfterSignaturesNeverTraps() {
    // A fixed-seed generator, so a failure can be reproduced.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt8 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    for round in 0..<5_000 {
      let length = Int(next()) + Int(next()) % 64
      var bytes = (0..<length).map { _ in next() }
      // Bias toward markers so the segment walker gets exercised.
      for index in bytes.indices where next() < 64 { bytes[index] = 0xFF }
      let head = round.isMultiple(of: 2) ? Self.png.prefix(8) : [0xFF, 0xD8, 0xFF]
      let input = Array(head) + bytes
      _ = ImageInfo.read(input)
      _ = ImageInfo.read(Data(input).dropFirst(0))
      #expect(ImageKind.detect(input) != nil)
    }
  }

  @Test func worksOnDataSlices() {
    let data = Data([0x00, 0x01] + Self.png)
    let slice = data.dropFirst(2)  // indices start at 2
    #expect(ImageKind.detect(slice) == .png)
    #expect(ImageInfo.read(slice)?.dimensions == ImageDimensions(width: 3, height: 2))
  }

  @Test func mimeTypesAndExtensions() {
    #expect(ImageKind.jpeg.mimeType == "image/jpeg")
    #expect(ImageKind.png.mimeType == "image/png")
    #expect(ImageKind.jpeg.fileExtension == "jpg")
    #expect(ImageKind.png.fileExtension == "png")
  }
}

@Suite("ImageUpload")
struct ImageUploadTests {
  @Test func acceptsJPEGAndPNG() {
    #expect(
      ImageUpload.validate(Data(ImageKindTests.png))
        == .success(
          ImageInfo(kind: .png, dimensions: .init(width: 3, height: 2))))
    #expect((try? ImageUpload.validate(Data(ImageKindTests.jpegHead)).get())?.kind == .jpeg)
  }

  @Test func refusals() {
    #expect(ImageUpload.validate(Data()) == .failure(.empty))
    #expect(ImageUpload.validate(Data("just text".utf8)) == .failure(.unsupportedFormat))
    #expect(ImageUpload.validate(Data(ImageKindTests.png.prefix(20))) == .failure(.unreadable))
    let big = Data(ImageKindTests.png + [UInt8](repeating: 0, count: 100))
    #expect(ImageUpload.validate(big, maxBytes: 100) == .failure(.tooLarge(maxBytes: 100)))
    #expect(
      ImageUpload.validate(big, maxBytes: big.count) != .failure(.tooLarge(maxBytes: big.count)))
  }

  /// A PNG header declaring `width` × `height` (the pixel data need not exist to be refused).
  static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
    func bytes(_ value: UInt32) -> [UInt8] {
      [
        UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
        UInt8(value & 0xFF),
      ]
    }
    return Array(ImageKindTests.png.prefix(16)) + bytes(width) + bytes(height)
      + Array(ImageKindTests.png.dropFirst(24))
  }

  @Test func declaredSizeIsLimitedPerSide() {
    let largest = Data(Self.pngHeader(width: 12_000, height: 12_000))
    #expect(
      (try? ImageUpload.validate(largest).get())?.dimensions == .init(width: 12_000, height: 12_000)
    )
    let wide = Data(Self.pngHeader(width: 12_001, height: 10))
    #expect(
      ImageUpload.validate(wide) == .failure(.tooManyPixels(.init(width: 12_001, height: 10))))
    let bomb = Data(Self.pngHeader(width: 100_000, height: 100_000))
    guard case .failure(let error) = ImageUpload.validate(bomb) else {
      Issue.record("a 100 000 × 100 000 header was accepted")
      return
    }
    #expect(
      error.message == "The image is 100000 × 100000 pixels; it may be at most 12000 × 12000.")
    guard
      case .failure(let ukrainian) = CampaignPhoto.validate(
        Self.pngHeader(width: 20_000, height: 20))
    else {
      Issue.record("a 20 000 px wide fundraiser photo was accepted")
      return
    }
    // The fundraisers' own rule, in the words of the Ukrainian original.
    #expect(
      UILanguage.$current.withValue(.uk) { ukrainian.message }
        == "Зображення має 20000\u{00A0}×\u{00A0}20 пікселів; можна щонайбільше "
        + "12000\u{00A0}×\u{00A0}12000")
  }

  @Test func defaultLimitIsFiveMegabytes() {
    #expect(ImageUpload.defaultMaxBytes == 5_242_880)
    let justOver = Data(ImageKindTests.png + [UInt8](repeating: 0, count: 5_242_880))
    #expect(ImageUpload.validate(justOver) == .failure(.tooLarge(maxBytes: 5_242_880)))
  }

  @Test func messages() {
    #expect(
      ImageUploadError.tooLarge(maxBytes: 5_242_880).message == "The image must be at most 5 MB.")
    #expect(
      ImageUploadError.tooLarge(maxBytes: 1_572_864).message == "The image must be at most 1.5 MB.")
    #expect(
      ImageUploadError.tooLarge(maxBytes: 512 * 1024).message == "The image must be at most 512 KB."
    )
    #expect(ImageUploadError.unsupportedFormat.message == "The image must be a JPEG or PNG file.")
  }
}
