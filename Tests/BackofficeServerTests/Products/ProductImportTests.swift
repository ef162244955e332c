import BackofficeCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Products CSV import: rows already present, numbers and counts")
struct ProductImportTests {
  static let threeRows = """
    name,type,price,tax
    Phone,Product,1694.92,18
    "Case, red",Accessory,5800,0.5
    Repair,Service,10.0,20.00
    """

  /// The account's products in number order, and its counter row.
  static func catalog(_ email: String, _ t: TestApp) async throws
    -> (records: [ProductRecord], lastNumber: Int, count: Int)
  {
    let workspaceID = try await t.workspaceID(of: email)
    let records = try await ProductRecord.query(on: t.db).filter(\.$workspaceID == workspaceID)
      .sort(\.$number).all()
    let counter = try await ProductCounter.query(on: t.db).filter(\.$workspaceID == workspaceID)
      .first()
    return (records, counter?.lastNumber ?? 0, counter?.productCount ?? 0)
  }

  /// Numbers are unique and never past the counter, and the counter counts every row.
  static func expectConsistent(_ email: String, _ t: TestApp, rows: Int) async throws {
    let catalog = try await catalog(email, t)
    let numbers = catalog.records.map(\.number)
    #expect(catalog.records.count == rows)
    #expect(Set(numbers).count == numbers.count, "numbers repeat: \(numbers)")
    #expect(catalog.count == rows)
    #expect(catalog.lastNumber >= numbers.max() ?? 0)
  }

  @Test func importingTheSameFileTwiceAddsNothingTheSecondTime() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let first = try await client.importProducts(Self.threeRows, in: t)
      #expect(first.importSummary == "3 products imported, 0 already present.")
      let again = try await client.importProducts(Self.threeRows, in: t)
      #expect(again.importSummary == "0 products imported, 3 already present.")
      try await Self.expectConsistent(email, t, rows: 3)
      #expect(try await Self.catalog(email, t).lastNumber == 3)

