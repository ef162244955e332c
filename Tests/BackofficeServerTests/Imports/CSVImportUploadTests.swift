import Foundation
import Testing

@testable import BackofficeServer

/// The one upload behind both import forms: the same field names, ticks and messages in each
/// area.
@Suite struct CSVImportUploadTests {
  struct Area: Sendable, CustomStringConvertible {
    var path: String
    /// Two rows with errors (rows 3 and 4) between valid ones.
    var twoBadRows: String
    /// Only rows with errors.
    var allBad: String
    var description: String { path }
  }

  static let areas = [
    Area(
      path: "/expenses/import",
      twoBadRows: "date,title,category,amount\n,Tea,Food,1\n,,Food,1\n,Gym,Nope,2\n,Bus,,3\n",
      allBad: "date,title,category,amount\n,,Food,1\n"),
    Area(
      path: "/ad-payments/import",
      twoBadRows:
        "name,url\nOne,https://one.example.com\n,https://x.example.com\nBad,ftp://x.com\n"
        + "Two,https://two.example.com\n",
      allBad: "name,url\nx,http://test\n"),
  ]

  func upload(_ client: TestClient, _ area: Area, _ csv: String, fields: [(String, String)])
    async throws -> TestResponse
  {
    try await client.get(area.path)
    return try await client.upload(area.path, file: Data(csv.utf8), fields: fields)
  }

  @Test(arguments: areas)
  func theFormsSendTheSameFields(_ area: Area) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let form = try await client.get(area.path).body
      #expect(form.contains(#"name="skip_errors""#))
      #expect(form.contains(#"name="import_duplicates""#))
      #expect(!form.contains("skip_invalid"))
    }
  }

  @Test(arguments: areas)
  func aRefusedUploadSaysTheSameAndKeepsTheTicks(_ area: Area) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let refused = try await upload(
        client, area, area.twoBadRows, fields: [("import_duplicates", "1")])
      #expect(refused.status == .unprocessableEntity)
      #expect(
        refused.body.contains(
          "Nothing was imported: 2 rows have errors. Fix them, or tick "
            + "\u{201C}Skip rows with errors\u{201D}."))
      #expect(refused.body.contains("Row 3: "))
      #expect(refused.body.contains("Row 4: "))
      #expect(checked(refused.body, "field-import-duplicates"))
      #expect(!checked(refused.body, "field-skip-errors"))

      let none = try await upload(client, area, area.allBad, fields: [("skip_errors", "1")])
      #expect(none.status == .unprocessableEntity)
      #expect(none.body.contains("Nothing was imported: every row has errors."))
      #expect(checked(none.body, "field-skip-errors"))
      #expect(!checked(none.body, "field-import-duplicates"))

      let empty = try await upload(client, area, "", fields: [])
      #expect(empty.status == .unprocessableEntity)
      #expect(empty.body.contains("Choose a CSV file to import."))
    }
  }

  @Test(arguments: areas, ["skip_errors", "skip_invalid"])
  func eitherNameOfTheSkipTickImportsTheValidRows(_ area: Area, _ name: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.followImport(
        upload(client, area, area.twoBadRows, fields: [(name, "on")]), in: t)
      #expect(page.importSummary?.contains("2 rows with errors") == true, "\(page.body)")
    }
  }

  /// Whether the checkbox with `id` is ticked.
  func checked(_ html: String, _ id: String) -> Bool {
    guard let start = html.range(of: #"id="\#(id)""#) else { return false }
    let tagStart = html[..<start.lowerBound].lastIndex(of: "<") ?? start.lowerBound
    let tagEnd = html[start.upperBound...].firstIndex(of: ">") ?? html.endIndex
    return html[tagStart..<tagEnd].contains(" checked")
  }
}

/// The reader behind the products and ad payments imports: each way a file cannot be used
/// says so in the area's words, blank lines are no rows, and a row keeps the number a
/// spreadsheet shows.
@Suite struct CSVUploadCheckedTests {
  func unreadable(_ checked: CSVImport.Checked<some Sendable>) -> String? {
    if case .unreadable(let message) = checked { return message }
    return nil
  }

  @Test func everyWayAFileCannotBeUsedIsSaidByTheArea() {
    let cases: [(Data, String)] = [
      (Data([0xFF, 0xFE, 0x00, 0xD8]), "not UTF-8 text"),
      (Data("name,type,price,tax\n\"Lamp\"x,Thing,1,0\n".utf8), "not valid CSV"),
      (Data("a,b\n1,2\n".utf8), "name"),
      (Data("name,type,price,tax\n\n  ,  , ,\n".utf8), "no products below the header"),
    ]
    for (data, expected) in cases {
      let product = unreadable(ProductCSVFile.checked(data))
      #expect(product?.contains(expected) == true, "\(expected): \(product ?? "read")")
    }
    #expect(
      unreadable(AdPaymentCSVFile.checked(Data([0xFF, 0xFE])))?.contains("not UTF-8 text") == true)
  }

  @Test func blankLinesAreSkippedAndRowsKeepTheirNumbers() {
    let file = "name,type,price,tax\nLamp,Light,10,0\n\n,Light,1,0\nChair,Seat,5,0\n\n"
    guard case .rows(let products, let problems) = ProductCSVFile.checked(Data(file.utf8)) else {
      Issue.record("not read")
      return
    }
    #expect(products.map(\.name) == ["Lamp", "Chair"])
    #expect(problems.count == 1)
    #expect(problems.first?.hasPrefix("Row 4:") == true, "\(problems)")
  }
}
