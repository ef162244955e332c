import Foundation

/// The fundraiser photo rule: the same bytes check as every upload (`ImageUpload`), with the
/// refusals worded in the interface language, sizes written the Ukrainian way ("1,5 MB").
public enum CampaignPhoto {
  /// The photo's format and size, or the reason it is refused.
  public static func validate(_ bytes: [UInt8], maxBytes: Int = ImageUpload.defaultMaxBytes)
    -> Result<ImageInfo, CampaignPhotoError>
  {
    switch ImageUpload.validate(Data(bytes), maxBytes: maxBytes) {
    case .success(let info): .success(info)
    case .failure(let error): .failure(CampaignPhotoError(error))
    }
  }
}

/// A refused fundraiser photo; `message` goes next to the photo field.
public struct CampaignPhotoError: Error, Hashable, Sendable {
  public let reason: ImageUploadError

  public init(_ reason: ImageUploadError) {
    self.reason = reason
  }

  public var message: String {
    switch reason {
    case .empty: L("fundraisers.photo_error.empty")
    case .tooLarge(let maxBytes):
      L("fundraisers.photo_error.too_large", ["size": Self.size(maxBytes)])
    case .unsupportedFormat: L("fundraisers.photo_error.unsupported_format")
    case .unreadable: L("fundraisers.photo_error.unreadable")
    case .tooManyPixels(let size):
      L(
        "fundraisers.photo_error.too_many_pixels",
        [
          "width": String(size.width), "height": String(size.height),
          "max": String(ImageUpload.maxSide),
        ])
    }
  }

  /// "5 МБ", "1,5 МБ", "512 КБ" (1 МБ = 1024 × 1024 байтів), with a no-break space; in English
  /// "5 MB", "1,5 MB", "512 KB" (the number written the Ukrainian way in both).
  public static func size(_ bytes: Int) -> String {
    let mebibyte = 1_048_576
    if bytes >= mebibyte {
      let tenths = (bytes * 10 + mebibyte / 2) / mebibyte
      let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10),\(tenths % 10)"
      return L("fundraisers.size.megabytes", ["size": number])
    }
    if bytes >= 1024 { return L("fundraisers.size.kilobytes", ["size": String(bytes / 1024)]) }
    return L("fundraisers.size.bytes", count: bytes)
  }
}
