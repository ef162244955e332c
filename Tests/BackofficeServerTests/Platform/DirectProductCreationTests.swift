import BackofficeCore
import Fluent
import Foundation
import GRDB
import SQLKit
import SQLiteKit
import Testing
import Vapor

@testable import BackofficeServer

/// Product creation through the API on a SQLite file, as one closure on GRDB's writer, writes
/// exactly what the model layer writes, replays and refuses idempotency keys as it does, and
/// leaves nothing behind when it fails.
@Suite("Direct product creation")
struct DirectProductCreationTests {
  private func storage(_ t: TestApp) throws -> SQLiteStorage {
    try #require((t.db as? SQLiteFluentDatabase)?.readsNow)
  }

  /// Every column of the rows `sql` selects, as SQLite holds them.
  private func rows(_ t: TestApp, _ sql: String) throws -> [DirectRow] {
    try storage(t).readNow(sql, [])
  }

  private func sameKind(_ a: SQLiteData, _ b: SQLiteData) -> Bool {
    switch (a, b) {
    case (.integer, .integer), (.float, .float), (.text, .text), (.blob, .blob), (.null, .null):
      true
    default: false
    }
  }

  /// Two rows agree: the same columns, every value equal but those in `differing`, which only
  /// have the same kind (text, number, blob).
  private func expectSame(_ a: DirectRow, _ b: DirectRow, differing: Set<String>) {
    #expect(a.names == b.names)
    for (index, name) in a.names.enumerated() {
      if differing.contains(name) {
        #expect(sameKind(a.values[index], b.values[index]), "\(name)")
      } else {
        #expect(a.values[index] == b.values[index], "\(name)")
      }
    }
  }

  /// Names as people type them, and one with multi-byte and invisible characters, which both
  /// paths must store byte for byte (the driver binds text with its length). A NUL, which the
  /// driver would read back only up to, is refused by the product rules before either path.
  @Test(arguments: ["Ёлка Desk-lamp", "ab\u{200B}cd 🎉\u{FEFF}x"])
  func creationWritesWhatTheModelLayerWrites(name: String) async throws {
    try await withApp(store: .sqliteFile) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let user = try #require(try await Accounts.all(on: t.db).first)
      let workspace = try await t.workspaceID(ofUser: try user.requireID())
      let before = try await ChangeVersions.read(.products, workspaceID: workspace, on: t.db)

      // The model layer's creation, as the API makes it with a photo or on PostgreSQL.
      let product = Product(
        name: name, type: "Office", price: Decimal(string: "1694.92")!, tax: Decimal(string: "7.5")!
      )
      let outcome = try await ProductsAPIController.create(
        product, photo: nil, viewer: try user.requireID(), account: AccountFormat(user),
        key: "first", fingerprint: "f",
        idempotency: IdempotencyStore(db: t.db, workspaceID: workspace, now: Date()))
      let viaModels = try #require(
        try JSONSerialization.jsonObject(with: outcome.answer.body) as? [String: Any])
      let middle = try await ChangeVersions.read(.products, workspaceID: workspace, on: t.db)
      #expect(middle > before)
      let direct = try await client.createProduct(
        token: token, name: name, type: "Office", price: "1694.92", tax: "7.5", key: "second")

