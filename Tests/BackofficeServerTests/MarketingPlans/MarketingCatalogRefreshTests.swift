import BackofficeCore
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// "Refresh catalog" against a real HTTP server on loopback: answering, slow, failing,
/// malformed, and not there at all.
@Suite("Marketing catalog refresh")
struct MarketingCatalogRefreshTests {
  @Test func aFreshInstallHasTheBundledCatalog() async throws {
    try await withApp { t in
      let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(stored.catalog == MarketingCatalog.bundledDefault)
      #expect(stored.source == .bundled)
      #expect(stored.status == .ok)
      #expect(try await MarketingCatalogTable.query(on: t.db).count() == 1)
      // Seeding again (another instance starting) adds nothing.
      try await MarketingCatalogStore.seedIfEmpty(on: t.db, now: t.clock.now)
      try await M031_SeedMarketingCatalog().prepare(on: t.db)
      #expect(try await MarketingCatalogTable.query(on: t.db).count() == 1)
      // A missing row is seeded again on first read.
      try await MarketingCatalogTable.query(on: t.db).delete()
      let again = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(again.catalog == MarketingCatalog.bundledDefault)
    }
  }

  @Test func theDefaultsAreThreeAndSixSeconds() throws {
    let config = try AppConfig.load(from: [:])
    #expect(config.catalogBaseURL == "https://api.npoint.io/")
    #expect(config.catalogRequestTimeout == 3)
    #expect(config.catalogTotalTimeout == 6)
    let timeouts = MarketingFetchTimeouts(config)
    #expect(timeouts.request == .seconds(3))
    #expect(timeouts.total == .seconds(6))
    let client = timeouts.clientConfiguration
    #expect(client.timeout.connect == .seconds(3))
    #expect(client.timeout.read == .seconds(3))
  }

