import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

// One app at a time per suite: every test starts its own app with a database pool, and
// PostgreSQL allows only so many connections.
@Suite("Products: Swipe-compatible API", .serialized)
struct SwipeCompatibleAPITests {
  @discardableResult
  static func add(
    _ client: TestClient, token: String?, _ parts: [ProductPart], headers extra: HTTPHeaders = [:]
  ) async throws -> TestResponse {
    let boundary = "swipe-\(UUID().uuidString)"
    var headers = extra
    headers.replaceOrAdd(name: .contentType, value: "multipart/form-data; boundary=\(boundary)")
    if let token { headers.replaceOrAdd(name: .authorization, value: "Bearer \(token)") }
    headers.replaceOrAdd(name: .host, value: "shop.example:8080")
    return try await client.send(
      .POST, "/api/public/add", headers: headers,
      bytes: productMultipartBody(parts, boundary: boundary))
  }

  static let fields: [ProductPart] = [
    .text("product_name", "Testing app"), .text("product_type", "Product"),
    .text("price", "5800"), .text("tax", "10"),
  ]

  @Test func addAnswersWithSwipesExactBody() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let response = try await Self.add(client, token: token, Self.fields)
      #expect(response.status == .ok)
      #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8")
      #expect(
        response.body
          == #"{"message": "Product added Successfully!", "product_details": {"image": "", "price": 5800.0, "product_name": "Testing app", "product_type": "Product", "tax": 10.0}, "product_id": 1, "success": true}"#
      )
      let second = try await Self.add(
        client, token: token,
        [
          .text("product_name", "Nord \"CE\" 3"), .text("product_type", "Phone"),
          .text("price", "1694.92"), .text("tax", "18.5"),
        ])
      #expect(second.body.contains(#""product_id": 2"#))
      #expect(second.body.contains(#""price": 1694.92"#))
      #expect(second.body.contains(#""product_name": "Nord \"CE\" 3""#))
      #expect(second.body.contains(#""tax": 18.5"#))
    }
  }

  @Test func getListsTheCatalogInSwipesExactShape() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await Self.add(client, token: token, Self.fields)
      let png = ProductImages.png()
      try await Self.add(
        client, token: token,
        [
          .text("product_name", "Камера"), .text("product_type", "Service"),
          .text("price", "12.5"), .text("tax", "0"),
          .file("files[]", png, filename: "photo.jpg", type: "image/jpeg"),
        ])
      let record = try #require(
        try await ProductRecord.query(on: t.db).filter(\.$number == 2).first())
      let id = try #require(record.id).uuidString.lowercased()
      let version = PhotoResponse.version(sha256Hex(png))

      let response = try await client.send(
        .GET, "/api/public/get",
        headers: ["Authorization": "Bearer \(token)", "Host": "shop.example:8080"])
      #expect(response.status == .ok)
      #expect(response.headers.first(name: .contentType) == "application/json; charset=utf-8")
      #expect(
        response.body
          == "[{\"image\": \"\", \"price\": 5800.0, \"product_name\": \"Testing app\", "
          + "\"product_type\": \"Product\", \"tax\": 10.0}, "
          + "{\"image\": \"http://shop.example:8080/api/v1/products/\(id)/photo?v=\(version)\", "
          + "\"price\": 12.5, \"product_name\": \"Камера\", \"product_type\": \"Service\", "
          + "\"tax\": 0.0}]")
      // A Swipe client reads it with its own model.
      let decoded = try JSONDecoder().decode([SwipeProduct].self, from: Data(response.body.utf8))
      #expect(decoded.map(\.productName) == ["Testing app", "Камера"])

      let image = try await client.send(
        .GET, "/api/v1/products/\(id)/photo?v=\(version)",
        headers: ["Authorization": "Bearer \(token)"])
      #expect(image.status == .ok)
      #expect(image.headers.first(name: .contentType) == "image/png")

      let proxied = try await client.send(
        .GET, "/api/public/get",
        headers: [
          "Authorization": "Bearer \(token)", "Host": "shop.example", "X-Forwarded-Proto": "https",
        ])
      // Without BACKOFFICE_PUBLIC_URL the address is the one the client reached; a scheme
      // announced by anyone but a trusted proxy is ignored.
      #expect(proxied.body.contains("http://shop.example/api/v1/products/\(id)/photo"))
    }
  }

  @Test func refusedAddsKeepSwipesKeysAndCarryTheErrorEnvelope() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let response = try await Self.add(
        client, token: token,
        [
          .text("product_name", " "), .text("product_type", "Product"), .text("price", "abc"),
          .file("files[]", Data("not an image".utf8), filename: "x.jpg"),
        ])
      #expect(response.status == .unprocessableEntity)
      let json = try response.json()
      #expect(json["success"] as? Bool == false)
      #expect(json["message"] as? String == ProductMessage.nameBlank)
      #expect(response.productErrorCode == "validation_failed")
      #expect(
        response.productErrorFields == [
          "product_name": ProductMessage.nameBlank, "price": ProductMessage.priceNotANumber,
          "tax": ProductMessage.taxMissing, "files[]": ImageUploadError.unsupportedFormat.message,
        ])
      #expect(try await ProductRecord.query(on: t.db).count() == 0)

      let notMultipart = try await client.productAPI(
        .POST, "/api/public/add", token: token, body: "[1, 2]")
      #expect(notMultipart.status == .badRequest)
      #expect(try notMultipart.json()["success"] as? Bool == false)
    }
  }

  @Test func needsABearerToken() async throws {
    try await withApp { t in
      let client = t.client()
      let get = try await client.get("/api/public/get")
      #expect(get.status == .unauthorized)
      #expect(get.productErrorCode == "unauthorized")
      let add = try await Self.add(client, token: "bo_nope", Self.fields)
      #expect(add.status == .unauthorized)
    }
  }

  @Test func addHonoursTheIdempotencyKey() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let first = try await Self.add(
        client, token: token, Self.fields, headers: ["Idempotency-Key": "swipe-1"])
      let second = try await Self.add(
        client, token: token, Self.fields, headers: ["Idempotency-Key": "swipe-1"])
      #expect(second.body == first.body)
      #expect(second.headers.first(name: "Idempotent-Replayed") == "true")
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
    }
  }

  @Test func keyProblemsAreAnsweredInSwipesShape() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let malformed = try await Self.add(
        client, token: token, Self.fields, headers: ["Idempotency-Key": "not ok"])
      #expect(malformed.status == .badRequest)
      #expect(try malformed.json()["success"] as? Bool == false)
      #expect(malformed.productErrorCode == "invalid_idempotency_key")

      try await Self.add(client, token: token, Self.fields, headers: ["Idempotency-Key": "k"])
      var other = Self.fields
      other[0] = .text("product_name", "Another app")
      let reused = try await Self.add(
        client, token: token, other, headers: ["Idempotency-Key": "k"])
      #expect(reused.status == .conflict)
      #expect(try reused.json()["success"] as? Bool == false)
      #expect(reused.productErrorCode == "idempotency_key_reused")
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
    }
  }

  @Test func numbersAreNeverReused() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await Self.add(client, token: token, Self.fields)
      let second = try await client.createProduct(token: token, name: "Two")
      #expect(second["number"] as? Int == 2)
      let id = try #require(second["id"] as? String)
      try await client.productAPI(.DELETE, "/api/v1/products/\(id)", token: token)
      let third = try await Self.add(client, token: token, Self.fields)
      #expect(third.body.contains(#""product_id": 3"#))
      // Another account counts from 1.
      let other = t.client()
      try await other.signUp()
      let otherToken = try await other.createToken()
      #expect(
        try await Self.add(other, token: otherToken, Self.fields).body.contains(#""product_id": 1"#)
      )
    }
  }
}
