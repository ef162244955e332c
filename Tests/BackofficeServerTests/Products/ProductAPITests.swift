import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

// One app at a time per suite: every test starts its own app with a database pool, and
// PostgreSQL allows only so many connections.
@Suite("Products: JSON API", .serialized)
struct ProductAPITests {
  @Test func everyRouteNeedsCredentials() async throws {
    try await withApp { t in
      let client = t.client()
      let id = UUID().uuidString
      for (method, path) in [
        (HTTPMethod.GET, "/api/v1/products"), (.POST, "/api/v1/products"),
        (.GET, "/api/v1/products/\(id)"), (.PUT, "/api/v1/products/\(id)"),
        (.DELETE, "/api/v1/products/\(id)"), (.GET, "/api/v1/products/\(id)/photo"),
        (.GET, "/api/v1/product-types"), (.GET, "/api/v1/favorites"),
        (.PUT, "/api/v1/favorites/\(id)"), (.DELETE, "/api/v1/favorites/\(id)"),
        (.GET, "/api/public/get"), (.POST, "/api/public/add"),
      ] {
        let response = try await client.productAPI(
          method, path, token: "bo_wrong", body: method == .GET ? nil : "{}")
        #expect(response.status == .unauthorized, "\(method) \(path)")
        #expect(response.productErrorCode == "unauthorized", "\(method) \(path)")
      }
      #expect(try await client.get("/api/v1/products").status == .unauthorized)
    }
  }

  @Test func createGetListUpdateDelete() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.productAPI(
        .POST, "/api/v1/products", token: token,
        body: #"{"name": " Nord CE ", "type": "Product", "price": 1694.92, "tax": "18"}"#)
      #expect(created.status == .created)
      let json = try created.json()
      let id = try #require(json["id"] as? String)
      #expect(created.location == "/api/v1/products/\(id.lowercased())")
      #expect(json["name"] as? String == "Nord CE")
      #expect(json["number"] as? Int == 1)
      #expect(json["price"] as? String == "1694.92")
      #expect(json["tax"] as? String == "18.00")
      #expect(json["price_display"] as? String == "$1,694.92")
      #expect(json["tax_display"] as? String == "18%")
      #expect(json["favorite"] as? Bool == false)
      #expect(json["image_url"] == nil || json["image_url"] is NSNull)
      #expect(json["created_at"] is String)

      #expect(
        try await client.productAPI(.GET, "/api/v1/products/\(id)", token: token).json()["name"]
          as? String == "Nord CE")
      let list = try await client.productAPI(.GET, "/api/v1/products?per=10", token: token).json()
      #expect(list["total"] as? Int == 1)
      #expect(list["page"] as? Int == 1)
      #expect(list["per"] as? Int == 10)
      #expect((list["items"] as? [[String: Any]])?.first?["id"] as? String == id)

      let updated = try await client.productAPI(
        .PUT, "/api/v1/products/\(id)", token: token,
        body: productJSON(name: "Nord CE 2", price: "1700", tax: "12.5"))
      #expect(updated.status == .ok)
      #expect(try updated.json()["price"] as? String == "1700.00")
      #expect(try updated.json()["tax"] as? String == "12.50")

