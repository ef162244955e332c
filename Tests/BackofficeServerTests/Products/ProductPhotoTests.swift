import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

// One app at a time per suite: every test starts its own app with a database pool, and
// PostgreSQL allows only so many connections.
@Suite("Products: photos", .serialized)
struct ProductPhotoTests {
  @Test func aPNGNamedJpgIsStoredAsPNGAndServedWithCaching() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let png = ProductImages.png(width: 40, height: 30)
      let id = try await client.addProduct(
        name: "Renamed", photo: png, filename: "really-a-png.jpg", db: t.db)
      let photo = try #require(try await ProductPhoto.query(on: t.db).first())
      #expect(photo.mime == "image/png")
      #expect(photo.width == 40)
      #expect(photo.height == 30)
      #expect(photo.data == png)
      let etag = "\"\(sha256Hex(png))\""

      let page = try await client.get("/products")
      let src = try #require(
        page.firstMatch(#"<img src="(/products/[^"]+/photo\?v=[0-9a-f]{16})""#))
      #expect(src.hasPrefix("/products/\(id.uuidString.lowercased())/photo?v="))

      let versioned = try await client.get(src)
      #expect(versioned.status == .ok)
      #expect(versioned.headers.first(name: .contentType) == "image/png")
      #expect(versioned.headers.first(name: .eTag) == etag)
      #expect(
        versioned.headers.first(name: .cacheControl) == "private, max-age=31536000, immutable")
      #expect(versioned.headers.first(name: "X-Content-Type-Options") == "nosniff")

