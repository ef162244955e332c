import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Ad payments CSV import: rows already present")
struct AdPaymentImportTests {
  @Test func importingAnExportIntoTheSameListAddsNothing() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let csv =
        "name,url\nSpring,https://spring.example.com\n\"Autumn, late\",https://a.example.com\n"
      let first = try await client.importAdPayments(csv, in: t)
      #expect(first.importSummary == "2 payments imported, 0 already present.")

      let exported = try await client.get("/ad-payments/export.csv").body
      let again = try await client.importAdPayments(exported, in: t)
      #expect(again.importSummary == "0 payments imported, 2 already present.")
      #expect(try await AdPaymentTable.query(on: t.db).count() == 2)
      #expect(try await client.get("/ad-payments").listedNames == ["Autumn, late", "Spring"])
    }
  }

  @Test func importingAnywayAddsThemAgainOnPurpose() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let csv = "name,url\nSpring,https://spring.example.com\n"
      _ = try await client.importAdPayments(csv, in: t)
      let page = try await client.importAdPayments(
        csv, fields: [("import_duplicates", "on")], in: t)
      #expect(
        page.importSummary
          == "1 payment imported (rows already present were imported again, as asked).")
      #expect(try await client.get("/ad-payments").listedNames == ["Spring", "Spring"])
    }
  }

  /// Multiset matching, and "the same" is the name and the link exactly as stored.
  @Test func twoIdenticalRowsAgainstOneHeldImportOne() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addAdPayment(name: "Spring", url: "https://spring.example.com", db: t.db)
      let csv = """
        name,url
        Spring,https://spring.example.com
        Spring,https://spring.example.com
        spring,https://spring.example.com
        Spring,https://spring.example.com/
        """
      let page = try await client.importAdPayments(csv, in: t)
      #expect(page.importSummary == "3 payments imported, 1 already present.")
      #expect(try await AdPaymentTable.query(on: t.db).count() == 4)
      let again = try await client.importAdPayments(csv, in: t)
      #expect(again.importSummary == "0 payments imported, 4 already present.")
      #expect(try await AdPaymentTable.query(on: t.db).count() == 4)
    }
  }

  @Test func importFormOffersToImportRowsAlreadyPresent() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/ad-payments/import")
      #expect(page.body.contains(#"name="import_duplicates""#))
      #expect(page.body.contains("Import rows that are already present"))
      #expect(page.body.contains("the same name and link"))
    }
  }
}
