import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Ad payments: CSV export and import")
struct AdPaymentCSVTests {
  @Test func exportWritesEveryEntryInNameOrderAsADownload() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addAdPayment(
        name: "beta, \"quoted\"", url: "https://b.example.com/?a=1,2", db: t.db)
      try await client.addAdPayment(name: "Alpha", url: "https://a.example.com", db: t.db)
      try await client.addAdPayment(name: "=SUM(A1)", url: "https://f.example.com", db: t.db)
      let response = try await client.get("/ad-payments/export.csv")
      #expect(response.status == .ok)
      #expect(response.headers.first(name: .contentType) == "text/csv; charset=utf-8")
      #expect(
        response.headers.first(name: .contentDisposition)
          == #"attachment; filename="ad-payments-2026-09-21.csv""#)
      #expect(
        response.body
          == "\u{FEFF}name,url\r\n'=SUM(A1),https://f.example.com\r\nAlpha,https://a.example.com\r\n"
          + "\"beta, \"\"quoted\"\"\",\"https://b.example.com/?a=1,2\"\r\n")
    }
  }

  @Test func exportThenImportGivesBackTheSameEntries() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let originals = [
        ("Crème, \"brûlée\"", "https://приклад.укр/шлях"), ("+380 ads", "https://a.example.com"),
        ("Line\nbreak", "https://b.example.com"),
      ]
      let userID = try #require(try await Accounts.all(on: t.db).first?.id)
      let workspaceID = try await t.workspaceID(ofUser: userID)
      for (name, url) in originals {
        _ = try await AdPaymentStore(db: t.db, workspaceID: workspaceID)
          .create(AdPayment(name: name, url: url))
      }
      let csv = try await client.get("/ad-payments/export.csv").body
      try await AdPaymentTable.query(on: t.db).delete()
      let page = try await client.importAdPayments(csv, in: t)
      #expect(page.importSummary == "3 payments imported, 0 already present.")
      let entries = try await AdPaymentTable.query(on: t.db).all()
      #expect(
        Set(entries.map { "\($0.name)|\($0.url)" })
          == Set(originals.map { "\($0.0)|\($0.1)" }))
    }
  }

  @Test func importAddsValidRowsWithTheFormsRules() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/ad-payments/import")
      #expect(page.status == .ok)
      #expect(page.body.contains(#"enctype="multipart/form-data""#))
      #expect(page.body.contains("Skip rows with errors"))
      let csv =
        "URL;Name;Notes\r\n https://one.example.com ;  One  ;x\r\n\r\nhttps://two.example.com;Two;\r\n"
      let done = try await client.followImport(
        client.upload("/ad-payments/import", file: Data(csv.utf8)), in: t)
      #expect(done.importSummary == "2 payments imported, 0 already present.")
      #expect(done.body.contains(#"<a href="/ad-payments" class="button button-primary">"#))
      let list = try await client.get("/ad-payments")
      #expect(list.listedNames == ["One", "Two"])
      let one = try #require(
        try await AdPaymentTable.query(on: t.db).filter(\.$name == "One").first())
      #expect(one.url == "https://one.example.com")
      #expect(one.sortKey == "one")
    }
  }

  @Test func anyBadRowImportsNothingAndListsEveryProblem() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/ad-payments/import")
      let csv = """
        name,url
        Good,https://good.example.com
        ,http://google
        Fine,https://fine.example.com
        Bad link,ftp://x.com
        ,
        """
      let response = try await client.upload("/ad-payments/import", file: Data(csv.utf8))
      #expect(response.status == .unprocessableEntity)
      #expect(
        response.body.contains(
          "Nothing was imported: 2 rows have errors. Fix them, or tick "
            + "\u{201C}Skip rows with errors\u{201D}."))
      #expect(
        response.body.contains(
          "<li>Row 3: Name cannot be blank. Please enter a valid URL (e.g., https://www.example.com)</li>"
        ))
      #expect(
        response.body.contains(
          "<li>Row 5: Please enter a valid URL (e.g., https://www.example.com)</li>"))
      #expect(!response.body.contains("Row 6"), "an empty row is skipped, not reported")
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)
    }
  }

  @Test func skippingBadRowsImportsTheRestAndReportsThem() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/ad-payments/import")
      let csv = "name,url\nGood,https://good.example.com\n   ,https://blank.example.com\n"
      let response = try await client.followImport(
        client.upload(
          "/ad-payments/import", file: Data(csv.utf8), fields: [("skip_errors", "on")]),
        in: t)
      #expect(
        response.importSummary
          == "1 payment imported, 0 already present. Skipped 1 row with errors.")
      #expect(response.body.contains("<li>Row 3: Name cannot be blank.</li>"))
      let entries = try await AdPaymentTable.query(on: t.db).all()
      #expect(entries.map(\.name) == ["Good"])

      try await client.get("/ad-payments/import")
      // The form's older name for the tick still counts.
      let allBad = try await client.upload(
        "/ad-payments/import", file: Data("name,url\nx,http://test\n".utf8),
        fields: [("skip_invalid", "on")])
      #expect(allBad.status == .unprocessableEntity)
      #expect(allBad.body.contains("Nothing was imported: every row has errors."))
    }
  }

  @Test(arguments: [
    ("", "Choose a CSV file to import."),
    ("title,link\nA,https://a.com\n", "The first row must be the header name,url."),
    ("name,url\n", "The file has no payments below the header row."),
    ("name,url\n\"Open\"x,https://a.com\n", "The file is not valid CSV"),
  ])
  func unreadableFilesAreExplained(_ csv: String, _ message: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/ad-payments/import")
      let response = try await client.upload("/ad-payments/import", file: Data(csv.utf8))
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains(message), "\(response.body)")
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)
    }
  }

  @Test func nonUTF8FilesAreRefused() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/ad-payments/import")
      let latin1 = try #require("name,url\nCrème,https://a.com\n".data(using: .isoLatin1))
      let response = try await client.upload("/ad-payments/import", file: latin1)
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains("The file is not UTF-8 text."))
    }
  }

  @Test func aFailedImportLeavesNothingBehind() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await failAdPaymentWrites(t, on: "INSERT")
      let page = try await client.importAdPayments(
        "name,url\nA,https://a.com\nB,https://b.com\n", in: t)
      #expect(page.importStopped?.hasPrefix(ImportMessages.writeFailed) == true)
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)
    }
  }

  @Test func importedEntriesBelongToTheUploader() async throws {
    try await withApp { t in
      let other = t.client()
      try await other.signUp()
      let client = t.client()
      try await client.signUp(email: "uploader@example.com")
      _ = try await client.importAdPayments("name,url\nA,https://a.com\n", in: t)
      let uploaderWorkspace = try await t.workspaceID(of: "uploader@example.com")
      let entry = try #require(try await AdPaymentTable.query(on: t.db).first())
      #expect(entry.workspaceID == uploaderWorkspace)
      #expect(try await other.get("/ad-payments").listedNames.isEmpty)
    }
  }

  @Test func writerQuotesOnlyWhatNeedsIt() {
    #expect(CSVText.quoted("plain") == "plain")
    #expect(CSVText.quoted("a,b") == "\"a,b\"")
    #expect(CSVText.quoted("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSVText.quoted("two\nlines") == "\"two\nlines\"")
    #expect(CSVText.quoted("cr\rhere") == "\"cr\rhere\"")
    #expect(CSVText.quoted("a;b") == "\"a;b\"")
    #expect(
      AdPaymentCSVFile.filename(on: Date(timeIntervalSince1970: 1_790_000_000))
        == "ad-payments-2026-09-21.csv")
  }
}