  @Test func anAnsweringHostReplacesTheCatalogAndReconcilesPlans() async throws {
    try await CatalogStubServer.with(
      documents: MarketingSamples.documents(of: MarketingSamples.changedCatalog)
    ) { stub in
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let client = t.client()
        try await client.signUp()
        let planID = try await client.newPlan()
        let targets = "/marketing/plans/\(planID)/targets"
        try await client.postOn(targets, "\(targets)/toggle", form: [("target", "Hyperlinks")])
        try await client.postOn(targets, "\(targets)/toggle", form: [("target", "Location")])
        let seo = "/marketing/plans/\(planID)/channels/9789d17ffaf4432dcce0"
        try await client.postOn(seo, "\(seo)/choose", form: [("package", "seo_1")])
        let facebook = "/marketing/plans/\(planID)/channels/0af1bfee844a7003cec5"
        try await client.postOn(facebook, "\(facebook)/choose", form: [("package", "facebook_0")])

        try await client.get("/marketing/catalog")
        let response = try await client.post("/marketing/catalog/refresh")
        #expect(response.status == .seeOther)
        let page = try await client.get("/marketing/catalog")
        #expect(page.body.contains("Catalog refreshed: 14 targets, 5 channels, 19 packages."))
        #expect(page.body.contains("1 plan lost choices the new catalog no longer offers."))
        #expect(page.body.contains("refreshed from \(stub.baseURL)"))
        #expect(!page.body.contains("mk-banner"))
        #expect(
          Set(stub.hits)
            == Set(MarketingSamples.documents(of: MarketingSamples.changedCatalog).keys))

        let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
        #expect(stored.catalog == MarketingSamples.changedCatalog)
        #expect(stored.source == .refresh)
        #expect(stored.fetchedAt == t.clock.now)

        // The plan lost the SEO target and package, kept Facebook at its new price.
        let plan = try #require(try await MarketingPlanTable.query(on: t.db).first())
        #expect(plan.selection.targetNames == ["Location"])
        #expect(plan.selection.chosenPackageIDs == ["0af1bfee844a7003cec5": "facebook_0"])
        let review = try await client.get("/marketing/plans/\(planID)/review")
        #expect(review.body.contains("€150.00/month"))
      }
    }
  }

  @Test func theOriginalFixtureDocumentsRefreshToTheBundledCatalog() async throws {
    try await CatalogStubServer.with(documents: try MarketingFixtureFiles.documents()) { stub in
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let update = try await MarketingCatalogRefresh.run(app: t.app)
        #expect(update.succeeded)
        #expect(update.stored.catalog == MarketingCatalog.bundledDefault)
      }
    }
  }

  /// Refreshes against `stub` behaving as set, and checks the catalog and plans stay.
  private func refreshKeepsTheCatalog(
    _ t: TestApp, expecting expected: (MarketingRefreshStatus) -> Bool
  ) async throws -> MarketingCatalogUpdate {
    let before = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
    t.clock.advance(by: 3600)
    let update = try await MarketingCatalogRefresh.run(app: t.app)
    #expect(!update.succeeded)
    let after = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
    #expect(after.catalog == before.catalog)
    #expect(after.fetchedAt == before.fetchedAt)
    #expect(after.source == before.source)
    #expect(after.refreshedAt == t.clock.now)
    #expect(expected(after.status), "status was \(after.status)")
    return update
  }

  @Test func aSlowHostIsOfflineAndTheBannerSaysSinceWhen() async throws {
    try await CatalogStubServer.with { stub in
      stub.set(.slow(seconds: stubSlowSeconds))
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let seeded = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now).fetchedAt
        // Were the limits not kept, the stub's answer after 60 s would replace the catalog.
        let update = try await refreshKeepsTheCatalog(t) {
          if case .offline(let reason) = $0 { return reason == "127.0.0.1 stopped answering" }
          return false
        }
        #expect(update.message(locale: .enUS).hasPrefix("Offline: 127.0.0.1 stopped answering."))

        let client = t.client()
        try await client.signUp()
        let planID = try await client.newPlan()
        for path in [
          "/marketing", "/marketing/catalog", "/marketing/plans/\(planID)/targets",
          "/marketing/plans/\(planID)/channels", "/marketing/plans/\(planID)/review",
        ] {
          let page = try await client.get(path)
          let since = MarketingFormat.dateTime(seeded, locale: .enUS)
          #expect(page.body.contains("Offline data from \(since)"), "\(path)")
          #expect(page.body.contains("127.0.0.1 stopped answering"), "\(path)")
        }
      }
    }
  }

  @Test func aHostThatKeepsDrippingHitsTheTotalLimit() async throws {
    try await CatalogStubServer.with { stub in
      // Every byte comes well within the request limit (0.2 s of 2 s), but the whole would take
      // 20 s, five times the total limit: a margin that holds on a busy machine.
      stub.set(.drip(interval: 0.2, count: 100))
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        _ = try await refreshKeepsTheCatalog(t) {
          $0 == .offline(reason: "127.0.0.1 took too long to answer")
        }
      }
    }
  }

  @Test func aDrippingHostWithinTheTotalLimitIsFine() async throws {
    try await CatalogStubServer.with { stub in
      stub.set(.drip(interval: 0.1, count: 3))
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let update = try await MarketingCatalogRefresh.run(app: t.app)
        #expect(update.succeeded)
      }
    }
  }

  @Test func anHTTPErrorIsShownAsItIs() async throws {
    try await CatalogStubServer.with { stub in
      stub.set(.status(500), for: "2499f739821b5ab3dcd6")
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let update = try await refreshKeepsTheCatalog(t) {
          $0
            == .error(
              message:
                "channel \u{201C}Google AdWords\u{201D}: HTTP 500 from \(stub.baseURL)2499f739821b5ab3dcd6"
            )
        }
        #expect(
          update.message(locale: .enUS).hasPrefix(
            "Refresh failed: channel \u{201C}Google AdWords\u{201D}: HTTP 500 from \(stub.baseURL)2499f739821b5ab3dcd6. Keeping the catalog from "
          ))
        let client = t.client()
        try await client.signUp()
        let page = try await client.get("/marketing")
        #expect(
          page.body.contains(
            "Catalog refresh failed: channel \u{201C}Google AdWords\u{201D}: HTTP 500 from \(stub.baseURL)2499f739821b5ab3dcd6"
          ))
        // Refreshed from the catalog page: the failure is said once (the banner), not also in
        // a message and in the status line.
        try await client.get("/marketing/catalog")
        let refreshed = try await client.post("/marketing/catalog/refresh")
        #expect(refreshed.status == .seeOther)
        let catalog = try await client.get("/marketing/catalog")
        #expect(catalog.body.components(separatedBy: "HTTP 500 from").count == 2)
        #expect(catalog.body.contains("Google AdWords"))
        #expect(!page.body.contains("Offline data from"))
      }
    }
  }

  @Test func aMissingDocumentIsAnHTTPError() async throws {
    var documents = MarketingSamples.documents()
    documents["9789d17ffaf4432dcce0"] = nil
    try await CatalogStubServer.with(documents: documents) { stub in
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        _ = try await refreshKeepsTheCatalog(t) {
          $0
            == .error(
              message:
                "channel \u{201C}SEO\u{201D}: HTTP 404 from \(stub.baseURL)9789d17ffaf4432dcce0")
        }
      }
    }
  }

  @Test func malformedJSONShowsTheDecodingError() async throws {
    try await CatalogStubServer.with { stub in
      stub.set(
        .body(
          "{\"channel\": \"SEO\", \"monthly_fees\": [{\"price\": \"12abc\", \"details\": [], \"currency\": \"EUR\"}]}"
        ), for: "9789d17ffaf4432dcce0")
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        _ = try await refreshKeepsTheCatalog(t) {
          $0
            == .error(
              message:
                "channel \u{201C}SEO\u{201D}: monthly_fees[0].price is not a number")
        }
      }
      stub.set(.body("<html>not json</html>"), for: MarketingCatalog.targetingDocumentID)
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        _ = try await refreshKeepsTheCatalog(t) {
          $0
            == .error(
              message: "targeting document b22fd39c053b256222b1: the document is not valid JSON")
        }
      }
    }
  }

  @Test func noConnectionIsOffline() async throws {
    let port = try await closedLoopbackPort()
    try await withApp(config: fastCatalogConfig("http://127.0.0.1:\(port)/")) { t in
      _ = try await refreshKeepsTheCatalog(t) {
        $0 == .offline(reason: "127.0.0.1 refused the connection")
      }
    }
  }

  @Test func anUnknownHostIsOffline() async throws {
    try await withApp(config: fastCatalogConfig("http://catalog.invalid/")) { t in
      _ = try await refreshKeepsTheCatalog(t) {
        if case .offline(let reason) = $0 { return reason.contains("catalog.invalid") }
        return false
      }
    }
  }

  @Test func aLaterSuccessClearsTheBanner() async throws {
    try await CatalogStubServer.with { stub in
      stub.set(.status(503))
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let failed = try await MarketingCatalogRefresh.run(app: t.app)
        #expect(!failed.succeeded)
        stub.set(.serve)
        let update = try await MarketingCatalogRefresh.run(app: t.app)
        #expect(update.succeeded)
        #expect(update.stored.status == .ok)
        let client = t.client()
        try await client.signUp()
        #expect(!(try await client.get("/marketing").body.contains("mk-banner")))
      }
    }
  }

  @Test func refreshFormNeedsTheCSRFToken() async throws {
    try await withApp(config: fastCatalogConfig("http://127.0.0.1:1/")) { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/marketing/catalog")
      let response = try await client.post("/marketing/catalog/refresh", csrf: false)
      #expect(response.status == .forbidden)
      let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(stored.refreshedAt == nil)
    }
  }

  @Test func theCommandPrintsWhatHappenedAndFailsOnFailure() async throws {
    try await CatalogStubServer.with { stub in
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let console = RecordingConsole()
        try await runCatalogCommand(t.app, console: console, ["refresh"])
        #expect(console.text.contains("Refreshing the marketing catalog from \(stub.baseURL)"))
        #expect(console.text.contains("Catalog refreshed: 15 targets, 6 channels, 23 packages."))

        stub.set(.status(500))
        await #expect {
          try await runCatalogCommand(t.app, console: RecordingConsole(), ["refresh"])
        } throws: { error in
          (error as? StartupError)?.message.hasPrefix(
            "Refresh failed: HTTP 500 from \(stub.baseURL)b22fd39c053b256222b1.") == true
        }

        let port = try await closedLoopbackPort()
        await #expect {
          try await runCatalogCommand(
            t.app, console: RecordingConsole(), ["refresh", "--url", "http://127.0.0.1:\(port)"])
        } throws: { error in
          (error as? StartupError)?.message.hasPrefix(
            "Offline: 127.0.0.1 refused the connection.") == true
        }
        await #expect(throws: StartupError.self) {
          try await runCatalogCommand(
            t.app, console: RecordingConsole(), ["refresh", "--url", "ftp://x"])
        }
      }
    }
  }
}

