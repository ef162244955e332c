import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

// One app at a time per suite: every test starts its own app with a database pool, and
// PostgreSQL allows only so many connections.
@Suite("Products: record versions", .serialized)
struct ProductVersionTests {
  /// Two browsers open the same product; the second save is refused with both values and
  /// overwrites nothing; a deliberate second submit then saves.
  @Test func aStaleFormSaveIsRefusedWithBothValuesAndASecondSubmitSaves() async throws {
    try await withApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addProduct(
        name: "Chair", type: "Furniture", price: "10.00", db: t.db)
      let second = t.client()
      _ = try await second.signIn(email: email)

      let edit = "/products/\(id.uuidString)/edit"
      let opened = try await first.get(edit)
      #expect(opened.body.contains(#"name="version" value="1""#))
      try await second.get(edit)
      let saved = try await second.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "Chair (blue)"), .text("type", "Furniture"), .text("price", "10.00"),
          .text("tax", "18"),
        ])
      #expect(saved.status == .seeOther)

      let stale = try await first.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "Armchair"), .text("type", "Furniture"), .text("price", "12.50"),
          .text("tax", "18"), .text("version", "1"),
        ])
      #expect(stale.status == .conflict)
      #expect(stale.body.contains("This product was changed since you opened it"))
      #expect(stale.productInputValue("name") == "Armchair", "what was typed is kept")
      #expect(stale.productInputValue("price") == "12.50")
      #expect(stale.body.contains(#"id="field-name-saved""#))
      #expect(stale.body.contains("Saved now:</span> <strong>Chair (blue)</strong>"))
      #expect(!stale.body.contains(#"id="field-type-saved""#), "an unchanged field shows nothing")
      #expect(stale.body.contains(#"id="field-price-saved""#), "12.50 was typed, 10.00 is saved")
      #expect(stale.body.contains(#"name="version" value="2""#), "the form moves on to the saved")
      var record = try #require(try await ProductRecord.find(id, on: t.db))
      #expect(record.name == "Chair (blue)", "nothing was overwritten")
      #expect(record.version == 2)

      let again = try await first.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "Armchair"), .text("type", "Furniture"), .text("price", "12.50"),
          .text("tax", "18"),
        ])
      #expect(again.status == .seeOther, "the second submit carries version 2 and saves")
      record = try #require(try await ProductRecord.find(id, on: t.db))
      #expect(record.name == "Armchair")
      #expect(record.priceMinor == 1250)
      #expect(record.version == 3)
    }
  }

  @Test func aFormWithoutAVersionIsTreatedAsStale() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addProduct(name: "Lamp", db: t.db)
      let response = try await client.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "Lamp 2"), .text("type", "Product"), .text("price", "10.00"),
          .text("tax", "18"), .text("version", ""),
        ])
      #expect(response.status == .conflict)
      #expect(try await ProductRecord.find(id, on: t.db)?.name == "Lamp")
    }
  }

  @Test func savingADeletedProductOrDeletingItAgainIsAClearMessage() async throws {
    try await withApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addProduct(name: "Gone soon", db: t.db)
      let second = t.client()
      _ = try await second.signIn(email: email)
      try await first.get("/products/\(id.uuidString)/edit")
      try await second.get("/products/\(id.uuidString)/edit")
      #expect(try await first.post("/products/\(id.uuidString)/delete").status == .seeOther)

      let again = try await second.post("/products/\(id.uuidString)/delete")
      #expect(again.status == .notFound)
      #expect(again.body.contains("This product no longer exists"))
      #expect(again.body.contains("It was already deleted"))

      let save = try await second.postProductForm(
        "/products/\(id.uuidString)",
        [
          .text("name", "My edit"), .text("type", "Product"), .text("price", "3"),
          .text("tax", "0"),
        ])
      #expect(save.status == .notFound)
      #expect(save.body.contains("was deleted since you opened it"))
      #expect(save.body.contains("<dd>My edit</dd>"), "what was typed is shown")
      #expect(try await ProductCounter.query(on: t.db).first()?.productCount == 0)
    }
  }

  @Test func theAPISendsETagsAndHonoursIfMatch() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Desk"),
        headers: ["Idempotency-Key": "desk-1"])
      #expect(created.status == .created)
      #expect(created.headers.first(name: .eTag) == #""1""#)
      #expect(try created.json()["version"] as? Int == 1)
      let replay = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Desk"),
        headers: ["Idempotency-Key": "desk-1"])
      #expect(replay.headers.first(name: .eTag) == #""1""#, "a replay names its body's version")
      let id = try #require(try created.json()["id"] as? String)
      let path = "/api/v1/products/\(id)"
      let read = try await client.productAPI(.GET, path, token: token)
      #expect(read.headers.first(name: .eTag) == #""1""#)

      let mismatch = try await client.productAPI(
        .PUT, path, token: token, body: productJSON(name: "Desk 2"),
        headers: ["If-Match": #""7""#])
      #expect(mismatch.status == .preconditionFailed)
      let error = try #require(try mismatch.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "precondition_failed")
      #expect((error["message"] as? String)?.hasPrefix("The product was changed") == true)
      #expect(try await ProductRecord.query(on: t.db).first()?.name == "Desk")
      #expect(try await ProductRecord.query(on: t.db).first()?.version == 1)

      let matched = try await client.productAPI(
        .PUT, path, token: token, body: productJSON(name: "Desk 2"),
        headers: ["If-Match": #""5", "1""#])
      #expect(matched.status == .ok)
      #expect(matched.headers.first(name: .eTag) == #""2""#)
      #expect(try matched.json()["version"] as? Int == 2)

      let star = try await client.productAPI(
        .PUT, path, token: token, body: productJSON(name: "Desk 3"), headers: ["If-Match": "*"])
      #expect(star.headers.first(name: .eTag) == #""3""#)
      let unconditional = try await client.productAPI(
        .PUT, path, token: token, body: productJSON(name: "Desk 4"))
      #expect(unconditional.status == .ok, "without If-Match the last write wins")
      #expect(unconditional.headers.first(name: .eTag) == #""4""#)

      let staleDelete = try await client.productAPI(
        .DELETE, path, token: token, headers: ["If-Match": #""3""#])
      #expect(staleDelete.status == .preconditionFailed)
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
      let delete = try await client.productAPI(
        .DELETE, path, token: token, headers: ["If-Match": #""4""#])
      #expect(delete.status == .noContent)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  /// A favourite is the account's own mark, not an edit of the product.
  @Test func aFavouriteDoesNotChangeTheVersion() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addProduct(name: "Liked", db: t.db)
      try await client.get("/products")
      let response = try await client.post(
        "/products/\(id.uuidString)/favorite", form: [("favorite", "1")])
      #expect(response.status == .seeOther)
      #expect(try await ProductFavorite.query(on: t.db).count() == 1)
      #expect(try await ProductRecord.find(id, on: t.db)?.version == 1)
    }
  }

  /// Two saves carrying the same version at the same moment: exactly one wins, through the
  /// API and through the form alike.
  @Test func ofTwoParallelSavesWithOneVersionExactlyOneWins() async throws {
    try await withApp { t in
      let owner = t.client()
      let email = try await owner.signUp()
      let token = try await owner.createToken()
      let id = try await owner.addProduct(name: "Raced", db: t.db)
      let path = "/api/v1/products/\(id.uuidString)"
      for round in 0..<3 {
        let version = try #require(try await ProductRecord.find(id, on: t.db)).version
        let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
          for name in ["Left \(round)", "Right \(round)"] {
            group.addTask {
              try await t.client().productAPI(
                .PUT, path, token: token, body: productJSON(name: name),
                headers: ["If-Match": RecordETag.value(version)]
              ).status
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.sorted { $0.code < $1.code } == [.ok, .preconditionFailed])
        #expect(try await ProductRecord.find(id, on: t.db)?.version == version + 1)
      }

      let browsers = [t.client(), t.client()]
      for browser in browsers {
        _ = try await browser.signIn(email: email)
        try await browser.get("/products/\(id.uuidString)/edit")
      }
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for (index, browser) in browsers.enumerated() {
          group.addTask {
            try await browser.postProductForm(
              "/products/\(id.uuidString)",
              [
                .text("name", "Form \(index)"), .text("type", "Product"),
                .text("price", "10.00"), .text("tax", "18"),
              ]
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.sorted { $0.code < $1.code } == [.seeOther, .conflict])
    }
  }
}
