import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Products: CSV export")
struct ProductCSVTests {
  static let header = "name,type,price,tax,favorite,image_url,created_at"

  @Test func exportWritesTheWholeCatalogOldestFirstAsADownload() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.addProduct(name: "Phone", price: "1694.92", tax: "18", db: t.db)
      let photographed = try await client.addProduct(
        name: "Case, \"red\"", type: "Accessory", price: "5800", tax: "0.5",
        photo: ProductImages.png(), db: t.db)
      try await client.addProduct(name: "=SUM(A1)", type: "-Service", tax: "0", db: t.db)
      try await client.get("/products")
      let favorite = try await client.post(
        "/products/\(photographed.uuidString.lowercased())/favorite", form: [("favorite", "1")])
      #expect(favorite.status == .seeOther)

      let response = try await client.get("/products/export.csv")
      #expect(response.status == .ok)
      #expect(response.headers.first(name: .contentType) == "text/csv; charset=utf-8")
      #expect(
        response.headers.first(name: .contentDisposition)
          == #"attachment; filename="products-2026-09-21.csv""#)
      #expect(response.headers.first(name: .cacheControl) == "no-store")

      // The photo's address is the one the Swipe API gives for the same product.
      let swipe = try await client.productAPI(.GET, "/api/public/get", token: token)
      let imageURL = try #require(
        try swipe.productJSONArray().compactMap { $0["image"] as? String }.first { !$0.isEmpty })
      #expect(imageURL.hasPrefix("http://"))
      let created = try await ProductRecord.query(on: t.db).sort(\.$number).all().map {
        ExpenseDate.iso8601(try #require($0.createdAt))
      }
      #expect(
        response.body
          == "\u{FEFF}\(Self.header)\r\n"
          + "Phone,Product,1694.92,18.00,false,,\(created[0])\r\n"
          + "\"Case, \"\"red\"\"\",Accessory,5800.00,0.50,true,\(imageURL),\(created[1])\r\n"
          + "'=SUM(A1),'-Service,10.00,0.00,false,,\(created[2])\r\n")
    }
  }

  @Test(.ukrainian) func theHeaderIsInTheInterfaceLanguage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addProduct(name: "Чохол", type: "Товар", price: "12.5", tax: "20", db: t.db)
      let response = try await client.get("/products/export.csv")
      #expect(
        response.body.hasPrefix(
          "\u{FEFF}назва,тип,ціна,податок,обране,фото,створено\r\nЧохол,Товар,12.50,20.00,false,,"))
    }
  }

  /// Only the account's own catalog: another account's products are not in it.
  @Test func anEmptyCatalogExportsOnlyTheHeader() async throws {
    try await withApp { t in
      let client = t.client()
      let other = t.client()
      try await other.signUp()
      try await other.addProduct(name: "Not mine", db: t.db)
      try await client.signUp()
      let listing = try await client.get("/products")
      #expect(!listing.body.contains(#"href="/products/export.csv""#))
      #expect(try await client.get("/products/export.csv").body == "\u{FEFF}\(Self.header)\r\n")

      try await client.addProduct(name: "Phone", db: t.db)
      let withProducts = try await client.get("/products")
      #expect(withProducts.body.contains(#"href="/products/export.csv" class="button" download"#))
    }
  }
}
