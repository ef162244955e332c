import BackofficeCore
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Marketing catalog upload and download")
struct MarketingCatalogImportTests {
  func files(_ documents: [String: Data]) -> [(String, Data)] {
    documents.sorted { $0.key < $1.key }.map { ("\($0.key).json", $0.value) }
  }

  @Test func theSevenOriginalFilesImport() async throws {
    try await withApp { t in
      try await MarketingCatalogStore.replace(
        with: MarketingSamples.mixedCurrencies, source: .upload, detail: nil, on: t.db,
        now: t.clock.now)
      let client = t.client()
      try await client.signUp()
      try await client.get("/marketing/catalog")
      let response = try await client.upload(
        "/marketing/catalog/import", files: files(try MarketingFixtureFiles.documents()))
      #expect(response.status == .seeOther, "\(response.body)")
      let page = try await client.get("/marketing/catalog")
      #expect(page.body.contains("Catalog imported: 15 targets, 6 channels, 23 packages."))
      #expect(page.body.contains("uploaded on"))
      let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(stored.catalog == MarketingCatalog.bundledDefault)
      #expect(stored.source == .upload)
      #expect(stored.sourceDetail?.contains("b22fd39c053b256222b1.json") == true)
    }
  }

  @Test func aDownloadedCatalogUploadsAgainAsOneFile() async throws {
    try await withApp { t in
      try await MarketingCatalogStore.replace(
        with: MarketingSamples.mixedCurrencies, source: .upload, detail: nil, on: t.db,
        now: t.clock.now)
      let client = t.client()
      try await client.signUp()
      let export = try await client.get("/marketing/catalog/export.json")
      #expect(export.status == .ok)
      #expect(
        export.headers.first(name: .contentDisposition)
          == "attachment; filename=\"marketing-catalog.json\"")
      #expect(export.body.contains("\"price\":49.99"))
      #expect(export.body.contains("\"price\":1500.5"))

      try await MarketingCatalogStore.replace(
        with: .bundledDefault, source: .bundled, detail: nil, on: t.db, now: t.clock.now)
      try await client.get("/marketing/catalog")
      let response = try await client.upload(
        "/marketing/catalog/import", files: [("catalog.json", Data(export.body.utf8))])
      #expect(response.status == .seeOther, "\(response.body)")
      let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(stored.catalog == MarketingSamples.mixedCurrencies)
    }
  }

  @Test func everyBrokenFileIsNamedAndNothingChanges() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      var documents = MarketingSamples.documents()
      documents["0af1bfee844a7003cec5"] = Data(
        #"{"channel": "Facebook", "monthly_fees": [{"price": "12abc", "details": [], "currency": "EUR"}]}"#
          .utf8)
      documents["66a8bfaafccc4b2c2a9a"] = Data("not json".utf8)
      documents["2499f739821b5ab3dcd6"] = nil
      documents["ffffffffffffffffffff"] = Data(#"{"channel": "Extra", "monthly_fees": []}"#.utf8)
      try await client.get("/marketing/catalog")
      let response = try await client.upload("/marketing/catalog/import", files: files(documents))
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains("The catalog was not imported:"))
      #expect(
        response.body.contains(
          "0af1bfee844a7003cec5.json: channel \u{201C}Facebook\u{201D}: monthly_fees[0].price is not a number"
        ))
      #expect(
        response.body.contains(
          "66a8bfaafccc4b2c2a9a.json: channel \u{201C}Twitter\u{201D}: the document is not valid JSON"
        ))
      #expect(
        response.body.contains(
          "ffffffffffffffffffff.json: is not a channel named by the targeting document"))
      #expect(
        response.body.contains(
          "The channel document 2499f739821b5ab3dcd6.json (Google AdWords) is missing."))
      let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(stored.source == .bundled)

      let noTargeting = try await client.upload(
        "/marketing/catalog/import",
        files: [("0af1bfee844a7003cec5.json", documents["0af1bfee844a7003cec5"]!)])
      #expect(noTargeting.status == .unprocessableEntity)
      #expect(
        noTargeting.body.contains("The targeting document b22fd39c053b256222b1.json is missing"))

      let badName = try await client.upload(
        "/marketing/catalog/import", files: [("notes.txt", Data("x".utf8)), ("a.json", Data())])
      #expect(badName.body.contains("notes.txt: name it after its document id"))

      let nothing = try await client.upload("/marketing/catalog/import", files: [])
      #expect(nothing.status == .unprocessableEntity)
      #expect(nothing.body.contains("Choose the catalog"))
    }
  }

  @Test func uploadNeedsTheCSRFToken() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/marketing/catalog")
      let response = try await client.upload(
        "/marketing/catalog/import",
        files: files(MarketingSamples.documents(of: MarketingSamples.changedCatalog)), csrf: false)
      #expect(response.status == .forbidden)
      let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(stored.source == .bundled)
    }
  }

  @Test func anUploadReconcilesPlansAndClearsTheBanner() async throws {
    try await withApp { t in
      try await MarketingCatalogStore.recordFailure(
        .offline(reason: "x did not answer"), on: t.db, now: t.clock.now)
      let client = t.client()
      try await client.signUp()
      let planID = try await client.newPlan()
      let base = "/marketing/plans/\(planID)"
      try await client.postOn(
        "\(base)/targets", "\(base)/targets/toggle", form: [("target", "Hyperlinks")])
      try await client.postOn(
        "\(base)/channels/9789d17ffaf4432dcce0", "\(base)/channels/9789d17ffaf4432dcce0/choose",
        form: [("package", "seo_0")])
      #expect(try await client.get("\(base)/review").body.contains("Offline data from"))
      try await client.get("/marketing/catalog")
      let response = try await client.upload(
        "/marketing/catalog/import",
        files: files(MarketingSamples.documents(of: MarketingSamples.changedCatalog)))
      #expect(response.status == .seeOther)
      let page = try await client.get("/marketing/catalog")
      #expect(page.body.contains("1 plan lost choices the new catalog no longer offers."))
      #expect(!page.body.contains("Offline data from"))
      let plan = try #require(try await MarketingPlanTable.query(on: t.db).first())
      #expect(plan.selection.isEmpty)
    }
  }
}
