import Foundation

/// The image formats uploads may have, recognised by their first bytes (never by file name or
/// declared content type: a PNG named `photo.jpg` is a PNG).
public enum ImageKind: String, CaseIterable, Hashable, Sendable, Codable {
  case jpeg
  case png

  public var mimeType: String {
    switch self {
    case .jpeg: "image/jpeg"
    case .png: "image/png"
    }
  }

  public var fileExtension: String {
    switch self {
    case .jpeg: "jpg"
    case .png: "png"
    }
  }

  /// The format announced by the file signature, or nil for anything else.
  public static func detect(_ bytes: [UInt8]) -> ImageKind? {
    bytes.withUnsafeBytes { ImageBytes($0).kind }
  }

  /// The format announced by the file signature, or nil for anything else.
  public static func detect(_ data: Data) -> ImageKind? {
    data.withUnsafeBytes { ImageBytes($0).kind }
  }
}

/// Width and height in pixels, as stored in the file.
public struct ImageDimensions: Hashable, Sendable, Codable {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}

/// What an image file's header says: its format and size.
public struct ImageInfo: Hashable, Sendable {
  public var kind: ImageKind
  public var dimensions: ImageDimensions

  public init(kind: ImageKind, dimensions: ImageDimensions) {
    self.kind = kind
    self.dimensions = dimensions
  }

  /// The format and size, or nil when the bytes are not a JPEG or PNG whose header can be read
  /// (unknown format, truncated header, garbage after the signature, zero width or height).
  /// Never traps, whatever the input.
  public static func read(_ bytes: [UInt8]) -> ImageInfo? {
    bytes.withUnsafeBytes { ImageBytes($0).info }
  }

  /// See `read(_:)` for `[UInt8]`.
  public static func read(_ data: Data) -> ImageInfo? {
    data.withUnsafeBytes { ImageBytes($0).info }
  }
}

/// Why an uploaded image is refused.
public enum ImageUploadError: Error, Hashable, Sendable {
  case empty
  case tooLarge(maxBytes: Int)
  case unsupportedFormat
  case unreadable
  /// The header declares more pixels a side than any photo needs: a small file like that is
  /// made to exhaust the memory of whoever decodes it.
  case tooManyPixels(ImageDimensions)

  public var message: String {
    switch self {
    case .empty: L("products.image.empty")
    case .tooLarge(let maxBytes): L("products.image.too_large", ["size": Self.size(maxBytes)])
    case .unsupportedFormat: L("products.image.unsupported_format")
    case .unreadable: L("products.image.unreadable")
    case .tooManyPixels(let size):
      L(
        "products.image.too_many_pixels",
        [
          "width": String(size.width), "height": String(size.height),
          "max": String(ImageUpload.maxSide),
        ])
    }
  }

  /// "5 MB", "512 KB", "1.5 MB" (1 MB = 1024 × 1024 bytes).
  public static func size(_ bytes: Int) -> String {
    let mebibyte = 1_048_576
    if bytes >= mebibyte {
      let tenths = (bytes * 10 + mebibyte / 2) / mebibyte
      let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
      return L("products.image.size_mb", ["size": number])
    }
    if bytes >= 1024 { return L("products.image.size_kb", ["size": String(bytes / 1024)]) }
    return L("products.image.size_bytes", count: bytes)
  }
}

/// The upload rule for product (and other) photos: JPEG or PNG by content, at most a size.
public enum ImageUpload {
  /// 5 MB, the default limit of the `Uploads` setting.
  public static let defaultMaxBytes = 5 * 1_048_576
  /// The most pixels either side may declare (a 12 000 × 12 000 photo is 144 megapixels).
  public static let maxSide = 12_000

  /// The image's format and size, or why it is refused (checked in this order: empty, too
  /// large, not JPEG/PNG, header unreadable, too many pixels).
  public static func validate(_ data: Data, maxBytes: Int = defaultMaxBytes)
    -> Result<ImageInfo, ImageUploadError>
  {
    guard !data.isEmpty else { return .failure(.empty) }
    guard data.count <= maxBytes else { return .failure(.tooLarge(maxBytes: maxBytes)) }
    guard ImageKind.detect(data) != nil else { return .failure(.unsupportedFormat) }
    guard let info = ImageInfo.read(data) else { return .failure(.unreadable) }
    guard info.dimensions.width <= maxSide, info.dimensions.height <= maxSide else {
      return .failure(.tooManyPixels(info.dimensions))
    }
    return .success(info)
  }
}

/// Bounds-checked reading of an image header. Every read returns nil past the end, so a
/// truncated or hostile file can only lead to "unreadable".
private struct ImageBytes {
  let buffer: UnsafeRawBufferPointer

  init(_ buffer: UnsafeRawBufferPointer) {
    self.buffer = buffer
  }

  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

  var kind: ImageKind? {
    if starts(with: Self.pngSignature) { return .png }
    if starts(with: Self.jpegSignature) { return .jpeg }
    return nil
  }

  var info: ImageInfo? {
    switch kind {
    case .png: pngDimensions.map { ImageInfo(kind: .png, dimensions: $0) }
    case .jpeg: jpegDimensions.map { ImageInfo(kind: .jpeg, dimensions: $0) }
    case nil: nil
    }
  }

  private func starts(with signature: [UInt8]) -> Bool {
    buffer.count >= signature.count && zip(buffer, signature).allSatisfy { $0 == $1 }
  }

  private func byte(_ offset: Int) -> UInt8? {
    offset >= 0 && offset < buffer.count ? buffer[offset] : nil
  }

  private func uint16(_ offset: Int) -> Int? {
    guard let high = byte(offset), let low = byte(offset + 1) else { return nil }
    return Int(high) << 8 | Int(low)
  }

  private func uint32(_ offset: Int) -> Int? {
    guard let high = uint16(offset), let low = uint16(offset + 2) else { return nil }
    return high << 16 | low
  }

  /// PNG: the first chunk must be a complete IHDR (length 13), holding width and height
  /// (1…2³¹−1).
  private var pngDimensions: ImageDimensions? {
    guard buffer.count >= 8 + 8 + 13, uint32(8) == 13, uint32(12) == 0x4948_4452,  // "IHDR"
      let width = uint32(16), let height = uint32(20),
      (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height)
    else { return nil }
    return ImageDimensions(width: width, height: height)
  }

  /// JPEG: walk the marker segments after SOI until a start-of-frame (SOF0–SOF15 except DHT,
  /// JPG and DAC), which holds height and width. Scan data or the end of the image before a
  /// frame header means the file is not usable.
  private var jpegDimensions: ImageDimensions? {
    var offset = 2
    while offset < buffer.count {
      guard byte(offset) == 0xFF else { return nil }
      // Any number of 0xFF fill bytes may precede a marker.
      var markerOffset = offset + 1
      while byte(markerOffset) == 0xFF { markerOffset += 1 }
      guard let marker = byte(markerOffset) else { return nil }
      offset = markerOffset + 1

      switch marker {
      case 0x01, 0xD0...0xD8:
        continue  // Stand-alone markers: no length.
      case 0x00, 0xD9, 0xDA:
        return nil  // Stuffed byte out of place, end of image, or scan before any frame.
      default:
        guard let length = uint16(offset), length >= 2 else { return nil }
        if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
          // Segment: length(2) precision(1) height(2) width(2) components(1) …, all present.
          guard length >= 8, offset + length <= buffer.count,
            let height = uint16(offset + 3), let width = uint16(offset + 5), height > 0, width > 0
          else { return nil }
          return ImageDimensions(width: width, height: height)
        }
        offset += length
      }
    }
    return nil
  }
}