      let products = try rows(t, "SELECT * FROM products ORDER BY number")
      try #require(products.count == 2)
      expectSame(
        products[0], products[1],
        differing: ["id", "number", "created_at", "updated_at", "change_seq"])
      #expect(products[1].values[products[1].names.firstIndex(of: "number")!] == .integer(2))
      // The change feed's triggers number the direct writer's row after the other.
      let seq = products.map { $0.values[$0.names.firstIndex(of: "change_seq")!] }
      #expect(seq == [.integer(1), .integer(2)])
      // Byte for byte (text is read up to a NUL, as the driver reads it; its bytes are not).
      let stored = try rows(t, "SELECT hex(name) AS bytes FROM products ORDER BY number")
      #expect(stored.count == 2 && stored[0].values == stored[1].values)
      #expect(
        stored.first?.values == [.text(Data(name.utf8).map { String(format: "%02X", $0) }.joined())]
      )

      let answers = try rows(t, "SELECT * FROM idempotency_keys ORDER BY key")
      try #require(answers.count == 2)
      // The model-layer creation above was made with a fingerprint and a time of its own.
      expectSame(
        answers[0], answers[1],
        differing: ["id", "key", "body", "location", "request_hash", "created_at"])

      let counter = try rows(t, "SELECT last_number, product_count FROM product_counters")
      #expect(counter.first?.values == [.integer(2), .integer(2)])
      let after = try await ChangeVersions.read(.products, workspaceID: workspace, on: t.db)
      // The version triggers fire for the direct writer's rows too.
      #expect(after > middle)

      // The answers agree too, but for what names the product itself.
      for field in ["id", "number", "created_at", "updated_at"] {
        #expect(viaModels[field] != nil && direct[field] != nil, "\(field)")
      }
      for field in [
        "name", "type", "price", "tax", "price_display", "tax_display", "favorite",
        "version", "image_url",
      ] {
        #expect("\(viaModels[field] ?? "nil")" == "\(direct[field] ?? "nil")", "\(field)")
      }
      // And the product reads back the same way.
      let id = try #require(direct["id"] as? String)
      let read = try await client.productAPI(.GET, "/api/v1/products/\(id)", token: token).json()
      let modelID = try #require(viaModels["id"] as? String)
      let readModel = try await client.productAPI(
        .GET, "/api/v1/products/\(modelID)", token: token
      ).json()
      #expect(read["name"] as? String == readModel["name"] as? String)
      #expect(read["price"] as? String == "1694.92")
    }
  }

  @Test func aRepeatedKeyReplaysAndAChangedRequestIsRefused() async throws {
    try await withApp(store: .sqliteFile) { t in
      _ = try storage(t)
      let client = t.client()
      let email = try await client.signUp()
      let token = try await client.createToken()
      var headers = HTTPHeaders()
      headers.replaceOrAdd(name: "Idempotency-Key", value: "once")
      let body = productJSON(name: "Lamp")
      let first = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: body, headers: headers)
      let again = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: body, headers: headers)
      #expect(first.status == .created)
      #expect(again.status == .created)
      #expect(again.body == first.body)
      let changed = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Other"),
        headers: headers)
      #expect(changed.status == .unprocessableEntity || changed.status == .conflict)
      #expect(try await ProductRecord.query(on: t.db).count() == 1)
      // The activity line is written with the product, once: not for the replay, nor for
      // the refused request.
      let lines = try await ActivityTable.query(on: t.db).filter(\.$area == "product").all()
      #expect(lines.map(\.recordName) == ["Lamp"])
      #expect(lines.first?.action == "created")
      #expect(lines.first?.actorEmail == email)
    }
  }

  /// The product and its activity line are one transaction: when the line cannot be written,
  /// no product is left without it.
  @Test func aCreationWhoseActivityLineFailsLeavesNoProduct() async throws {
    try await withApp(store: .sqliteFile) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let sql = try t.db.sql()
      try await sql.raw(
        """
        CREATE TRIGGER refuse_lines BEFORE INSERT ON activity
        BEGIN SELECT RAISE(ABORT, 'no lines today'); END
        """
      ).run()
      let refused = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Lamp"))
      #expect(refused.status == .internalServerError)
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
      try await sql.raw("DROP TRIGGER refuse_lines").run()
      let created = try await client.productAPI(
        .POST, "/api/v1/products", token: token, body: productJSON(name: "Lamp"))
      #expect(created.status == .created)
      #expect(try await ActivityTable.query(on: t.db).filter(\.$area == "product").count() == 1)
    }
  }

  /// Parallel creations, some repeating each other's keys: one product per key, numbers
  /// without gaps or repeats.
  @Test func parallelCreationsKeepNumbersAndKeys() async throws {
    try await withApp(store: .sqliteFile) { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for index in 0..<40 {
          group.addTask {
            var headers = HTTPHeaders()
            headers.replaceOrAdd(name: "Idempotency-Key", value: "key-\(index % 20)")
            return try await client.productAPI(
              .POST, "/api/v1/products", token: token,
              body: productJSON(name: "Item \(index % 20)"), headers: headers
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.allSatisfy { $0 == .created })
      let numbers = try await ProductRecord.query(on: t.db).all().map(\.number).sorted()
      #expect(numbers == Array(1...20))
    }
  }

  /// A statement that fails mid-transaction leaves nothing of the transaction behind, and the
  /// writer goes on working.
  @Test func aFailedTransactionWritesNothing() async throws {
    try await withApp(store: .sqliteFile) { t in
      let storage = try storage(t)
      let client = t.client()
      try await client.signUp()
      await #expect(throws: (any Error).self) {
        try await storage.write { db in
          try db.execute(sql: "UPDATE users SET locale = 'xx'")
          try db.execute(sql: "INSERT INTO no_such_table VALUES (1)")
        }
      }
      #expect(try await Accounts.all(on: t.db).first?.locale != "xx")
      let count = try await storage.write { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM users")
      }
      #expect(count == 1)
    }
  }
}
