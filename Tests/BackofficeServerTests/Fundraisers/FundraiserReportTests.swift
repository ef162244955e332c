import BackofficeCore
import Crypto
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Linked expenses and receipts written straight to the database, as the expense form will.
enum ReportFixtures {
  static func workspace(of fundraiser: UUID, _ t: TestApp) async throws -> UUID {
    try #require(await FundraiserTable.stored(fundraiser, on: t.db)).workspaceID
  }

  static func setCurrency(_ currency: String, workspace: UUID, _ t: TestApp) async throws {
    let record = try #require(await WorkspaceTable.find(workspace, on: t.db))
    record.currency = currency
    try await record.save(on: t.db)
  }

  @discardableResult
  static func expense(
    _ t: TestApp, workspace: UUID, fundraiser: UUID?, _ title: String, _ amount: String,
    day: Int = 1, deleted: Bool = false
  ) async throws -> UUID {
    let date = Date(timeIntervalSince1970: 1_767_225_600 + Double(day) * 86_400)
    let store = ExpenseStore(db: t.db, workspaceID: workspace)
    let record = try await store.create(
      Expense(
        title: title, amount: try #require(Decimal(string: amount)), category: .default,
        date: date), fundraiserID: fundraiser, now: t.clock.now)
    if deleted { try await store.softDelete(record, now: t.clock.now) }
    return record.id
  }

  @discardableResult
  static func receipt(
    _ t: TestApp, workspace: UUID, expense: UUID, public isPublic: Bool, position: Int = 0
  ) async throws -> UUID {
    let data = FundraiserImages.png(width: 8 + position, height: 12)
    let record = ExpenseReceiptTable()
    record.id = UUID()
    record.workspaceID = workspace
    record.expenseID = expense
    record.data = data
    record.mime = "image/png"
    record.width = 8 + position
    record.height = 12
    record.etag = hexString(SHA256.hash(data: data))
    record.isPublic = isPublic
    record.position = position
    record.createdAt = t.clock.now
    try await record.create(on: t.db)
    return try record.requireID()
  }
}

extension TestClient {
  /// Opens the fundraiser's page (for its CSRF token and version) and posts a stage move.
  @discardableResult
  func moveFundraiser(_ id: UUID, to stage: String, version: String? = nil) async throws
    -> TestResponse
  {
    let path = "/fundraisers/\(id.uuidString.lowercased())"
    try await get(path)
    var form = [("stage", stage)]
    if let version { form.append((VersionField.name, version)) }
    return try await post(path + "/stage", form: form)
  }
}

@Suite("Fundraisers: stages and reports", .ukrainian)
struct FundraiserReportTests {
  static func path(_ id: UUID) -> String { "/fundraisers/\(id.uuidString.lowercased())" }

  static func record(_ id: UUID, _ t: TestApp) async throws -> FundraiserRecord {
    try #require(await FundraiserTable.stored(id, on: t.db))
  }

  // MARK: lifecycle

