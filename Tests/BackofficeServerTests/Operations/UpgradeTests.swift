import Foundation
import GRDB
import Testing
import Vapor

@testable import BackofficeServer

/// What `scripts/make-upgrade-fixture` wrote beside an older release's database: the accounts
/// it made and every record, with the values today's API must still show under today's names.
struct UpgradeManifest: Decodable {
  struct WrittenBy: Decodable {
    var commit: String
    var date: String
    var migrations: [String]
  }

  struct Account: Decodable {
    var email: String
    var password: String
    /// The first API token the old release made; it must still sign API requests in.
    var apiToken: String
    var locale: String
    var currency: String
    /// Ids of the products this account marked as favourites.
    var favorites: [String]

    enum CodingKeys: String, CodingKey {
      case email, password, locale, currency, favorites
      case apiToken = "api_token"
    }
  }

  /// An account that joined another's workspace through an invitation.
  struct Membership: Decodable {
    var account: String
    var workspaceOf: String
    var role: String
    /// A product the member made in that workspace.
    var productMadeThere: String

    enum CodingKeys: String, CodingKey {
      case account, role
      case workspaceOf = "workspace_of"
      case productMadeThere = "product_made_there"
    }
  }

  /// A product created with an `Idempotency-Key`.
  struct Replay: Decodable {
    var owner: String
    var path: String
    var key: String
    var body: [String: String]
    var productID: String

    enum CodingKeys: String, CodingKey {
      case owner, path, key, body
      case productID = "product_id"
    }
  }

  struct Record: Decodable {
    /// product, expense, ad_payment, fundraiser, marketing_plan or import_job.
    var kind: String
    var id: String
    /// The account whose own workspace (before workspaces: whose account) holds the record.
    var owner: String
    /// The API list it appears in; nil for records without one (import jobs).
    var list: String?
    /// Values by today's field name (a dot goes into an object: `jar.link`), compared as text,
    /// as decimal numbers, as whole numbers, as booleans and as instants.
    var text: [String: String]?
    var decimal: [String: String]?
    var integer: [String: Int]?
    var flag: [String: Bool]?
    var date: [String: String]?
    /// Fields that must be null or absent.
    var null: [String]?
    /// Whether the record has a photo (products: `image_url`, fundraisers: `photo_url`).
    var photo: Bool?
    var publicSlug: String?
    var targets: [String]?
    var packages: [String]?
    /// Marketing plans: the monthly total per currency.
    var totals: [String: String]?
    /// Route parameters of the record's own pages (`productID`, `planID` and `channelID`, …).
    var pages: [[String: String]]?

    enum CodingKeys: String, CodingKey {
      case kind, id, owner, list, text, decimal, integer, flag, date, null, photo, targets
      case packages, totals, pages
      case publicSlug = "public_slug"
    }
  }

  var format: Int
  var writtenBy: WrittenBy
  var accounts: [Account]
  var memberships: [Membership]
  var idempotency: [Replay]
  var records: [Record]

  enum CodingKeys: String, CodingKey {
    case format, accounts, memberships, idempotency, records
    case writtenBy = "written_by"
  }
}

/// A data folder written by the first release's schema, and one from each later group of
/// migrations, is a committed fixture (`Fixtures/Upgrades/<date>-<commit>/`, made by
/// `scripts/make-upgrade-fixture`). Today's server starts on a copy of each, migrates it as
/// `swift run backoffice` does on start, and must still show every record and answer every page.
@Suite("Upgrades from every release's data")
struct UpgradeTests {
  /// Every fixture, oldest first. A release whose folder is missing fails; a folder that is
  /// not listed here fails too, so a new fixture is added to this list.
  static let releases = [
    "2026-11-22-ffcd160",
    "2026-11-23-9edaf09",
    "2026-11-24-38c0f81",
    "2026-11-25-cb196b4",
    "2026-11-26-b33711e",
  ]