      let plain = try await client.get("/products/\(id.uuidString)/photo")
      #expect(plain.headers.first(name: .cacheControl) == "private, no-cache")
      let revalidated = try await client.get(
        "/products/\(id.uuidString)/photo", headers: ["If-None-Match": "W/\"x\", \(etag)"])
      #expect(revalidated.status == .notModified)
      #expect(revalidated.body.isEmpty)
      let changed = try await client.get(
        "/products/\(id.uuidString)/photo", headers: ["If-None-Match": "\"other\""])
      #expect(changed.status == .ok)
    }
  }

  @Test func aJPEGIsAccepted() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addProduct(
        name: "Shot", photo: ProductImages.jpeg(width: 9, height: 9), db: t.db)
      let photo = try #require(try await ProductPhoto.query(on: t.db).first())
      #expect(photo.mime == "image/jpeg")
      #expect(photo.width == 9)
    }
  }

  @Test(
    "files that are not JPEG or PNG are refused by their bytes",
    arguments: [
      (Data("just some text, honestly".utf8), "notes.png", ImageUploadError.unsupportedFormat),
      (Data("GIF89a......".utf8), "anim.jpg", ImageUploadError.unsupportedFormat),
      (
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]), "cut.png",
        ImageUploadError.unreadable
      ),
    ])
  func refusedFiles(data: Data, filename: String, error: ImageUploadError) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products/new")
      let response = try await client.postProductForm(
        "/products",
        [
          .text("name", "Bad photo"), .text("type", "x"), .text("price", "1"),
          .text("tax", "1"), .file("photo", data, filename: filename, type: "image/png"),
        ])
      #expect(response.status == .unprocessableEntity)
      #expect(response.productFieldError("photo") == error.message)
      #expect(response.productInputValue("name") == "Bad photo")
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  @Test func oversizePhotosAre413OnTheFormTheAPIAndSwipe() async throws {
    let smallLimit: (inout AppConfig) -> Void = { $0.maxUploadBytes = 1_024 }
    try await withApp(config: smallLimit) { t in
      let client = t.client()
      try await client.signUp()
      let big = ProductImages.png(padding: 2_000)
      let message = ImageUploadError.tooLarge(maxBytes: 1_024).message
      #expect(message == "The image must be at most 1 KB.")

      try await client.get("/products/new")
      let form = try await client.postProductForm(
        "/products",
        [
          .text("name", "Big"), .text("type", "x"), .text("price", "1"), .text("tax", "1"),
          .file("photo", big, filename: "big.png"),
        ])
      #expect(form.status == .payloadTooLarge)
      #expect(form.productFieldError("photo") == message)

      let token = try await client.createToken()
      let api = try await client.productAPI(
        .POST, "/api/v1/products", token: token,
        body: productJSON(name: "Big", extra: ["photo": big.base64EncodedString()]))
      #expect(api.status == .payloadTooLarge)
      #expect(api.productErrorCode == "payload_too_large")
      #expect(api.productErrorFields["photo"] == message)

      let boundary = "swipe-big"
      let swipe = try await client.send(
        .POST, "/api/public/add",
        headers: [
          "Authorization": "Bearer \(token)",
          "Content-Type": "multipart/form-data; boundary=\(boundary)",
        ],
        bytes: productMultipartBody(
          [
            .text("product_name", "Big"), .text("product_type", "x"), .text("price", "1"),
            .text("tax", "1"), .file("files[]", big, filename: "big.png"),
          ], boundary: boundary))
      #expect(swipe.status == .payloadTooLarge)
      #expect(try swipe.json()["success"] as? Bool == false)
      #expect(swipe.productErrorFields["files[]"] == message)

      // Far beyond every limit: refused before the handler with the same status.
      let huge = try await client.productAPI(
        .POST, "/api/v1/products", token: token,
        body: productJSON(name: "Huge", extra: ["photo": String(repeating: "A", count: 4_000_000)]))
      #expect(huge.status == .payloadTooLarge)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  /// The review's case at the default limit: a 6 MB photo from a form without JavaScript gets
  /// the form back with the message and every typed field, not a bare error page.
  @Test func aSixMegabytePhotoReturnsTheFormWithItsFields() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products/new")
      let form = try await client.postProductForm(
        "/products",
        [
          .text("name", "Typed name"), .text("type", "Goods"), .text("price", "12.50"),
          .text("tax", "20"),
          .file("photo", ProductImages.png(padding: 6_000_000), filename: "a.png"),
        ])
      #expect(form.status == .payloadTooLarge)
      #expect(form.productFieldError("photo") == "The image must be at most 5 MB.")
      #expect(form.productInputValue("name") == "Typed name")
      #expect(form.productInputValue("price") == "12.50")

      // Beyond four times the limit the body is not read at all.
      try await client.get("/products/new")
      let huge = try await client.postProductForm(
        "/products",
        [
          .text("name", "Huge"),
          .file("photo", ProductImages.png(padding: 22_000_000), filename: "b.png"),
        ])
      #expect(huge.status == .payloadTooLarge)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  @Test func apiPhotoUploadReplaceAndRemove() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.productAPI(
        .POST, "/api/v1/products", token: token,
        body: productJSON(
          name: "Pic",
          extra: ["photo": "data:image/png;base64," + ProductImages.png().base64EncodedString()]))
      let json = try created.json()
      let id = try #require(json["id"] as? String)
      let url = try #require(json["image_url"] as? String)
      #expect(url.hasPrefix("/api/v1/products/\(id.lowercased())/photo?v="))
      let photo = try await client.productAPI(.GET, url, token: token)
      #expect(photo.status == .ok)
      #expect(photo.headers.first(name: .contentType) == "image/png")

      let replaced = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token,
        body: productJSON(name: "Pic", extra: ["photo": ProductImages.jpeg().base64EncodedString()])
      )
      let newURL = try #require(try replaced.json()["image_url"] as? String)
      #expect(newURL != url)
      #expect(try await ProductPhoto.query(on: t.db).count() == 1)
      #expect(try await ProductPhoto.query(on: t.db).first()?.mime == "image/jpeg")

      let kept = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token, body: productJSON(name: "Pic 2"))
      #expect(try kept.json()["image_url"] as? String == newURL)

      let removed = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token,
        body: productJSON(name: "Pic 2", extra: ["remove_photo": true]))
      #expect(try removed.json()["image_url"] == nil || removed.json()["image_url"] is NSNull)
      #expect(try await ProductPhoto.query(on: t.db).count() == 0)
      #expect(
        try await client.productAPI(.GET, "/api/v1/products/\(id)/photo", token: token).status
          == .notFound)
    }
  }

  @Test func anotherAccountsPhotoIsNotFound() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addProduct(name: "Private", photo: ProductImages.png(), db: t.db)
      let etag = try #require(try await ProductRecord.find(id, on: t.db)?.photoETag)
      let version = PhotoResponse.version(etag)
      let intruder = t.client()
      try await intruder.signUp()
      let token = try await intruder.createToken()
      #expect(
        try await intruder.get("/products/\(id.uuidString)/photo?v=\(version)").status == .notFound)
      let api = try await intruder.productAPI(
        .GET, "/api/v1/products/\(id.uuidString)/photo?v=\(version)", token: token)
      #expect(api.status == .notFound)
      #expect(api.headers.first(name: .eTag) == nil)
      #expect(try await t.client().get("/products/\(id.uuidString)/photo").status == .seeOther)
    }
  }
}