      let deleted = try await client.productAPI(.DELETE, "/api/v1/products/\(id)", token: token)
      #expect(deleted.status == .noContent)
      #expect(
        try await client.productAPI(.GET, "/api/v1/products/\(id)", token: token).status
          == .notFound)
    }
  }

  @Test(
    "validation with every field's message",
    arguments: [
      (
        productJSON(name: nil, type: nil, price: nil, tax: nil),
        [
          "name": ProductMessage.nameBlank, "type": ProductMessage.typeBlank,
          "price": ProductMessage.priceMissing, "tax": ProductMessage.taxMissing,
        ]
      ),
      (productJSON(name: "x", price: "12,50"), ["price": ProductMessage.priceNotANumber]),
      (productJSON(name: "x", price: "0.001"), ["price": ProductMessage.priceTooPrecise]),
      (productJSON(name: "x", price: "1000000000000"), ["price": ProductMessage.priceTooLarge]),
      (productJSON(name: "x", tax: "-1"), ["tax": ProductMessage.taxOutOfRange]),
      (productJSON(name: "x", tax: "abc"), ["tax": ProductMessage.taxNotANumber]),
      (
        productJSON(name: "x", extra: ["photo": "***not base64***"]),
        ["photo": PhotoInput.notBase64]
      ),
      (
        productJSON(name: "x", extra: ["photo": Data("hello".utf8).base64EncodedString()]),
        ["photo": ImageUploadError.unsupportedFormat.message]
      ),
      (
        productJSON(name: "x", price: "1 234,50", extra: ["locale": "xx-XX"]),
        ["locale": "Use one of the supported locales, such as en-US."]
      ),
    ])
  func invalidBodiesAre422(body: String, fields: [String: String]) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let response = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: body)
      #expect(response.status == .unprocessableEntity)
      #expect(response.productErrorCode == "validation_failed")
      #expect(response.productErrorFields == fields)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  @Test func localeReadsTheFormsWayOfWritingNumbers() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let response = try await client.productAPI(
        .POST, "/api/v1/products", token: token,
        body: productJSON(name: "Ґанок", price: "1 234,50", tax: "7,5", extra: ["locale": "uk-UA"]))
      #expect(response.status == .created)
      #expect(try response.json()["price"] as? String == "1234.50")
      #expect(try response.json()["tax"] as? String == "7.50")
    }
  }

  @Test func badQueryParametersAre422() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      for (query, field) in [
        ("per=101", "per"), ("per=0", "per"), ("page=0", "page"), ("sort=cheapest", "sort"),
      ] {
        let response = try await client.productAPI(.GET, "/api/v1/products?\(query)", token: token)
        #expect(response.status == .unprocessableEntity, "\(query)")
        #expect(response.productErrorFields[field] != nil, "\(query)")
      }
      let notJSON = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: "{nope")
      #expect(notJSON.status == .badRequest)
    }
  }

  @Test func sessionCookieWorksWithTheCSRFHeader() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products")
      let withoutHeader = try await client.productAPI(
        .POST, "/api/v1/products", token: nil, body: productJSON(name: "Cookie"))
      #expect(withoutHeader.status == .forbidden)
      let withHeader = try await client.productAPI(
        .POST, "/api/v1/products", token: nil, body: productJSON(name: "Cookie"),
        headers: ["X-CSRF-Token": client.csrf ?? ""])
      #expect(withHeader.status == .created)
      let search = try await client.get("/api/v1/products?q=coo")
      #expect((try search.json()["items"] as? [Any])?.count == 1)
    }
  }

  @Test func favouritesAddListRemove() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let a = try #require(try await client.createProduct(token: token, name: "A")["id"] as? String)
      let b = try #require(try await client.createProduct(token: token, name: "B")["id"] as? String)
      let added = try await client.productAPI(.PUT, "/api/v1/favorites/\(a)", token: token)
      #expect(added.status == .ok)
      #expect(try added.json()["favorite"] as? Bool == true)
      #expect(
        try await client.productAPI(.PUT, "/api/v1/favorites/\(a)", token: token).status == .ok)
      try await client.productAPI(.PUT, "/api/v1/favorites/\(b)", token: token)
      let list = try await client.productAPI(.GET, "/api/v1/favorites", token: token).json()
      #expect(list["total"] as? Int == 2)
      #expect((list["items"] as? [[String: Any]])?.map { $0["name"] as? String } == ["B", "A"])
      let fetched = try await client.productAPI(.GET, "/api/v1/products/\(a)", token: token).json()
      #expect(fetched["favorite"] as? Bool == true)

      #expect(
        try await client.productAPI(.DELETE, "/api/v1/favorites/\(a)", token: token).status
          == .noContent)
      #expect(
        try await client.productAPI(.DELETE, "/api/v1/favorites/\(a)", token: token).status
          == .noContent)
      #expect(try await ProductFavorite.query(on: t.db).count() == 1)
      #expect(
        try await client.productAPI(.PUT, "/api/v1/favorites/\(UUID())", token: token).status
          == .notFound)
    }
  }

  @Test func typesWithCounts() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "A", type: "home decor")
      try await client.createProduct(token: token, name: "B", type: "Home Decor")
      try await client.createProduct(token: token, name: "C", type: "Service")
      let json = try await client.productAPI(.GET, "/api/v1/product-types", token: token).json()
      let items = try #require(json["items"] as? [[String: Any]])
      #expect(items.map { $0["key"] as? String } == ["home decor", "service"])
      #expect(items.map { $0["count"] as? Int } == [2, 1])
      let filtered = try await client.productAPI(
        .GET, "/api/v1/products?type=HOME%20DECOR", token: token
      ).json()
      #expect(filtered["total"] as? Int == 2)
    }
  }

  @Test func anotherAccountsProductIsNotFound() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let ownerToken = try await owner.createToken()
      let id = try #require(
        try await owner.createProduct(token: ownerToken, name: "Secret")["id"] as? String)
      let intruder = t.client()
      try await intruder.signUp()
      let token = try await intruder.createToken()
      for (method, path) in [
        (HTTPMethod.GET, "/api/v1/products/\(id)"), (.PUT, "/api/v1/products/\(id)"),
        (.DELETE, "/api/v1/products/\(id)"), (.GET, "/api/v1/products/\(id)/photo"),
        (.PUT, "/api/v1/favorites/\(id)"), (.DELETE, "/api/v1/favorites/\(id)"),
      ] {
        let response = try await intruder.productAPI(
          method, path, token: token, body: method == .PUT ? productJSON(name: "Mine") : nil)
        #expect(response.status == .notFound, "\(method) \(path)")
        #expect(response.productErrorCode == "not_found")
        #expect(!response.body.contains("Secret"))
      }
      let list = try await intruder.productAPI(.GET, "/api/v1/products", token: token).json()
      #expect(list["total"] as? Int == 0)
      let swipe = try await intruder.productAPI(.GET, "/api/public/get", token: token)
      #expect(swipe.body == "[]")
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
    }
  }
}