  static let fixtures: URL = {
    var url = URL(fileURLWithPath: #filePath)
    url.deleteLastPathComponent()  // Operations
    url.deleteLastPathComponent()  // BackofficeServerTests
    return url.appendingPathComponent("Fixtures/Upgrades")
  }()

  /// Pages for signed-out visitors that send a signed-in account on to its home.
  static let signedOutPages: Set<String> = [Routes.signIn.template, Routes.signUp.template]

  @Test func everyFixtureFolderIsListed() throws {
    let found = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
      .filter { !$0.hasPrefix(".") }
    #expect(Set(found) == Set(Self.releases), "fixture folders on disk: \(found.sorted())")
  }

  @Test(arguments: UpgradeTests.releases)
  func todaysServerKeepsEveryRecordAndPage(release: String) async throws {
    let folder = Self.fixtures.appendingPathComponent(release)
    let database = folder.appendingPathComponent("backoffice.sqlite")
    let manifestFile = folder.appendingPathComponent("manifest.json")
    try #require(
      FileManager.default.fileExists(atPath: database.path), "missing \(database.path)")
    try #require(
      FileManager.default.fileExists(atPath: manifestFile.path), "missing \(manifestFile.path)")
    let manifest = try JSONDecoder().decode(
      UpgradeManifest.self, from: try Data(contentsOf: manifestFile))
    #expect(manifest.format == 1)
    #expect(
      release.hasSuffix(manifest.writtenBy.commit), "\(release) was written by another commit")
    #expect(!manifest.records.isEmpty)

    // Today's server works on a copy; the committed file stays as the old release left it.
    let work = FileManager.default.temporaryDirectory
      .appendingPathComponent("backoffice-upgrade-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let copy = work.appendingPathComponent("backoffice.sqlite").path
    try FileManager.default.copyItem(atPath: database.path, toPath: copy)

    let onTheCopy: (inout AppConfig) -> Void = { $0.database = .sqliteFile(path: copy) }
    try await withApp(config: onTheCopy) { t in
      let storage = try #require(t.app.sqliteStorage)
      let integrity = try storage.readNow { db in
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
      }
      #expect(integrity == ["ok"], "\(release): integrity_check after the migrations")
      let orphans = try storage.readNow { db in
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { $0.description }
      }
      #expect(orphans.isEmpty, "\(release): foreign_key_check \(orphans.prefix(5))")

      var workspaces: [String: String] = [:]
      var productCounts: [String: Int] = [:]
      for account in manifest.accounts {
        let checked = try await Self.check(account, of: manifest, release: release, t)
        workspaces[account.email] = checked.workspaceID
        productCounts[account.email] = checked.products
      }
      for membership in manifest.memberships {
        try await Self.check(
          membership, of: manifest, workspaceID: try #require(workspaces[membership.workspaceOf]),
          products: try #require(productCounts[membership.workspaceOf]), release: release, t)
      }
    }
  }

  // MARK: one account

  struct Checked {
    var workspaceID: String
    var products: Int
  }

  static func check(
    _ account: UpgradeManifest.Account, of manifest: UpgradeManifest, release: String,
    _ t: TestApp
  ) async throws -> Checked {
    let who = "\(release) \(account.email)"
    let client = t.client()
    let signedIn = try await client.signIn(email: account.email, password: account.password)
    #expect(signedIn.status == .seeOther, "\(who): sign-in answered \(signedIn.status)")
    let token = try await client.createToken(name: "upgrade check")
    let auth: HTTPHeaders = ["Authorization": "Bearer \(token)"]

    let me = try await client.send(.GET, "/api/v1/me", headers: auth)
    #expect(me.status == .ok, "\(who): /api/v1/me \(me.status)")
    let meJSON = try me.json()
    #expect(meJSON["email"] as? String == account.email, "\(who)")
    #expect(meJSON["locale"] as? String == account.locale, "\(who)")
    #expect(meJSON["currency"] as? String == account.currency, "\(who)")
    // The token the old release handed out still works.
    let old = try await client.send(
      .GET, "/api/v1/me", headers: ["Authorization": "Bearer \(account.apiToken)"])
    #expect(old.status == .ok, "\(who): the old API token answered \(old.status)")

    // Every record is in its list, with its values; each list holds exactly these.
    let records = manifest.records.filter { $0.owner == account.email }
    var listed: [String: [String: [String: Any]]] = [:]
    for path in Set(records.compactMap(\.list)).sorted() {
      let items = try await Self.items(path, client: client, headers: auth, who: who)
      listed[path] = Dictionary(
        items.compactMap { item in (item["id"] as? String).map { ($0.lowercased(), item) } },
        uniquingKeysWith: { first, _ in first })
      let expected = records.filter { $0.list == path }.count
      #expect(items.count == expected, "\(who): \(path) lists \(items.count), expected \(expected)")
    }
    for record in records {
      guard let path = record.list else { continue }
      guard let item = listed[path]?[record.id.lowercased()] else {
        Issue.record("\(who): \(record.kind) \(record.id) is missing from \(path)")
        continue
      }
      Self.compare(record, with: item, who: "\(who) \(record.kind) \(record.id)")
      try await Self.checkPhoto(record, item: item, client: client, headers: auth, who: who)
      if let slug = record.publicSlug {
        let visitor = t.client()
        let page = try await visitor.get("/f/\(slug)")
        #expect(page.status == .ok, "\(who): public page /f/\(slug) answered \(page.status)")
      }
    }

    // Favourites are the account's own.
    let favorites = try await Self.items(
      "/api/v1/favorites", client: client, headers: auth, who: who)
    #expect(
      Set(favorites.compactMap { ($0["id"] as? String)?.lowercased() })
        == Set(account.favorites.map { $0.lowercased() }), "\(who): favourites")

    // The workspace: its members are the account and whoever joined it.
    let workspace = try await client.send(.GET, "/api/v1/workspace", headers: auth).json()
    let workspaceID = try #require(workspace["id"] as? String, "\(who): /api/v1/workspace")
    #expect(workspace["role"] as? String == "owner", "\(who): own workspace role")
    let members = try await client.send(.GET, "/api/v1/workspace/members", headers: auth).json()
    let memberRows = (members["items"] as? [[String: Any]]) ?? []
    var expectedMembers = [account.email: "owner"]
    for membership in manifest.memberships where membership.workspaceOf == account.email {
      expectedMembers[membership.account] = membership.role
    }
    var foundMembers: [String: String] = [:]
    for row in memberRows {
      if let email = row["email"] as? String { foundMembers[email] = row["role"] as? String ?? "" }
    }
    #expect(foundMembers == expectedMembers, "\(who): workspace members")

    // A request sent again with its Idempotency-Key makes nothing new.
    for replay in manifest.idempotency where replay.owner == account.email {
      let body = try JSONSerialization.data(withJSONObject: replay.body, options: [.sortedKeys])
      var headers = auth
      headers.add(name: "Idempotency-Key", value: replay.key)
      headers.contentType = .json
      let again = try await client.send(.POST, replay.path, headers: headers, bytes: body)
      #expect(again.status == .created, "\(who): replay answered \(again.status) \(again.body)")
      let replayed = try? again.json()
      #expect(
        (replayed?["id"] as? String)?.lowercased() == replay.productID.lowercased(),
        "\(who): the replay names another product: \(again.body)")
      let after = try await Self.items(replay.path, client: client, headers: auth, who: who)
      #expect(
        after.count == records.filter { $0.list == replay.path }.count,
        "\(who): the replay made a product")
    }

    // Marketing plans are also on their page.
    let marketing = try await client.get("/marketing")
    for plan in records where plan.kind == "marketing_plan" {
      let name = plan.text?["name"] ?? ""
      #expect(marketing.body.contains(name), "\(who): /marketing does not show \(name)")
    }

    try await Self.walkPages(records: records, client: client, who: who)
    return Checked(
      workspaceID: workspaceID,
      products: records.filter { $0.list == "/api/v1/products" }.count)
  }

  /// A member who joined another's workspace still works there, with the role they had, and
  /// sees its records, their own product among them.
  static func check(
    _ membership: UpgradeManifest.Membership, of manifest: UpgradeManifest, workspaceID: String,
    products: Int, release: String, _ t: TestApp
  ) async throws {
    let who = "\(release) \(membership.account) in \(membership.workspaceOf)'s workspace"
    let account = try #require(manifest.accounts.first { $0.email == membership.account })
    let client = t.client()
    #expect(
      try await client.signIn(email: account.email, password: account.password).status
        == .seeOther)
    try await client.get("/")
    let switched = try await client.post("/workspace/switch", form: [("workspace", workspaceID)])
    #expect(switched.status == .seeOther, "\(who): switching answered \(switched.status)")
    let workspace = try await client.get("/api/v1/workspace").json()
    #expect((workspace["id"] as? String)?.lowercased() == workspaceID.lowercased(), "\(who)")
    #expect(workspace["role"] as? String == membership.role, "\(who): role")
    let items = try await Self.items("/api/v1/products", client: client, headers: [:], who: who)
    #expect(items.count == products, "\(who): \(items.count) products, expected \(products)")
    #expect(
      items.contains {
        ($0["id"] as? String)?.lowercased() == membership.productMadeThere.lowercased()
      }, "\(who): the member's product is missing")
    #expect(try await client.get("/products").status == .ok, "\(who): /products")
  }

  // MARK: comparing

  /// Every item of a paginated list.
  static func items(
    _ path: String, client: TestClient, headers: HTTPHeaders, who: String
  ) async throws -> [[String: Any]] {
    var out: [[String: Any]] = []
    var page = 1
    while page < 50 {
      let separator = path.contains("?") ? "&" : "?"
      let response = try await client.send(
        .GET, "\(path)\(separator)page=\(page)&per_page=100", headers: headers)
      #expect(response.status == .ok, "\(who): \(path) answered \(response.status)")
      guard response.status == .ok else { return out }
      let body = try response.json()
      let items = (body["items"] as? [[String: Any]]) ?? []
      out += items
      let total = body["total"] as? Int
      let more = body["has_more"] as? Bool ?? (total.map { out.count < $0 } ?? false)
      if items.isEmpty || !more { return out }
      page += 1
    }
    return out
  }

  /// The value at `path` (`jar.link` reads `link` inside `jar`); nil when absent or null.
  static func value(_ path: String, in item: [String: Any]) -> Any? {
    var current: Any? = item
    for key in path.split(separator: ".") {
      current = (current as? [String: Any])?[String(key)]
    }
    if current is NSNull { return nil }
    return current
  }

  static func decimal(_ value: Any?) -> Decimal? {
    switch value {
    case let text as String: return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    case let number as NSNumber:
      return Decimal(string: number.stringValue, locale: Locale(identifier: "en_US_POSIX"))
    default: return nil
    }
  }

  static func instant(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let plain = ISO8601DateFormatter()
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return plain.date(from: text) ?? fractional.date(from: text)
  }

  static func compare(_ record: UpgradeManifest.Record, with item: [String: Any], who: String) {
    for (key, expected) in record.text ?? [:] {
      #expect(value(key, in: item) as? String == expected, "\(who): \(key)")
    }
    for (key, expected) in record.decimal ?? [:] {
      let found = decimal(value(key, in: item))
      #expect(
        found != nil && found == decimal(expected),
        "\(who): \(key) is \(String(describing: found)), expected \(expected)")
    }
    for (key, expected) in record.integer ?? [:] {
      #expect((value(key, in: item) as? NSNumber)?.intValue == expected, "\(who): \(key)")
    }
    for (key, expected) in record.flag ?? [:] {
      #expect(value(key, in: item) as? Bool == expected, "\(who): \(key)")
    }
    for (key, expected) in record.date ?? [:] {
      let found = instant(value(key, in: item))
      #expect(
        found != nil && found == instant(expected),
        "\(who): \(key) is \(String(describing: value(key, in: item))), expected \(expected)")
    }
    for key in record.null ?? [] {
      #expect(value(key, in: item) == nil, "\(who): \(key) should be empty")
    }
    if let targets = record.targets {
      #expect(Set(item["targets"] as? [String] ?? []) == Set(targets), "\(who): targets")
    }
    if let packages = record.packages {
      let found = (item["packages"] as? [[String: Any]] ?? []).compactMap {
        $0["package_id"] as? String
      }
      #expect(Set(found) == Set(packages), "\(who): packages \(found)")
    }
    if let totals = record.totals {
      var found: [String: Decimal] = [:]
      for line in item["totals"] as? [[String: Any]] ?? [] {
        if let currency = line["currency"] as? String { found[currency] = decimal(line["amount"]) }
      }
      #expect(found == totals.compactMapValues { decimal($0) }, "\(who): totals \(found)")
    }
  }

  /// A record's photo still loads, from the address today's API gives.
  static func checkPhoto(
    _ record: UpgradeManifest.Record, item: [String: Any], client: TestClient,
    headers: HTTPHeaders, who: String
  ) async throws {
    let field = record.kind == "fundraiser" ? "photo_url" : "image_url"
    guard let photo = record.photo else { return }
    let address = value(field, in: item) as? String
    guard photo else {
      #expect(address == nil, "\(who): \(record.kind) \(record.id) has a photo it did not have")
      return
    }
    guard let address else {
      Issue.record("\(who): \(record.kind) \(record.id) lost its photo (\(field))")
      return
    }
    let path =
      address.hasPrefix("/")
      ? address
      : (URLComponents(string: address).map {
        $0.percentEncodedPath + ($0.percentEncodedQuery.map { "?" + $0 } ?? "")
      } ?? address)
    let response = try await client.send(.GET, path, headers: headers)
    #expect(response.status == .ok, "\(who): \(path) answered \(response.status)")
    #expect(
      response.headers.contentType?.type == "image",
      "\(who): \(path) is \(String(describing: response.headers.contentType))")
  }

  // MARK: pages

  static func parameterNames(_ route: AppRoute) -> Set<String> {
    Set(
      route.template.split(separator: "/").filter { $0.hasPrefix(":") }.map {
        String($0.dropFirst())
      })
  }

  /// Every page of today's route table that takes no parameter, then every page of each
  /// record (its parameters filled from the manifest): 200 for the signed-in account.
  static func walkPages(
    records: [UpgradeManifest.Record], client: TestClient, who: String
  ) async throws {
    let pages = Routes.all.filter {
      $0.method == .GET && $0.template != Routes.metrics.template
    }
    for route in pages where parameterNames(route).isEmpty {
      let response = try await client.get(route.href())
      if signedOutPages.contains(route.template) {
        #expect(response.status == .seeOther, "\(who): \(route) answered \(response.status)")
      } else {
        #expect(response.status == .ok, "\(who): \(route) answered \(response.status)")
      }
    }
    for record in records {
      for parameters in record.pages ?? [] {
        let routes = pages.filter { parameterNames($0) == Set(parameters.keys) }
        #expect(!routes.isEmpty, "\(who): no page of today's takes \(parameters.keys.sorted())")
        for route in routes {
          // A product without a photo has no photo to serve; no fundraiser of an earlier
          // release has published a report, so none has a report poster yet.
          let expected: HTTPStatus =
            record.kind == "product" && record.photo == false && route.template.hasSuffix("/photo")
            ? .notFound : route.template.hasSuffix("/report-poster.svg") ? .conflict : .ok
          let response = try await client.get(route.href(parameters))
          #expect(
            response.status == expected,
            "\(who): \(route.href(parameters)) answered \(response.status)")
        }
      }
    }
  }
}