@Suite("Configuration: marketing catalog")
struct MarketingConfigTests {
  @Test func catalogURLComesFromTheEnvironment() throws {
    let config = try AppConfig.load(from: ["BACKOFFICE_CATALOG_URL": "http://127.0.0.1:9000/docs"])
    #expect(config.catalogBaseURL == "http://127.0.0.1:9000/docs/")
    #expect(throws: ConfigError.self) {
      _ = try AppConfig.load(from: ["BACKOFFICE_CATALOG_URL": "api.npoint.io"])
    }
  }
}

/// Runs `backoffice catalog …` in `app` with `console` as its terminal.
func runCatalogCommand(_ app: Application, console: any Console, _ arguments: [String])
  async throws
{
  var context = CommandContext(
    console: console, input: CommandInput(arguments: ["backoffice"] + arguments))
  context.application = app
  try await CatalogCommand().run(using: &context)
}

/// A console that keeps what is printed.
final class RecordingConsole: Console, @unchecked Sendable {
  private var lines: [String] = []
  var text: String { lines.joined() }
  var userInfo: [AnySendableHashable: any Sendable] = [:]
  var size: (width: Int, height: Int) { (100, 40) }

  func input(isSecure: Bool) -> String { "" }
  func output(_ text: ConsoleText, newLine: Bool) {
    lines.append(text.description + (newLine ? "\n" : ""))
  }
  func clear(_ type: ConsoleClear) {}
  func report(error: String, newLine: Bool) { lines.append(error + (newLine ? "\n" : "")) }
}
