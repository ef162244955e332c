import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// The catalog's total comes from the account's counter row; it must always equal the rows.
@Suite("Product count kept with the counter")
struct ProductCountTests {
  private func rows(_ t: TestApp, _ workspaceID: UUID) async throws -> Int {
    try await ProductRecord.query(on: t.db).filter(\.$workspaceID == workspaceID).count()
  }

  @Test func theCountFollowsCreatesDeletesAndImports() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(email: "count@example.com")
      let userID = try #require(
        try await Accounts.find(email: "count@example.com", on: t.db)?.id)
      let workspaceID = try await t.workspaceID(ofUser: userID)
      let token = try await client.createToken()
      let store = ProductStore(db: t.db, workspaceID: workspaceID, viewerID: nil)
      #expect(try await store.count() == 0)

      for n in 1...3 { try await client.createProduct(token: token, name: "API \(n)") }
      try await client.addProduct(name: "Form", db: t.db)
      #expect(try await store.count() == 4)

      let first = try #require(try await store.all().first)
      let deleted = try await client.productAPI(
        .DELETE, "/api/v1/products/\(first.id.uuidString)", token: token)
      #expect(deleted.status == .noContent)
      #expect(try await store.count() == 3)

      // A create that fails after its number was taken leaves the count as it was.
      try await ProductRecord.query(on: t.db).filter(\.$name == "API 2").set(\.$number, to: 99)
        .update()
      let failing = try await ProductCounter.query(on: t.db)
        .filter(\.$workspaceID == workspaceID).first()
      failing?.lastNumber = 98
      try await failing?.save(on: t.db)
      await #expect(throws: (any Error).self) {
        try await store.create(Product(name: "Clash", type: "A", price: 1, tax: 0), photo: nil)
      }
      #expect(try await store.count() == 3)

      let file = try await AccountBackup.export(
        workspaceID: workspaceID, person: userID, on: t.db, now: t.clock.now)
      let other = try #require(
        try await {
          let user = User(
            email: "copy@example.com", passwordHash: "x", locale: "en-US", currency: "USD")
          _ = try await Accounts.create(user, on: t.db)
          return user.id
        }())
      _ = try await AccountRestore.run(
        file, into: other, merge: false, maxPhotoBytes: 5_000_000, on: t.db)
      let otherWorkspace = try await t.workspaceID(ofUser: other)
      #expect(
        try await ProductStore(db: t.db, workspaceID: otherWorkspace, viewerID: nil).count() == 3)

      let list = try await client.productAPI(.GET, "/api/v1/products?per=2", token: token)
      #expect(try list.json()["total"] as? Int == 3)
      #expect(try await rows(t, workspaceID) == 3)
      #expect(try await rows(t, otherWorkspace) == 3)
    }
  }
}
