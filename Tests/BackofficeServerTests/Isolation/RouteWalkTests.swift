import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Makes one record for the signed-in `owner` and returns its id, as used in a route parameter.
typealias RecordMaker = @Sendable (TestApp, TestClient) async throws -> String

/// How to make a record for every route parameter. A new route with a parameter that has no
/// entry here fails `everyParameterHasAMaker`, so no route escapes the walk.
enum IsolationFixtures {
  static let makers: [String: RecordMaker] = [
    "tokenID": { t, owner in
      _ = try await owner.createToken(name: "owned")
      let token = try await APITokenTable.query(on: t.db).sort(\.$createdAt, .descending).first()
      return try #require(token?.id).uuidString
    },
    "productID": { t, owner in
      try await owner.addProduct(name: "owned product", photo: ProductImages.png(), db: t.db)
        .uuidString
    },
    "fundraiserID": { _, owner in
      try await owner.addFundraiser(purpose: "owned fundraiser", jar: "").uuidString
    },
    // A public page the owner has closed: the same 404 for everyone, its owner included.
    "slug": { t, owner in
      let id = try await owner.addFundraiser(purpose: "owned public page", jar: "")
      let record = try #require(await FundraiserTable.find(id, on: t.db))
      let slug = PublicSlug.make()
      record.publicSlug = slug
      record.isPublic = false
      try await record.save(on: t.db)
      return slug
    },
    "photoID": { t, owner in
      let id = try await owner.addFundraiser(purpose: "owned photo", jar: "")
      return try #require(await FundraiserPhotos.reference(for: id, on: t.db)).id.uuidString
    },
    "entryID": { t, owner in
      try await owner.addAdPayment(name: "owned entry", url: "https://owned.example.com", db: t.db)
        .uuidString
    },
    "planID": { _, owner in try await owner.newPlan() },
    // Channels are shared catalog data; the plan in the same route is what another account owns.
    "channelID": { _, _ in "0af1bfee844a7003cec5" },
    "expenseID": { t, owner in
      try await owner.addExpense(title: "owned expense", amount: "5", db: t.db).uuidString
    },
    // A public receipt of an expense (of another record than the route's other ids name).
    "receiptID": { t, owner in
      let expense = try await owner.addExpenseWithReceipts(
        title: "owned receipt", amount: "5", receipts: [(ProductImages.png(), "r.png")],
        isPublic: true, db: t.db)
      let receipt = try await ExpenseReceiptTable.query(on: t.db)
        .filter(\.$expenseID == expense).first()
      return try #require(receipt?.id).uuidString
    },
    // The owner's own account: a member of the owner's workspace, of no other.
    "userID": { _, owner in
      try #require(try await owner.get("/api/v1/me").json()["id"] as? String)
    },
    "invitationID": { t, owner in
      try await owner.get("/settings/members")
      let made = try await owner.post(
        "/settings/invitations", form: [("role", "editor"), ("days", "7")])
      #expect(made.status == .created)
      let invitation = try await InvitationTable.query(on: t.db).sort(\.$createdAt, .descending)
        .first()
      return try #require(invitation?.id).uuidString
    },
    // An invitation's link is a secret its holder may use; one its owner revoked is the same
    // 404 for everyone.
    "token": { t, owner in
      try await owner.get("/settings/members")
      let made = try await owner.post(
        "/settings/invitations", form: [("role", "viewer"), ("days", "1")])
      let secret = try #require(made.firstMatch(#"/join/([A-Za-z0-9_-]{43})"#))
      let invitation = try #require(
        try await InvitationTable.query(on: t.db).filter(\.$tokenHash == secretHash(secret))
          .first())
      invitation.revokedAt = t.clock.now
      try await invitation.save(on: t.db)
      return secret
    },
    "jobID": { t, owner in
      try await owner.get("/expenses/import")
      let upload = try await owner.uploadExpenses(
        "date,title,category,amount\n,owned import,Food,1\n")
      try await t.app.importJobs.waitUntilIdle()
      let location = try #require(upload.location)
      return String(location.dropFirst("/imports/".count))
    },
  ]
}

@Suite("Walking every route as another account")
struct RouteWalkTests {
  static func parameterNames(_ route: AppRoute) -> [String] {
    route.template.split(separator: "/").filter { $0.hasPrefix(":") }.map {
      String($0.dropFirst())
    }
  }

  @Test func everyParameterHasAMaker() {
    let names = Set(Routes.all.flatMap(Self.parameterNames))
    let missing = names.subtracting(IsolationFixtures.makers.keys)
    #expect(missing.isEmpty, "no record maker for \(missing.sorted())")
  }

  /// Account A owns one record per parameter; account B asks for each route with A's ids and
  /// must get 404 on pages and API alike, whatever the method.
  @Test func anotherAccountsIdsAreNotFoundEverywhere() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp(email: "owner@example.com")
      var ids: [String: String] = [:]
      for (name, make) in IsolationFixtures.makers.sorted(by: { $0.key < $1.key }) {
        try await owner.get("/")
        ids[name] = try await make(t, owner)
      }

      let intruder = t.client()
      try await intruder.signUp(email: "intruder@example.com")
      let routes = Routes.all.filter { !Self.parameterNames($0).isEmpty }
      #expect(!routes.isEmpty)
      for route in routes {
        let href = route.href(ids)
        try await intruder.get("/")
        let response: TestResponse
        switch route.method {
        case .GET:
          response = try await intruder.get(href)
        case .POST:
          response = try await intruder.post(href)
        default:
          response = try await intruder.send(
            route.method, href,
            headers: ["X-CSRF-Token": intruder.csrf ?? "", "Content-Type": "application/json"],
            body: "{}")
        }
        #expect(response.status == .notFound, "\(route) as another account: \(response.status)")
        #expect(!response.body.contains("owned"), "\(route) leaked data")
      }
    }
  }

  /// Every state-changing route outside the API refuses a signed-in request without the token.
  @Test func everyFormRouteNeedsTheCSRFToken() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let forms = Routes.all.filter { $0.method != .GET && !$0.template.hasPrefix("/api/") }
      #expect(forms.count >= 5)
      for route in forms {
        let href = route.href(
          Dictionary(
            uniqueKeysWithValues: Self.parameterNames(route).map { ($0, UUID().uuidString) }))
        let response = try await client.send(
          route.method, href, headers: ["Content-Type": "application/x-www-form-urlencoded"],
          body: "name=x")
        #expect(response.status == .forbidden, "\(route) without a CSRF token: \(response.status)")
      }
      #expect(try await client.get("/").status == .ok, "the walk did not sign us out")
    }
  }
}