  @Test("active → closed (one last reading) → reported (page on) → closed → active")
  func lifecycle() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 500_000, goal: 1_000_000))
      try await withFundraiserApp(stub: stub) { t in
        let owner = t.client()
        try await owner.signUp()
        let id = try await owner.addFundraiser()
        let page = try await owner.get(Self.path(id))
        #expect(page.body.contains(#"id="fr-stage">Триває<"#))
        #expect(page.body.contains(">Закрити збір</summary>"))
        #expect(!page.body.contains("Опублікувати звіт"))

        let closed = try await owner.moveFundraiser(id, to: "closed")
        #expect(closed.status == .seeOther)
        var record = try await Self.record(id, t)
        #expect(record.stage == .closed)
        #expect(record.closedAt != nil)
        #expect(stub.requests.count == 1, "closing reads the jar once")
        let state = try await JarSnapshots.state(for: record, on: t.db)
        #expect(state.lastGood?.amountKopiykas == 500_000)
        let after = try await owner.get(Self.path(id))
        #expect(after.body.contains("Збір закрито. Банку більше не читають."))
        #expect(after.body.contains(#"id="fr-stage">Закрито<"#))
        #expect(after.body.contains(">Опублікувати звіт</summary>"))
        #expect(after.body.contains(">Відновити збір</summary>"))
        #expect(!after.body.contains(">Оновити</button>"), "a closed jar offers no refresh")

        #expect(try await owner.moveFundraiser(id, to: "reported").status == .seeOther)
        record = try await Self.record(id, t)
        #expect(record.stage == .reported)
        #expect(record.reportedAt != nil && record.isPublic && record.publicSlug != nil)
        #expect(stub.requests.count == 1, "publishing does not read the jar")
        let slug = try #require(record.publicSlug)

        #expect(try await owner.moveFundraiser(id, to: "closed").status == .seeOther)
        record = try await Self.record(id, t)
        #expect(record.stage == .closed && record.reportedAt == nil)
        #expect(record.isPublic, "taking the report down leaves the page as it was")
        #expect(try await owner.get(Self.path(id)).body.contains("Звіт знято. Збір закрито."))

        #expect(try await owner.moveFundraiser(id, to: "active").status == .seeOther)
        record = try await Self.record(id, t)
        #expect(record.stage == .active && record.closedAt == nil)
        #expect(record.publicSlug == slug)
      }
    }
  }

  @Test("moves that are not one step away, and unknown stages, change nothing")
  func illegalMoves() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(jar: "")
      for stage in ["reported", "active", "done", ""] {
        let response = try await owner.moveFundraiser(id, to: stage)
        #expect(response.status == .seeOther, "\(stage)")
        let record = try await Self.record(id, t)
        #expect(record.stage == .active, "\(stage)")
        #expect(record.isPublic == false && record.reportedAt == nil, "\(stage)")
        let page = try await owner.get(Self.path(id))
        #expect(
          page.body.contains("не можна перевести") || page.body.contains("Невідомий етап"),
          "\(stage): \(page.body.contains("flash"))")
      }
    }
  }

  @Test("a move from a page opened before another change is refused")
  func staleVersion() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(jar: "")
      let opened = try await Self.record(id, t).version
      #expect(try await owner.moveFundraiser(id, to: "closed").status == .seeOther)
      #expect(try await Self.record(id, t).stage == .closed)
      // The old tab: its version is the one before the close.
      let stale = try await owner.moveFundraiser(id, to: "reported", version: String(opened))
      #expect(stale.status == .seeOther)
      #expect(try await Self.record(id, t).stage == .closed)
      #expect(try await owner.get(Self.path(id)).body.contains("Цей збір змінили"))
      // Without a version at all: stale too.
      let path = Self.path(id)
      try await owner.get(path)
      _ = try await owner.post(path + "/stage", form: [("stage", "reported"), ("version", "")])
      #expect(try await Self.record(id, t).stage == .closed)
    }
  }

  @Test("a viewer sees the stage but no moves, and the server refuses theirs")
  func viewerRefused() async throws {
    try await withApp { t in
      let team = try await Team.make(t)
      let id = try await team.owner.addFundraiser(jar: "")
      let page = try await team.viewer.get(Self.path(id))
      #expect(page.status == .ok)
      #expect(page.body.contains(#"id="fr-stage">Триває<"#))
      #expect(!page.body.contains("fr-stage-move"))
      let refused = try await team.viewer.post(
        Self.path(id) + "/stage", form: [("stage", "closed"), ("version", "1")])
      #expect(refused.status == .forbidden)
      #expect(try await Self.record(id, t).stage == .active)
      // An editor may.
      #expect(try await team.editor.moveFundraiser(id, to: "closed").status == .seeOther)
      #expect(try await Self.record(id, t).stage == .closed)
    }
  }

  @Test("closing with a jar that fails still closes; the last good reading stands")
  func closeWithBrokenJar() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 123_456, goal: nil))
      try await withFundraiserApp(stub: stub) { t in
        let owner = t.client()
        try await owner.signUp()
        let id = try await owner.addFundraiser()
        try await owner.post(Self.path(id) + "/refresh")
        stub.set("StubJar001", .serviceError(code: "E1", text: "Помилка"))
        #expect(try await owner.moveFundraiser(id, to: "closed").status == .seeOther)
        let record = try await Self.record(id, t)
        #expect(record.stage == .closed)
        #expect(stub.requests.count == 2)
        let report = try await FundraiserReport.load(
          fundraiser: record, workspaceID: record.workspaceID, on: t.db)
        #expect(report.raised == Decimal(string: "1234.56"))
      }
    }
  }

  @Test("closed fundraisers' jars are asked by nobody: job, refresh all, refresh, public page")
  func closedAreNotAsked() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 100, goal: nil))
      stub.set("StubJar002", .jar(amount: 200, goal: nil))
      try await withFundraiserApp(stub: stub) { t in
        let owner = t.client()
        try await owner.signUp()
        try await owner.addFundraiser(jar: "https://send.monobank.ua/jar/StubJar001")
        let closed = try await owner.addFundraiser(jar: "https://send.monobank.ua/jar/StubJar002")
        let publicPath = try await FundraiserPublicPageTests.publish(owner, id: closed)
        #expect(try await owner.moveFundraiser(closed, to: "closed").status == .seeOther)
        func asked(_ jar: String) -> Int { stub.requests.filter { $0.contains(jar) }.count }
        let before = asked("StubJar002")
        #expect(before == 1, "the last reading")

        t.clock.advance(by: 3600)
        let outcome = try await JarRefreshJobTests.run(t)
        #expect(outcome.refreshed == 1)
        #expect(asked("StubJar001") == 1)

        t.clock.advance(by: 3600)
        try await owner.get("/fundraisers")
        #expect(try await owner.post("/fundraisers/refresh").status == .seeOther)
        #expect(asked("StubJar001") == 2)

        let single = try await owner.post(Self.path(closed) + "/refresh")
        #expect(single.status == .seeOther)
        #expect(try await owner.get(Self.path(closed)).body.contains("Цей збір закрито"))

        t.clock.advance(by: 3600)
        let visit = try await t.client().get(publicPath, headers: ["Accept-Language": "uk"])
        #expect(visit.status == .ok)
        #expect(visit.body.contains("Збір завершено"))
        #expect(!visit.body.contains("fp-donate"), "a closed fundraiser asks for no money")
        #expect(asked("StubJar002") == before)
      }
    }
  }

  // MARK: money

  @Test("spent is the exact sum of this fundraiser's live expenses in this workspace")
  func moneyIsExact() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 500_010, goal: nil))
      try await withFundraiserApp(stub: stub) { t in
        let owner = t.client()
        try await owner.signUp()
        let id = try await owner.addFundraiser()
        let other = try await owner.addFundraiser(jar: "")
        try await owner.post(Self.path(id) + "/refresh")
        let ws = try await ReportFixtures.workspace(of: id, t)
        try await ReportFixtures.setCurrency("UAH", workspace: ws, t)
        try await ReportFixtures.expense(
          t, workspace: ws, fundraiser: id, "Батарейки", "0.10", day: 1)
        try await ReportFixtures.expense(t, workspace: ws, fundraiser: id, "Кабель", "0.20", day: 3)
        try await ReportFixtures.expense(
          t, workspace: ws, fundraiser: id, "Дрон", "1234.56", day: 2)
        try await ReportFixtures.expense(
          t, workspace: ws, fundraiser: id, "Видалена", "999", deleted: true)
        try await ReportFixtures.expense(t, workspace: ws, fundraiser: other, "Чужий збір", "50")
        try await ReportFixtures.expense(t, workspace: ws, fundraiser: nil, "Без збору", "70")
        // Another workspace's expense that names this fundraiser's id never counts.
        let stranger = t.client()
        try await stranger.signUp(email: "stranger@example.com")
        let strangerID = try #require(
          try await Accounts.find(email: "stranger@example.com", on: t.db)?.id)
        let strangerWS = try #require(try await WorkspaceStore(db: t.db).own(of: strangerID)?.id)
        try await ReportFixtures.expense(
          t, workspace: strangerWS, fundraiser: id, "Чужий простір", "777")

        let record = try await Self.record(id, t)
        let report = try await FundraiserReport.load(fundraiser: record, workspaceID: ws, on: t.db)
        #expect(report.raised == Decimal(string: "5000.10"))
        #expect(report.spent == Decimal(string: "1234.86"))
        #expect(report.spentOther.isEmpty)
        #expect(report.remaining == Decimal(string: "3765.24"))
        #expect(report.purchases.map(\.title) == ["Кабель", "Дрон", "Батарейки"])

        let page = try await owner.get(Self.path(id))
        #expect(page.body.contains("1\u{00A0}234,86\u{00A0}грн."))
        #expect(page.body.contains("3\u{00A0}765,24\u{00A0}грн."))
        #expect(!page.body.contains("Видалена") && !page.body.contains("Чужий"))
        #expect(page.body.contains("/expenses?fundraiser=\(id.uuidString.lowercased())"))

        // More spent than raised: said so, never a negative "remaining".
        try await ReportFixtures.expense(t, workspace: ws, fundraiser: id, "Авто", "4000")
        let over = try await owner.get(Self.path(id))
        #expect(over.body.contains("Перевитрата"))
        #expect(over.body.contains("234,76\u{00A0}грн."))
      }
    }
  }

  @Test("a workspace in another currency: its spending is listed apart, never added to hryvnias")
  func otherCurrency() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(jar: "")
      let ws = try await ReportFixtures.workspace(of: id, t)
      try await ReportFixtures.setCurrency("USD", workspace: ws, t)
      try await ReportFixtures.expense(t, workspace: ws, fundraiser: id, "Rifle scope", "120")
      try await ReportFixtures.expense(t, workspace: ws, fundraiser: id, "Tape", "0.50")
      let report = try await FundraiserReport.load(
        fundraiser: try await Self.record(id, t), workspaceID: ws, on: t.db)
      #expect(report.spent == 0)
      #expect(report.spentOther == [.init(currency: "USD", amount: Decimal(string: "120.5")!)])
      #expect(report.remaining == nil)
      let page = try await owner.get(Self.path(id))
      #expect(page.body.contains("Також витрачено: 120,50\u{00A0}USD"))
      #expect(!page.body.contains("fr-money-spent"), "no \"spent: 0 UAH\" beside the dollars")
    }
  }

  @Test("an empty report says how to link expenses")
  func emptyReport() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(jar: "")
      let page = try await owner.get(Self.path(id))
      #expect(page.body.contains("Витрат ще не прив"))
      #expect(page.body.contains("/expenses/new?fundraiser=\(id.uuidString.lowercased())"))
    }
  }

  // MARK: public report

  @Test("the public report shows public receipts only; the receipt route answers only for them")
  func publicReport() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(jar: "")
      let otherID = try await owner.addFundraiser(jar: "")
      let ws = try await ReportFixtures.workspace(of: id, t)
      try await ReportFixtures.setCurrency("UAH", workspace: ws, t)
      let bought = try await ReportFixtures.expense(
        t, workspace: ws, fundraiser: id, "Тепловізор", "25000")
      let shown = try await ReportFixtures.receipt(t, workspace: ws, expense: bought, public: true)
      let hidden = try await ReportFixtures.receipt(
        t, workspace: ws, expense: bought, public: false, position: 1)
      let deleted = try await ReportFixtures.expense(
        t, workspace: ws, fundraiser: id, "Скасована покупка", "10", deleted: true)
      let ofDeleted = try await ReportFixtures.receipt(
        t, workspace: ws, expense: deleted, public: true)
      let elsewhere = try await ReportFixtures.expense(
        t, workspace: ws, fundraiser: otherID, "Інший збір", "20")
      let ofOther = try await ReportFixtures.receipt(
        t, workspace: ws, expense: elsewhere, public: true)
      func text(_ id: UUID) -> String { id.uuidString.lowercased() }

      let path = try await FundraiserPublicPageTests.publish(owner, id: id)
      let visitor = t.client()
      func receipt(_ receiptID: UUID) async throws -> TestResponse {
        try await visitor.get(path + "/receipts/" + text(receiptID))
      }
      // The page is on but the report is not published: no report, no receipts.
      #expect(!(try await visitor.get(path)).body.contains("fp-report"))
      #expect(try await receipt(shown).status == .notFound)

      try await owner.moveFundraiser(id, to: "closed")
      try await owner.moveFundraiser(id, to: "reported")
      let page = try await visitor.get(path, headers: ["Accept-Language": "uk"])
      #expect(page.status == .ok)
      #expect(page.body.contains("fp-report"))
      #expect(page.body.contains("Тепловізор"))
      #expect(page.body.contains("25\u{00A0}000\u{00A0}грн."))
      #expect(page.body.contains(text(shown)))
      for leak in [text(hidden), text(ofDeleted), text(ofOther), "Скасована", "Інший збір"] {
        #expect(!page.body.contains(leak), "\(leak)")
      }
      #expect(!page.body.contains("/expenses/"), "no owner routes on the public page")
      let english = try await visitor.get(path, headers: ["Accept-Language": "en"])
      #expect(english.body.contains(">Report</h2>") && english.body.contains("Spent"))

      let image = try await receipt(shown)
      #expect(image.status == .ok)
      #expect(image.headers.first(name: .contentType) == "image/png")
      #expect(image.headers.first(name: .cacheControl) == "public, no-cache")
      let etag = try #require(image.headers.first(name: .eTag))
      #expect(
        try await visitor.get(
          path + "/receipts/" + text(shown), headers: ["If-None-Match": etag]
        ).status == .notModified)
      for refused in [hidden, ofDeleted, ofOther, UUID()] {
        #expect(try await receipt(refused).status == .notFound, "\(refused)")
      }
      #expect(try await visitor.get(path + "/receipts/not-an-id").status == .notFound)

      // Taken down: the receipt goes with the report.
      try await owner.moveFundraiser(id, to: "closed")
      #expect(try await receipt(shown).status == .notFound)
      #expect(!(try await visitor.get(path)).body.contains("fp-report"))
      // Published again but the page switched off: nothing.
      try await owner.moveFundraiser(id, to: "reported")
      #expect(try await receipt(shown).status == .ok)
      try await owner.post(Self.path(id) + "/public", form: [("public", "0")])
      #expect(try await receipt(shown).status == .notFound)
    }
  }

  // MARK: report poster

  @Test("the report poster: only for a published report in hryvnias, in three formats")
  func reportPoster() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(jar: "", template: 7)
      let ws = try await ReportFixtures.workspace(of: id, t)
      try await ReportFixtures.setCurrency("UAH", workspace: ws, t)
      try await ReportFixtures.expense(t, workspace: ws, fundraiser: id, "Тепловізор", "25000")
      let poster = Self.path(id) + "/report-poster.svg"
      let early = try await owner.get(poster)
      #expect(early.status == .conflict)
      #expect(early.body.contains("спершу опублікуйте звіт"))
      #expect(!(try await owner.get(Self.path(id))).body.contains("report-poster.svg"))

      try await owner.moveFundraiser(id, to: "closed")
      try await owner.moveFundraiser(id, to: "reported")
      let page = try await owner.get(Self.path(id))
      for format in ["post", "portrait", "story"] {
        #expect(
          page.body.contains("report-poster.svg?download=1&amp;format=\(format)"), "\(format)")
      }
      #expect(page.body.contains("data-report-png"))
      let story = try await owner.get(poster + "?format=story")
      #expect(story.status == .ok)
      #expect(story.headers.first(name: .contentType)?.hasPrefix("image/svg+xml") == true)
      #expect(story.body.contains(#"height="1920""#))
      #expect(story.body.contains("Тепловізор"))
      let etag = try #require(story.headers.first(name: .eTag))
      let again = try await owner.get(poster + "?format=story", headers: ["If-None-Match": etag])
      #expect(again.status == .notModified)
      // The browser keeps the 304's headers with its copy: the poster's own policy, not the
      // pages' (which would block the inline styles of a poster opened after a page showed it).
      #expect(
        again.headers.first(name: "Content-Security-Policy")
          == FundraiserPosters.contentSecurityPolicy)
      let download = try await owner.get(poster + "?format=portrait&download=1")
      #expect(
        download.headers.first(name: .contentDisposition)
          == #"attachment; filename="zvit-07-portrait.svg""#)

      // Another currency: the poster would call dollars hryvnias.
      try await ReportFixtures.setCurrency("USD", workspace: ws, t)
      #expect(try await owner.get(poster).status == .conflict)
      // Taken down: no poster.
      try await ReportFixtures.setCurrency("UAH", workspace: ws, t)
      try await owner.moveFundraiser(id, to: "closed")
      #expect(try await owner.get(poster).status == .conflict)
    }
  }

  // MARK: API

  @Test("API: stage in the JSON, moves with If-Match, the report")
  func api() async throws {
    try await withFundraiserApp { t in
      let team = try await Team.make(t)
      let id = try await team.owner.addFundraiser(jar: "")
      try await ReportFixtures.setCurrency("UAH", workspace: team.workspaceID, t)
      let expense = try await ReportFixtures.expense(
        t, workspace: team.workspaceID, fundraiser: id, "Аптечки", "1500.25", day: 5)
      let shown = try await ReportFixtures.receipt(
        t, workspace: team.workspaceID, expense: expense, public: true)
      let hidden = try await ReportFixtures.receipt(
        t, workspace: team.workspaceID, expense: expense, public: false, position: 1)
      let token = try await team.owner.createToken()
      let headers = FundraiserAPITests.bearer(token)
      let api = t.client()
      let base = "/api/v1/fundraisers/\(id.uuidString.lowercased())"

      let got = try await api.send(.GET, base, headers: headers)
      #expect(try got.json()["stage"] as? String == "active")
      let version = try #require(got.headers.first(name: .eTag))

      var stale = headers
      stale.replaceOrAdd(name: .ifMatch, value: "\"999\"")
      let refused = try await api.send(
        .POST, base + "/stage", headers: stale, body: #"{"stage":"closed"}"#)
      #expect(refused.status == .preconditionFailed)
      #expect(try await Self.record(id, t).stage == .active)

      var current = headers
      current.replaceOrAdd(name: .ifMatch, value: version)
      let moved = try await api.send(
        .POST, base + "/stage", headers: current, body: #"{"stage":"closed"}"#)
      #expect(moved.status == .ok, "\(moved.body)")
      let movedJSON = try moved.json()
      #expect(movedJSON["stage"] as? String == "closed")
      #expect(movedJSON["closed_at"] is String)
      #expect(moved.headers.first(name: .eTag) != version)

      let again = try await api.send(
        .POST, base + "/stage", headers: headers, body: #"{"stage":"closed"}"#)
      #expect(again.status == .conflict)
      #expect(
        try again.json()["error"].flatMap { ($0 as? [String: Any])?["code"] as? String }
          == "stage_not_allowed")
      let unknown = try await api.send(
        .POST, base + "/stage", headers: headers, body: #"{"stage":"finished"}"#)
      #expect(unknown.status == .unprocessableEntity)
      let refresh = try await api.send(.POST, base + "/refresh", headers: headers)
      #expect(refresh.status == .conflict, "no jar comes first, but either way no reading")

      let viewerToken = try await team.viewer.createToken()
      let viewerMove = try await api.send(
        .POST, base + "/stage", headers: FundraiserAPITests.bearer(viewerToken),
        body: #"{"stage":"reported"}"#)
      #expect(viewerMove.status == .forbidden)
      #expect(try await Self.record(id, t).stage == .closed)

      let report = try await api.send(.GET, base + "/report", headers: headers)
      #expect(report.status == .ok)
      let json = try report.json()
      #expect(json["spent"] as? String == "1500.25")
      #expect(json["currency"] as? String == "UAH")
      #expect(json["raised"] is NSNull || json["raised"] == nil)
      #expect((json["spent_other"] as? [Any])?.isEmpty == true)
      let purchases = try #require(json["purchases"] as? [[String: Any]])
      #expect(purchases.count == 1)
      #expect(purchases.first?["expense_id"] as? String == expense.uuidString.lowercased())
      #expect(purchases.first?["amount"] as? String == "1500.25")
      let receipts = try #require(purchases.first?["receipts"] as? [[String: Any]])
      #expect(
        receipts.map { $0["id"] as? String } == [shown, hidden].map { $0.uuidString.lowercased() })
      #expect(receipts.map { $0["public"] as? Bool } == [true, false])
    }
  }
}
