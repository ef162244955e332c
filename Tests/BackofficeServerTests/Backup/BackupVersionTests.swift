import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Account backup: record versions")
struct BackupVersionTests {
  /// A restored record keeps its version, so an ETag a client kept from before names the same
  /// state; a file from before versions gives its records version 1.
  @Test func versionsTravelWithTheirRecordsAndOldFilesStartAtOne() async throws {
    let file = try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let id = try await client.addAdPayment(
        name: "Kept", url: "https://kept.example.com", db: t.db)
      try await client.get("/ad-payments/\(id.uuidString)/edit")
      #expect(
        try await client.post(
          "/ad-payments/\(id.uuidString)",
          form: [("name", "Kept 2"), ("url", "https://kept.example.com")]
        ).status == .seeOther)
      let product = try await client.addProduct(name: "Stool", db: t.db)
      try await client.get("/products/\(product.uuidString)/edit")
      #expect(
        try await client.postProductForm(
          "/products/\(product.uuidString)",
          [
            .text("name", "Stool 2"), .text("type", "Product"), .text("price", "10.00"),
            .text("tax", "18"),
          ]
        ).status == .seeOther)
      let userID = try await ExpenseFixtures.userID(email: email, db: t.db)
      let backup = try await AccountBackup.export(
        workspaceID: try await t.workspaceID(ofUser: userID), person: userID, on: t.db,
        now: t.clock.now)
      #expect(backup.adPayments.first?.version == 2)
      #expect(backup.products.items.first?.version == 2)
      return try backup.encoded()
    }
    #expect(String(decoding: file, as: UTF8.self).contains(#""version" : 2"#))

    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let userID = try await ExpenseFixtures.userID(email: email, db: t.db)
      _ = try await AccountRestore.run(
        try AccountBackup.decode(file), into: userID, merge: false, maxPhotoBytes: 5_000_000,
        on: t.db)
      #expect(try await AdPaymentTable.query(on: t.db).first()?.version == 2)
      #expect(try await ProductRecord.query(on: t.db).first()?.version == 2)
      let again = try await AccountBackup.export(
        workspaceID: try await t.workspaceID(ofUser: userID), person: userID, on: t.db,
        now: t.clock.now)
      #expect(again.adPayments.first?.version == 2)
    }

    // The same file as written before versions existed.
    var old = try AccountBackup.decode(file)
    for index in old.adPayments.indices { old.adPayments[index].version = nil }
    for index in old.products.items.indices { old.products.items[index].version = nil }
    let oldFile = try old.encoded()
    #expect(!String(decoding: oldFile, as: UTF8.self).contains(#""version" : 2"#))
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let userID = try await ExpenseFixtures.userID(email: email, db: t.db)
      _ = try await AccountRestore.run(
        try AccountBackup.decode(oldFile), into: userID, merge: false, maxPhotoBytes: 5_000_000,
        on: t.db)
      #expect(try await AdPaymentTable.query(on: t.db).first()?.version == 1)
      #expect(try await ProductRecord.query(on: t.db).first()?.version == 1)
    }
  }

  @Test func aVersionOutOfRangeIsAProblemOfTheFile() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      try await client.addAdPayment(name: "Odd", url: "https://odd.example.com", db: t.db)
      let userID = try await ExpenseFixtures.userID(email: email, db: t.db)
      var backup = try await AccountBackup.export(
        workspaceID: try await t.workspaceID(ofUser: userID), person: userID, on: t.db,
        now: t.clock.now)
      backup.adPayments[0].version = 0
      let other = t.client()
      let otherEmail = try await other.signUp()
      let otherID = try await ExpenseFixtures.userID(email: otherEmail, db: t.db)
      await #expect {
        _ = try await AccountRestore.run(
          backup, into: otherID, merge: false, maxPhotoBytes: 5_000_000, on: t.db)
      } throws: { error in
        (error as? BackupError)?.message.contains("ad_payments[0].version: must be from 1") == true
      }
    }
  }
}
