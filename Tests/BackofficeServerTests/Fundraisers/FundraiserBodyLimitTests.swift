import BackofficeCore
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// A fundraiser sent as JSON with a photo over the upload limit, or a body over the route's
/// limit, is refused with 413 and the JSON error envelope, as platform.md says; nothing is
/// stored.
@Suite("Fundraisers JSON API: body limits")
struct FundraiserBodyLimitTests {
  static func smallUploads(_ config: inout AppConfig) { config.maxUploadBytes = 1_024 }

  @Test func aPhotoOverTheLimitIs413WithTheMessage() async throws {
    try await withApp(config: Self.smallUploads) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      var photo = FundraiserImages.png()
      photo.append(Data(repeating: 0, count: 2_000))
      let response = try await t.client().send(
        .POST, "/api/v1/fundraisers", headers: FundraiserAPITests.bearer(token),
        body: try FundraiserAPITests.body([
          "purpose": "На дрон", "template": 1, "photo": photo.base64EncodedString(),
        ]))
      #expect(response.status == .payloadTooLarge, "\(response.body)")
      let error = try #require(try response.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "payload_too_large")
      #expect(error["fields"] as? [String: String] != nil)
      #expect(try await FundraiserTable.query(on: t.db).count() == 0)
    }
  }

  @Test func aBodyOverTheRouteLimitIs413BeforeItIsRead() async throws {
    try await withApp(config: Self.smallUploads) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let limit = BodyLimits(maxUploadBytes: 1_024).bytes(.jsonWithPhoto)
      let purpose = String(repeating: "а", count: limit)
      let response = try await t.client().send(
        .POST, "/api/v1/fundraisers", headers: FundraiserAPITests.bearer(token),
        body: try FundraiserAPITests.body(["purpose": purpose, "template": 1]))
      #expect(response.status == .payloadTooLarge)
      let error = try #require(try response.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "payload_too_large")
      #expect(try await FundraiserTable.query(on: t.db).count() == 0)
    }
  }
}
