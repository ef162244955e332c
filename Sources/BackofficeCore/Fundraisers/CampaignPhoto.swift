import Foundation

/// The fundraiser photo rule: the same bytes check as every upload (`ImageUpload`), with the
/// refusals worded in Ukrainian like the rest of this area.
public enum CampaignPhoto {
  /// The photo's format and size, or the Ukrainian reason it is refused.
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
    case .empty: "Файл зображення порожній"
    case .tooLarge(let maxBytes): "Зображення має бути не більше \(Self.size(maxBytes))"
    case .unsupportedFormat: "Зображення має бути у форматі JPEG або PNG"
    case .unreadable: "Файл зображення пошкоджений або неповний"
    case .tooManyPixels(let size):
      "Зображення має \(size.width)\u{00A0}×\u{00A0}\(size.height) пікселів; можна щонайбільше "
        + "\(ImageUpload.maxSide)\u{00A0}×\u{00A0}\(ImageUpload.maxSide)"
    }
  }

  /// "5 МБ", "1,5 МБ", "512 КБ" (1 МБ = 1024 × 1024 байтів), with a no-break space.
  public static func size(_ bytes: Int) -> String {
    let mebibyte = 1_048_576
    if bytes >= mebibyte {
      let tenths = (bytes * 10 + mebibyte / 2) / mebibyte
      let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10),\(tenths % 10)"
      return number + "\u{00A0}МБ"
    }
    if bytes >= 1024 { return "\(bytes / 1024)\u{00A0}КБ" }
    return "\(bytes)\u{00A0}байтів"
  }
}
