import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Products: CSV export and import")
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

      // Read back in an English account, which reads either language's header.
      let english = t.client()
      let email = try await english.signUp()
      try await english.useLanguage(.en, email: email)
      let page = try await english.importProducts(response.body, in: t)
      #expect(page.importSummary == "1 product imported, 0 already present.")
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
      #expect(listing.body.contains(#"href="/products/import""#))
      #expect(!listing.body.contains(#"href="/products/export.csv""#))
      #expect(try await client.get("/products/export.csv").body == "\u{FEFF}\(Self.header)\r\n")

      try await client.addProduct(name: "Phone", db: t.db)
      let withProducts = try await client.get("/products")
      #expect(withProducts.body.contains(#"href="/products/export.csv" class="button" download"#))
      #expect(withProducts.body.contains("Import CSV"))
    }
  }

  /// Another account's catalog (even a copy of this one's) is not exported, not counted as
  /// present, and not changed by an import.
  @Test func anotherAccountIsNeverInvolved() async throws {
    try await withApp { t in
      let other = t.client()
      let otherEmail = try await other.signUp()
      try await other.addProduct(name: "Phone", price: "10.00", tax: "18", db: t.db)
      let otherWorkspace = try await t.workspaceID(of: otherEmail)
      let before = try await ProductStore(db: t.db, workspaceID: otherWorkspace, viewerID: nil)
        .all().map(
          \.product)

      let client = t.client()
      let email = try await client.signUp()
      #expect(try await client.get("/products/export.csv").body == "\u{FEFF}\(Self.header)\r\n")
      let page = try await client.importProducts(
        "name,type,price,tax\nPhone,Product,10,18\n", in: t)
      #expect(page.importSummary == "1 product imported, 0 already present.")

      let workspaceID = try await t.workspaceID(of: email)
      let mine = try #require(
        try await ProductStore(db: t.db, workspaceID: workspaceID, viewerID: nil).all().first)
      #expect(mine.number == 1)
      #expect(
        try await ProductStore(db: t.db, workspaceID: otherWorkspace, viewerID: nil).all().map(
          \.product)
          == before)
      #expect(
        try await ProductStore(db: t.db, workspaceID: otherWorkspace, viewerID: nil).count() == 1)
      #expect(try await other.get("/products").productNames == ["Phone"])
    }
  }

  @Test func theImportFormExplainsTheColumns() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/products/import")
      #expect(page.status == .ok)
      #expect(page.body.contains("<h1>Import products</h1>"))
      #expect(page.body.contains(#"action="/products/import""#))
      #expect(page.body.contains(#"enctype="multipart/form-data""#))
      #expect(page.body.contains(#"name="skip_errors""#))
      #expect(page.body.contains(#"name="import_duplicates""#))
      #expect(page.body.contains("Import rows that are already present"))
      #expect(page.body.contains("the same name, type, price and tax"))
      #expect(page.body.contains("name,type,price,tax\nPhone case,Product,1694.92,18.00\n"))
      #expect(page.body.contains("Photos are not imported"))
      #expect(page.body.contains("the favorite, image_url and created_at columns"))
    }
  }

  /// Export → import into an empty account gives the same catalog in the same order. Photos,
  /// favourites and dates are not carried over.
  @Test func exportThenImportIntoAnEmptyAccountGivesTheSameCatalog() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let originals = [
        csvProduct("Crème, \"brûlée\"", "Десерт", "125.5", "7"),
        csvProduct("+380 case", "=Accessory", "1694.92", "18"),
        csvProduct("Repair", "Service", "999999999999.99", "100"),
        csvProduct("'quoted", "Service", "0.01", "0"),
        csvProduct("Repair", "Service", "5", "20"),
        csvProduct("Repair", "Service", "5", "20"),
      ]
      let store = ProductStore(
        db: t.db, workspaceID: try await t.workspaceID(of: email), viewerID: nil)
      for product in originals { _ = try await store.create(product, photo: nil) }
      let csv = try await client.get("/products/export.csv").body

      let copy = t.client()
      let copyEmail = try await copy.signUp()
      let page = try await copy.importProducts(csv, in: t)
      #expect(page.importSummary == "6 products imported, 0 already present.")
      let copyWorkspace = try await t.workspaceID(of: copyEmail)
      let imported = try await ProductStore(db: t.db, workspaceID: copyWorkspace, viewerID: nil)
        .all()
      #expect(imported.map(\.product) == originals)
      #expect(imported.map(\.number) == Array(1...6))
      // The copy exports the same rows but for the creation times.
      let rows = { (text: String) in
        text.components(separatedBy: "\r\n").map { $0.components(separatedBy: ",").dropLast() }
      }
      #expect(rows(try await copy.get("/products/export.csv").body) == rows(csv))
    }
  }

  @Test func anyBadRowImportsNothingAndListsEveryProblem() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products/import")
      let csv = """
        name,type,price,tax
        Good,Product,10,18
        ,Product,"1,694.92",101
        Fine,Service,5,0
        Bad,Service,0,18.005
        ,,,
        """
      let response = try await client.upload(
        "/products/import", file: Data(csv.utf8), filename: "products.csv")
      #expect(response.status == .unprocessableEntity)
      #expect(
        response.body.contains(
          "Nothing was imported: 2 rows have errors. Fix them, or tick "
            + "\u{201C}Skip rows with errors\u{201D}."))
      #expect(
        response.body.contains(
          "<li>Row 3: Product name cannot be blank. Price must be a number, e.g. 12.50. "
            + "Tax must be between 0 and 100.</li>"))
      #expect(
        response.body.contains(
          "<li>Row 5: Price must be greater than 0. Tax can have at most 2 decimal places.</li>"))
      #expect(!response.body.contains("Row 6"), "an empty row is skipped, not reported")
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
      #expect(try await ProductCounter.query(on: t.db).first()?.productCount ?? 0 == 0)
    }
  }

  @Test func skippingBadRowsImportsTheRestAndReportsThem() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let csv = "name,type,price,tax\nGood,Product,10,18\n   ,Product,10,18\nAlso good,A,1,2\n"
      let page = try await client.importProducts(csv, fields: [("skip_errors", "on")], in: t)
      #expect(
        page.importSummary == "2 products imported, 0 already present. Skipped 1 row with errors.")
      #expect(page.body.contains("<li>Row 3: Product name cannot be blank.</li>"))
      #expect(page.body.contains("<h1>Import of products finished</h1>"))
      #expect(page.body.contains(#"<a href="/products" class="button button-primary">"#))
      #expect(try await client.get("/products").productNames == ["Also good", "Good"])

      try await client.get("/products/import")
      let allBad = try await client.upload(
        "/products/import", file: Data("name,type,price,tax\nx,y,-1,0\n".utf8),
        fields: [("skip_errors", "on")])
      #expect(allBad.status == .unprocessableEntity)
      #expect(allBad.body.contains("Nothing was imported: every row has errors."))
    }
  }

  /// Swipe's own names for the columns, any order, extra columns, a semicolon file with a
  /// byte-order mark: all read.
  @Test func aFileWithSwipesColumnNamesImports() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let swipe = """
        image,price,product_name,product_type,tax
        https://swipe.example/1.jpg,5800.0,Nord CE,Product,10.0
        ,1694.92, Tablet ,Product,18
        """
      let page = try await client.importProducts(swipe, in: t)
      #expect(page.importSummary == "2 products imported, 0 already present.")
      let semicolons = "\u{FEFF}Tax;Price;Type;Name\r\n0;12.5;Service;Repair\r\n"
      let second = try await client.importProducts(semicolons, in: t)
      #expect(second.importSummary == "1 product imported, 0 already present.")
      let products = try await ProductRecord.query(on: t.db).sort(\.$number).all()
      #expect(
        products.map(\.product) == [
          csvProduct("Nord CE", "Product", "5800", "10"),
          csvProduct("Tablet", "Product", "1694.92", "18"),
          csvProduct("Repair", "Service", "12.5", "0"),
        ])
      // Imported like any product: search keys, no photo, the first version.
      #expect(products.map(\.nameKey) == ["nord ce", "tablet", "repair"])
      #expect(products.allSatisfy { $0.photoETag == nil && $0.version == RecordVersion.first })
      #expect(try await client.get("/products?q=tab").productNames == ["Tablet"])
    }
  }

  @Test(arguments: [
    ("", "Choose a CSV file to import."),
    (
      "name,kind,price,tax\nA,B,1,2\n",
      "The first row must be a header with the columns name,type,price,tax (in any order)."
    ),
    ("name,type,price,tax\n", "The file has no products below the header row."),
    ("name,type,price,tax\n\"Open\"x,A,1,2\n", "The file is not valid CSV"),
  ])
  func unreadableFilesAreExplained(_ csv: String, _ message: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products/import")
      let response = try await client.upload("/products/import", file: Data(csv.utf8))
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains(message), "\(response.body)")
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
    }
  }

  @Test func anUploadWithoutTheCSRFTokenIsRefused() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/products/import")
      let response = try await client.upload(
        "/products/import", file: Data("name,type,price,tax\nA,B,1,2\n".utf8), csrf: false)
      #expect(response.status == .forbidden)
      try await t.app.importJobs.waitUntilIdle()
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
      #expect(try await ImportJobTable.query(on: t.db).count() == 0)

      let signedOut = t.client()
      let anonymous = try await signedOut.upload(
        "/products/import", file: Data("name,type,price,tax\nA,B,1,2\n".utf8), csrf: false)
      #expect(anonymous.location?.hasPrefix("/imports/") != true)
      #expect(try await signedOut.get("/products/export.csv").status == .seeOther)
      try await t.app.importJobs.waitUntilIdle()
      #expect(try await ProductRecord.query(on: t.db).count() == 0)
      #expect(try await ImportJobTable.query(on: t.db).count() == 0)
    }
  }
}

/// A product with exact amounts, for expectations.
func csvProduct(_ name: String, _ type: String, _ price: String, _ tax: String) -> Product {
  Product(
    name: name, type: type, price: ExpenseFixtures.decimal(price),
    tax: ExpenseFixtures.decimal(tax))
}

extension TestClient {
  /// Uploads a products CSV from the import page, waits for the background import to finish
  /// and returns its page.
  func importProducts(_ csv: String, fields: [(String, String)] = [], in t: TestApp)
    async throws -> TestResponse
  {
    try await get("/products/import")
    return try await followImport(
      upload("/products/import", file: Data(csv.utf8), filename: "products.csv", fields: fields),
      in: t)
  }
}
