import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Job lease and background jar refresh")
struct JarRefreshJobTests {
  @Test func twoContendersCannotBothHoldTheLease() async throws {
    try await withFundraiserApp { t in
      let now = t.clock.now
      for round in 0..<5 {
        let name = "contended-\(round)"
        let db = t.db
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
          for holder in ["a", "b", "c", "d"] {
            group.addTask {
              try await JobLease.acquire(name, holder: holder, for: 60, now: now, on: db)
            }
          }
          var count = 0
          for try await won in group where won { count += 1 }
          return count
        }
        #expect(winners == 1, "round \(round): \(winners) holders")
      }
    }
  }

  @Test func aLeaseIsFreeOnlyOnceItExpires() async throws {
    try await withFundraiserApp { t in
      let start = t.clock.now
      let db = t.db
      func acquire(_ holder: String, at seconds: TimeInterval) async throws -> Bool {
        try await JobLease.acquire("job", holder: holder, for: 60, now: start + seconds, on: db)
      }
      func renew(_ holder: String, at seconds: TimeInterval) async throws -> Bool {
        try await JobLease.renew("job", holder: holder, for: 60, now: start + seconds, on: db)
      }
      let first = try await acquire("a", at: 0)
      let tooEarly = try await acquire("b", at: 59)
      // The holder itself does not get it again early either: the lease is the schedule.
      let againEarly = try await acquire("a", at: 30)
      let renewed = try await renew("a", at: 30)
      let renewedByOther = try await renew("b", at: 30)
      let beforeRenewedExpiry = try await acquire("b", at: 89)
      let afterExpiry = try await acquire("b", at: 91)
      #expect(first && renewed && afterExpiry)
      #expect(!tooEarly && !againEarly && !renewedByOther && !beforeRenewedExpiry)
      let holder = try await JobLease.current("job", on: db)?.holder
      #expect(holder == "b")
    }
  }

  static func run(_ t: TestApp, holder: String = "me") async throws -> JarRefreshJob.Outcome {
    try await JarRefreshJob.runOnce(
      db: t.db, client: t.app.jarClient, holder: holder, interval: 900, spacing: .zero,
      now: { t.clock.now }, logger: t.app.logger)
  }

  @Test func refreshesDueJarsAndStoresEveryFetch() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 500_000, goal: 1_000_000))
      stub.set("StubJar002", .serviceError(code: "E1", text: "Помилка"))
      try await withFundraiserApp(stub: stub) { t in
        let client = t.client()
        try await client.signUp()
        let good = try await client.addFundraiser(jar: "https://send.monobank.ua/jar/StubJar001")
        let bad = try await client.addFundraiser(jar: "https://send.monobank.ua/jar/StubJar002")
        try await client.addFundraiser(jar: "")

        let first = try await Self.run(t)
        #expect(first == .init(ran: true, refreshed: 1, failed: 1, skipped: 0))
        #expect(try await JarSnapshotTable.query(on: t.db).count() == 2)
        let goodState = try await JarSnapshots.state(
          for: try #require(await FundraiserTable.stored(good, on: t.db)), on: t.db)
        #expect(goodState.lastGood?.amountKopiykas == 500_000)
        let badState = try await JarSnapshots.state(
          for: try #require(await FundraiserTable.stored(bad, on: t.db)), on: t.db)
        #expect(badState.lastError == "Помилка (E1)")

        // Another instance while the lease is held: nothing happens.
        t.clock.advance(by: 60)
        #expect(try await Self.run(t, holder: "other") == .init())

        // After the interval the jars are due again; a failure keeps the good figures.
        t.clock.advance(by: 900)
        stub.set("StubJar001", .slow(seconds: 60))
        let third = try await Self.run(t, holder: "other")
        #expect(third == .init(ran: true, refreshed: 0, failed: 2, skipped: 0))
        let kept = try await JarSnapshots.state(
          for: try #require(await FundraiserTable.stored(good, on: t.db)), on: t.db)
        #expect(kept.lastGood?.amountKopiykas == 500_000)
        #expect(kept.lastError == JarFetchError.timeout.reason)
        #expect(try await JarSnapshotTable.query(on: t.db).count() == 4)
      }
    }
  }

  @Test func skipsJarsAskedRecentlyAndClosedJars() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 100, goal: 200))
      stub.set("StubJar003", .jar(amount: 300, goal: 300, status: "CLOSED"))
      try await withFundraiserApp(stub: stub) { t in
        let client = t.client()
        try await client.signUp()
        let open = try await client.addFundraiser(jar: "https://send.monobank.ua/jar/StubJar001")
        try await client.addFundraiser(jar: "https://send.monobank.ua/jar/StubJar003")
        // A manual refresh a minute ago makes the first one not due.
        let response = try await client.post("/fundraisers/\(open.uuidString.lowercased())/refresh")
        #expect(response.status == .seeOther)
        t.clock.advance(by: 60)
        let first = try await Self.run(t)
        #expect(first == .init(ran: true, refreshed: 1, failed: 0, skipped: 1))
        t.clock.advance(by: 1000)
        let second = try await Self.run(t)
        // The closed jar is not asked again; the open one is.
        #expect(second == .init(ran: true, refreshed: 1, failed: 0, skipped: 1))
        #expect(stub.requests.filter { $0.contains("StubJar003") }.count == 1)
      }
    }
  }

  @Test func theLifecycleLoopStartsOnlyWhenEnabledAndStopsOnShutdown() async throws {
    try await withFundraiserApp { t in
      let lifecycle = JarRefreshLifecycle(pollEvery: .milliseconds(10), firstDelay: .zero)
      try lifecycle.didBoot(t.app)
      // Disabled (0 minutes): no lease is ever taken.
      try await Task.sleep(for: .milliseconds(100))
      #expect(try await JobLease.current(JarRefreshJob.leaseName, on: t.db) == nil)
      await lifecycle.shutdownAsync(t.app)
    }
    let enabled: (inout AppConfig) -> Void = {
      $0.jarRefreshMinutes = 5
      $0.monobankBaseURL = "http://127.0.0.1:9/"
    }
    try await withApp(config: enabled) { t in
      let lifecycle = JarRefreshLifecycle(pollEvery: .milliseconds(10), firstDelay: .zero)
      try lifecycle.didBoot(t.app)
      var lease: (holder: String, expiresAt: Date)?
      // The row is inserted empty first, then taken. Up to 30 s: a busy machine may be slow
      // to schedule the loop, and a passing run stops polling at once.
      for _ in 0..<1500 where lease?.holder.isEmpty ?? true {
        try await Task.sleep(for: .milliseconds(20))
        lease = try await JobLease.current(JarRefreshJob.leaseName, on: t.db)
      }
      #expect(lease?.expiresAt == t.clock.now.addingTimeInterval(300))
      await lifecycle.shutdownAsync(t.app)
    }
  }
}

extension ConfigTests {
  @Test func monobankURLAndJarRefreshSettings() throws {
    let plain = try AppConfig.load(from: [:])
    #expect(plain.monobankBaseURL == "https://send.monobank.ua/")
    #expect(plain.jarRefreshMinutes == 15)
    let set = try AppConfig.load(from: [
      "BACKOFFICE_MONOBANK_URL": "http://127.0.0.1:8099",
      "BACKOFFICE_JAR_REFRESH_MINUTES": "0",
    ])
    #expect(set.monobankBaseURL == "http://127.0.0.1:8099/")
    #expect(set.jarRefreshMinutes == 0)
    #expect {
      _ = try AppConfig.load(from: [
        "BACKOFFICE_MONOBANK_URL": "send.monobank.ua", "BACKOFFICE_JAR_REFRESH_MINUTES": "often",
      ])
    } throws: { error in
      let problems = (error as? ConfigError)?.problems ?? []
      return problems.count == 2 && problems[0].contains("BACKOFFICE_MONOBANK_URL")
        && problems[1].contains("BACKOFFICE_JAR_REFRESH_MINUTES")
    }
  }
}