      // The account's own export is recognised row by row too.
      let exported = try await client.get("/products/export.csv").body
      let third = try await client.importProducts(exported, in: t)
      #expect(third.importSummary == "0 products imported, 3 already present.")
      #expect(
        try await client.get("/products").productNames == ["Repair", "Case, red", "Phone"])
    }
  }

  @Test func importingAnywayAddsThemAgainOnPurpose() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      _ = try await client.importProducts(Self.threeRows, in: t)
      let page = try await client.importProducts(
        Self.threeRows, fields: [("import_duplicates", "on")], in: t)
      #expect(
        page.importSummary
          == "3 products imported (rows already present were imported again, as asked).")
      try await Self.expectConsistent(email, t, rows: 6)
      #expect(try await Self.catalog(email, t).records.map(\.number) == Array(1...6))
    }
  }

  /// Multiset matching, and "the same" is the name and type exactly as stored with the price
  /// and tax: letter case counts, how the number was written does not.
  @Test func twoIdenticalRowsAgainstOneHeldImportOne() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      try await client.addProduct(name: "Phone", type: "Product", price: "10", tax: "18", db: t.db)
      let csv = """
        name,type,price,tax
        Phone,Product,10.00,18
        Phone,Product,10,18.00
        phone,Product,10,18
        Phone,Product,10.01,18
        Phone,Service,10,18
        """
      let page = try await client.importProducts(csv, in: t)
      #expect(page.importSummary == "4 products imported, 1 already present.")
      let again = try await client.importProducts(csv, in: t)
      #expect(again.importSummary == "0 products imported, 5 already present.")
      try await Self.expectConsistent(email, t, rows: 5)
    }
  }

  /// Every way a product is written keeps its match key: the form (add and edit), the API
  /// (create and replace), Swipe's add, a restored backup, an import.
  @Test func everyWritePathKeepsTheMatchKey() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let token = try await client.createToken()
      let lamp = try await client.addProduct(name: "Lamp", price: "30", tax: "12.5", db: t.db)
      try await client.get("/products/\(lamp.uuidString)/edit")
      let edit = try await client.postProductForm(
        "/products/\(lamp.uuidString)",
        [
          .text("name", "Desk lamp"), .text("type", "Home"), .text("price", "32.50"),
          .text("tax", "7"),
        ])
      #expect(edit.status == .seeOther)
      let tablet = try await client.createProduct(token: token, name: "Tablet")
      let tabletID = try #require(tablet["id"] as? String)
      let replaced = try await client.productAPI(
        .PUT, "/api/v1/products/\(tabletID)", token: token,
        body: productJSON(name: "Tablet 2", price: "1700", tax: "12.5"))
      #expect(replaced.status == .ok)
      try await SwipeCompatibleAPITests.add(client, token: token, SwipeCompatibleAPITests.fields)
      _ = try await client.importProducts("name,type,price,tax\nImported,Product,1,2\n", in: t)

      let userID = try await ExpenseFixtures.userID(email: email, db: t.db)
      let file = try await AccountBackup.export(
        workspaceID: try await t.workspaceID(ofUser: userID), person: userID, on: t.db,
        now: t.clock.now)
      let copy = t.client()
      let copyEmail = try await copy.signUp()
      let copyID = try await ExpenseFixtures.userID(email: copyEmail, db: t.db)
      _ = try await AccountRestore.run(
        file, into: copyID, merge: false, maxPhotoBytes: 5_000_000, on: t.db)

      let records = try await ProductRecord.query(on: t.db).all()
      #expect(records.count == 8)
      for record in records {
        #expect(record.matchKey == MatchKey.make(record.product.matchFields), "\(record.name)")
      }
      // So the catalog's own export, in either account, is all present.
      let exported = try await client.get("/products/export.csv").body
      let page = try await client.importProducts(exported, in: t)
      #expect(page.importSummary == "0 products imported, 4 already present.")
      let restored = try await copy.importProducts(exported, in: t)
      #expect(restored.importSummary == "0 products imported, 4 already present.")
    }
  }

  /// Products created through the API while an import runs, racing its batches for the
  /// write lock and coming between them, never share a number with an imported one, and the
  /// count stays equal to the rows.
  @Test(.timeLimit(.minutes(10)))
  func numbersStayUniqueWhileProductsAreCreatedDuringTheImport() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let token = try await client.createToken()
      let statuses = NIOLockedValueBox<[HTTPStatus]>([])
      let racers = NIOLockedValueBox<[Task<Void, Never>]>([])
      @Sendable func create(_ name: String) async {
        let response = try? await t.client().productAPI(
          .POST, "/api/v1/products", token: token, body: productJSON(name: name))
        statuses.withLockedValue { $0.append(response?.status ?? .internalServerError) }
      }
      let jobs = try t.app.importJobs
      var tuning = jobs.tuning
      tuning.firstBatch = 2
      tuning.batchTime = nil
      tuning.pause = .zero
      tuning.beforeLock = { _ in
        // Two creations set off as the batch goes for the lock: each gets in before or after
        // the batch, never inside it.
        let racer = Task {
          async let first: Void = create("Racing A")
          async let second: Void = create("Racing B")
          _ = await (first, second)
        }
        racers.withLockedValue { $0.append(racer) }
      }
      tuning.afterBatch = { _, _ in await create("Between") }
      jobs.tuning = tuning

      let rows = (1...7).map { "Row \($0),Product,\($0),18" }
      let page = try await client.importProducts(
        "name,type,price,tax\n" + rows.joined(separator: "\n"), in: t)
      for racer in racers.withLockedValue({ $0 }) { await racer.value }
      #expect(page.importSummary == "7 products imported, 0 already present.")

      let created = statuses.withLockedValue { $0 }
      #expect(created.count == 4 * 3)
      #expect(created.allSatisfy { $0 == .created }, "\(created)")
      try await Self.expectConsistent(email, t, rows: 7 + 12)
      let catalog = try await Self.catalog(email, t)
      #expect(catalog.lastNumber == 19)
      // The imported rows keep the file's order.
      let imported = catalog.records.filter { $0.name.hasPrefix("Row ") }
      #expect(imported.map(\.name) == (1...7).map { "Row \($0)" })
    }
  }

  /// A batch that fails is rolled back whole: no product, no number taken, no count. Run
  /// again, the import finishes with the counter right.
  @Test func aFailedBatchTakesNoNumbers() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      try await client.addProduct(name: "Before", db: t.db)
      let sql = try t.db.sql()
      if isPostgresRun {
        try await sql.raw(
          """
          CREATE FUNCTION products_refuse() RETURNS trigger AS $$
          BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql
          """
        ).run()
        try await sql.raw(
          """
          CREATE TRIGGER products_refuse BEFORE INSERT ON products
          FOR EACH ROW EXECUTE FUNCTION products_refuse()
          """
        ).run()
      } else {
        try await sql.raw(
          """
          CREATE TRIGGER products_refuse BEFORE INSERT ON products
          BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
          """
        ).run()
      }
      let page = try await client.importProducts(Self.threeRows, in: t)
      #expect(page.body.contains("<h1>Import of products stopped</h1>"))
      #expect(page.importStopped?.hasPrefix(ImportMessages.writeFailed) == true)
      try await Self.expectConsistent(email, t, rows: 1)
      #expect(try await Self.catalog(email, t).lastNumber == 1)

      if isPostgresRun {
        try await sql.raw("DROP TRIGGER products_refuse ON products").run()
      } else {
        try await sql.raw("DROP TRIGGER products_refuse").run()
      }
      let location = try #require(page.firstMatch(#"action="(/imports/[^"/]+)/retry""#))
      #expect(try await client.post(location + "/retry").status == .seeOther)
      try await t.app.importJobs.waitUntilIdle()
      let done = try await client.get(location)
      #expect(done.importSummary == "3 products imported, 0 already present.")
      try await Self.expectConsistent(email, t, rows: 4)
      #expect(try await Self.catalog(email, t).records.map(\.number) == [1, 2, 3, 4])
    }
  }

  /// Imported products go through the catalog's triggers like any other: devices learn of
  /// them from the change feed, and the listing shows them at once.
  @Test func importedProductsAppearInTheChangeFeedAndTheListing() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      #expect(try await client.get("/products").productNames.isEmpty)
      let before = try await client.feed(token: token)
      _ = try await client.importProducts(Self.threeRows, in: t)
      let after = try await client.feed(token: token, since: before.cursor)
      #expect(after.changes.map(\.name) == ["Phone", "Case, red", "Repair"])
      #expect(after.changes.allSatisfy { !$0.deleted })
      #expect(
        try await client.get("/products").productNames == ["Repair", "Case, red", "Phone"])
    }
  }

  @Test func theImportPageNamesTheArea() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.importProducts(Self.threeRows, in: t)
      #expect(page.body.contains("<h1>Import of products finished</h1>"))
      #expect(page.body.contains(#"href="/products/import""#))
      #expect(page.body.contains(#"aria-current="page""#))
    }
  }
}
