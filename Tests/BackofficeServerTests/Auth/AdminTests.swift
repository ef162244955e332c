import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Administrators: only they change what every account shares")
struct AdminTests {
  @Test func theFirstAccountIsTheAdministratorAndOnlyIt() async throws {
    try await withApp { t in
      try await t.client().signUp(email: "first@example.com")
      try await t.client().signUp(email: "second@example.com")
      let users = try await Accounts.all(on: t.db)
      #expect(users.map(\.email) == ["first@example.com", "second@example.com"])
      #expect(users.map(\.isAdmin) == [true, false])
    }
  }

  @Test func accountsMadeAtOnceOnAnEmptyServerGiveOneAdministrator() async throws {
    try await withApp { t in
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<6 {
          group.addTask { try await t.client().signUp(email: "racer\(index)@example.com") }
        }
        try await group.waitForAll()
      }
      #expect(try await Accounts.all(on: t.db).filter(\.isAdmin).count == 1)
    }
  }

  /// Two accounts whose transactions overlap: the first is held open after its claim while
  /// the second is created. A claim that reads "is there an administrator yet?" lets both
  /// through on PostgreSQL (each sees the other's row as not yet there); the claim row's
  /// fixed key makes the second wait for the first and then find the place taken.
  @Test func overlappingCreationsGiveOneAdministrator() async throws {
    try await withApp { t in
      let (held, holding) = AsyncStream.makeStream(of: Void.self)
      let (releasing, release) = AsyncStream.makeStream(of: Void.self)
      let first = Task {
        _ = try await Accounts.create(
          User(email: "held@example.com", passwordHash: "x", locale: "en-US", currency: "USD"),
          on: t.db,
          beforeCommit: {
            holding.yield()
            for await _ in releasing { break }
          })
      }
      for await _ in held { break }
      let second = Task {
        _ = try await Accounts.create(
          User(email: "overlap@example.com", passwordHash: "x", locale: "en-US", currency: "USD"),
          on: t.db)
      }
      // Give the second creation time to reach its claim; it must not finish before the
      // first one commits, however long that takes.
      try await Task.sleep(for: .milliseconds(300))
      release.yield()
      try await first.value
      try await second.value
      let admins = try await Accounts.all(on: t.db).filter(\.isAdmin)
      #expect(admins.map(\.email) == ["held@example.com"])
    }
  }

  @Test func othersDoNotFindTheCatalogControls() async throws {
    try await withApp { t in
      let admin = t.client()
      try await admin.signUp(email: "admin@example.com")
      let member = t.client()
      try await member.signUp(email: "member@example.com")

      let adminPage = try await admin.get("/marketing/catalog")
      #expect(adminPage.body.contains("Refresh catalog"))
      #expect(adminPage.body.contains("Upload a catalog"))
      #expect(!adminPage.body.contains("mk-admin-only"))

      let memberPage = try await member.get("/marketing/catalog")
      #expect(memberPage.status == .ok, "everyone may read the catalog")
      #expect(!memberPage.body.contains("Refresh catalog"))
      #expect(!memberPage.body.contains("Upload a catalog"))
      #expect(memberPage.body.contains("Only the server's administrator can refresh"))

      #expect(try await member.post("/marketing/catalog/refresh").status == .notFound)
      let upload = try await member.upload(
        "/marketing/catalog/import", files: [("catalog.json", Data("{}".utf8))])
      #expect(upload.status == .notFound)
      let token = try await member.createToken()
      let api = try await member.apiJSON(.POST, "/api/v1/marketing/catalog/refresh", token: token)
      #expect(api.status == .notFound)
      #expect(api.body.contains(#""code":"not_found""#))
      let stored = try await MarketingCatalogStore.current(on: t.db, now: t.clock.now)
      #expect(stored.source == .bundled, "nothing was replaced")
    }
  }

  @Test func theCommandLineCanMakeMoreAdministrators() async throws {
    try await withApp { t in
      try await t.client().signUp(email: "first@example.com")
      let made = User(email: "ops@example.com", passwordHash: "x", locale: "en-US", currency: "USD")
      _ = try await Accounts.create(made, admin: true, on: t.db)
      let plain = User(
        email: "plain@example.com", passwordHash: "x", locale: "en-US", currency: "USD")
      _ = try await Accounts.create(plain, on: t.db)
      let admins = try await Accounts.all(on: t.db).filter(\.isAdmin)
      #expect(admins.map(\.email) == ["first@example.com", "ops@example.com"])
    }
  }

  /// An existing server: its oldest account becomes the administrator.
  @Test func theMigrationMakesTheOldestAccountTheAdministrator() async throws {
    try await withApp { t in
      try await t.client().signUp(email: "newer@example.com")
      try await t.client().signUp(email: "older@example.com")
      let migration = M060_BrowserSessionsAndAdmins()
      try await migration.revert(on: t.db)
      let sql = try t.db.sql()
      try await sql.raw(
        """
        UPDATE users SET created_at = \(bind: Date(timeIntervalSince1970: 1_000))
        WHERE email = 'older@example.com'
        """
      ).run()
      try await migration.prepare(on: t.db)
      let admins = try await Accounts.all(on: t.db).filter(\.isAdmin)
      #expect(admins.map(\.email) == ["older@example.com"])
    }
  }
}

@Suite("Outgoing requests stay on their configured host")
struct OutgoingRedirectTests {
  @Test func aRedirectToAnotherHostIsNotFollowed() async throws {
    try await CatalogStubServer.with { elsewhere in
      try await CatalogStubServer.with { stub in
        stub.set(.redirect(elsewhere.baseURL + MarketingCatalog.targetingDocumentID))
        try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
          let update = try await MarketingCatalogRefresh.run(app: t.app)
          #expect(!update.succeeded)
          #expect(update.message(locale: .resolve("en-US")).contains("another host"))
          #expect(elsewhere.hits.isEmpty, "the other host was never asked")
        }
      }
    }
  }

  @Test func aRedirectOnTheSameHostIsFollowed() async throws {
    try await CatalogStubServer.with { stub in
      let id = MarketingCatalog.targetingDocumentID
      stub.set(.redirect("/moved-\(id)"), for: id)
      var documents = MarketingSamples.documents()
      documents["moved-\(id)"] = documents[id]
      stub.set(documents: documents)
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let update = try await MarketingCatalogRefresh.run(app: t.app)
        #expect(update.succeeded, "\(update.message(locale: .resolve("en-US")))")
        #expect(stub.hits.contains("moved-\(id)"))
      }
    }
  }

  @Test func theJarClientFollowsNoRedirect() async throws {
    try await withJarStub { elsewhere in
      elsewhere.set("StubJar001", .jar(amount: 1, goal: 2))
      try await withJarStub { stub in
        stub.set("StubJar001", .redirect(elsewhere.baseURL + "api/handler"))
        try await withFundraiserApp(stub: stub) { t in
          let result = await t.app.jarClient.fetch(JarClientTests.jar)
          guard case .failure = result else {
            Issue.record("a redirect was taken for an answer: \(result)")
            return
          }
          #expect(elsewhere.requests.isEmpty, "the other host was never asked")
        }
      }
    }
  }
}
