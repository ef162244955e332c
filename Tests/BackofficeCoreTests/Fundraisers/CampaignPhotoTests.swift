import Foundation
import Testing

@testable import BackofficeCore

@Suite("Campaign photo rule", .ukrainian)
struct CampaignPhotoTests {
  /// The smallest PNG header ImageInfo accepts: signature and a 2×3 IHDR.
  static let png: [UInt8] =
    [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
    + [0, 0, 0, 2, 0, 0, 0, 3, 8, 2, 0, 0, 0]

  @Test func acceptsAPNGByItsBytes() throws {
    let info = try CampaignPhoto.validate(Self.png).get()
    #expect(info.kind == .png)
    #expect(info.dimensions == ImageDimensions(width: 2, height: 3))
  }

  @Test(arguments: [
    ([UInt8](), "Файл зображення порожній"),
    (Array("GIF89a not a photo".utf8), "Зображення має бути у форматі JPEG або PNG"),
    (
      [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0],
      "Файл зображення пошкоджений або неповний"
    ),
  ])
  func refusesWithUkrainianMessages(bytes: [UInt8], message: String) {
    guard case .failure(let error) = CampaignPhoto.validate(bytes) else {
      Issue.record("accepted \(bytes)")
      return
    }
    #expect(error.message == message)
  }

  @Test func sizeLimitIsSaidInUkrainian() {
    guard case .failure(let error) = CampaignPhoto.validate(Self.png, maxBytes: 20) else {
      Issue.record("a 29-byte photo passed a 20-byte limit")
      return
    }
    #expect(error.message == "Зображення має бути не більше 20\u{00A0}байтів")
    #expect(CampaignPhotoError.size(5 * 1_048_576) == "5\u{00A0}МБ")
    #expect(CampaignPhotoError.size(1_572_864) == "1,5\u{00A0}МБ")
    #expect(CampaignPhotoError.size(512 * 1024) == "512\u{00A0}КБ")
  }
}
