import BackofficeCore
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Marketing plans API")
struct MarketingPlansAPITests {
  func signedIn(_ t: TestApp) async throws -> (TestClient, String) {
    let client = t.client()
    try await client.signUp()
    return (client, try await client.createToken())
  }

  @Test func catalogIsReadable() async throws {
    try await withApp { t in
      let (client, token) = try await signedIn(t)
      let response = try await client.apiJSON(.GET, "/api/v1/marketing/catalog", token: token)
      #expect(response.status == .ok)
      let json = try response.json()
      #expect(json["source"] as? String == "bundled")
      #expect((json["refresh"] as? [String: Any])?["state"] as? String == "ok")
      let targets = try #require(json["targets"] as? [[String: Any]])
      #expect(targets.count == 15)
      #expect(targets[0]["name"] as? String == "Location")
      #expect((targets[0]["channel_ids"] as? [String])?.first == "0af1bfee844a7003cec5")
      let channels = try #require(json["channels"] as? [[String: Any]])
      #expect(
        channels.map { $0["name"] as? String } == [
          "Facebook", "Linkedin", "Twitter", "Instagram", "Google AdWords", "SEO",
        ])
      let package = try #require((channels[0]["packages"] as? [[String: Any]])?.first)
      #expect(package["id"] as? String == "facebook_0")
      #expect(package["price"] as? String == "140.00")
      #expect(package["currency"] as? String == "EUR")
      #expect(package["channel_id"] as? String == "0af1bfee844a7003cec5")
    }
  }

  @Test func plansCRUD() async throws {
    try await withApp { t in
      let (client, token) = try await signedIn(t)
      let created = try await client.apiJSON(
        .POST, "/api/v1/marketing/plans", token: token,
        json: """
          {"name": "Autumn", "targets": ["Location", "Industry"],
           "packages": [{"channel_id": "9789d17ffaf4432dcce0", "package_id": "seo_1"},
                        {"channel_id": "0af1bfee844a7003cec5", "package_id": "facebook_0"}],
           "recipient": "boss@example.com"}
          """)
      #expect(created.status == .created, "\(created.body)")
      let plan = try created.json()
      let id = try #require(plan["id"] as? String)
      #expect(plan["name"] as? String == "Autumn")
      #expect(plan["targets"] as? [String] == ["Location", "Industry"])
      let packages = try #require(plan["packages"] as? [[String: Any]])
      #expect(packages.map { $0["package_id"] as? String } == ["facebook_0", "seo_1"])
      #expect(plan["package_count"] as? Int == 2)
      #expect(plan["channel_count"] as? Int == 2)
      #expect(plan["recipient"] as? String == "boss@example.com")
      let totals = try #require(plan["totals"] as? [[String: Any]])
      #expect(totals.count == 1)
      #expect(totals[0]["amount"] as? String == "460.00")
      #expect(totals[0]["currency"] as? String == "EUR")
      #expect(plan["total_display"] as? String == "€460.00")

      let list = try await client.apiJSON(.GET, "/api/v1/marketing/plans?per=10", token: token)
      let page = try list.json()
      #expect(page["total"] as? Int == 1)
      #expect(page["per"] as? Int == 10)
      #expect((page["items"] as? [[String: Any]])?.first?["id"] as? String == id)

      // Dropping Industry drops the SEO package (no other target reaches SEO).
      let patched = try await client.apiJSON(
        .PATCH, "/api/v1/marketing/plans/\(id)", token: token,
        json: #"{"targets": ["Location"], "name": "Autumn v2", "subject": "Our plan"}"#)
      #expect(patched.status == .ok, "\(patched.body)")
      let updated = try patched.json()
      #expect(updated["name"] as? String == "Autumn v2")
      #expect(updated["subject"] as? String == "Our plan")
      #expect(
        (updated["packages"] as? [[String: Any]])?.map { $0["package_id"] as? String } == [
          "facebook_0"
        ])

      let shown = try await client.apiJSON(.GET, "/api/v1/marketing/plans/\(id)", token: token)
      #expect(try shown.json()["name"] as? String == "Autumn v2")

      let copy = try await client.apiJSON(
        .POST, "/api/v1/marketing/plans/\(id)/duplicate", token: token)
      #expect(copy.status == .created)
      #expect(try copy.json()["name"] as? String == "Copy of Autumn v2")

      let deleted = try await client.apiJSON(.DELETE, "/api/v1/marketing/plans/\(id)", token: token)
      #expect(deleted.status == .noContent)
      let gone = try await client.apiJSON(.GET, "/api/v1/marketing/plans/\(id)", token: token)
      #expect(gone.status == .notFound)
      #expect(try await MarketingPlanTable.query(on: t.db).count() == 1)
    }
  }

  @Test func summaryHasTextHTMLAndTheMailLink() async throws {
    try await withApp { t in
      let (client, token) = try await signedIn(t)
      let created = try await client.apiJSON(
        .POST, "/api/v1/marketing/plans", token: token,
        json:
          #"{"name": "Summer", "targets": ["Company"], "packages": [{"channel_id": "9a464cbf5bf479321862", "package_id": "linkedin_0"}], "recipient": "a@example.com"}"#
      )
      let id = try #require(try created.json()["id"] as? String)
      let response = try await client.apiJSON(
        .GET, "/api/v1/marketing/plans/\(id)/summary", token: token)
      #expect(response.status == .ok)
      let summary = try response.json()
      #expect((summary["subject"] as? String)?.hasPrefix("Marketing Campaign Selection - ") == true)
      #expect((summary["text"] as? String)?.contains("Total Monthly Cost: €") == true)
      #expect((summary["text"] as? String)?.contains("Summer") == true)
      #expect((summary["html"] as? String)?.hasPrefix("<!DOCTYPE html>") == true)
      #expect(summary["counts_display"] as? String == "1 package(s) selected from 1 channel(s)")
      let mailto = try #require(summary["mailto"] as? [String: Any])
      #expect((mailto["url"] as? String)?.hasPrefix("mailto:a@example.com?subject=") == true)
      #expect(mailto["shortened"] as? Bool == false)
      #expect(mailto["omitted_packages"] as? Int == 0)
    }
  }

  @Test func invalidInputIsRefusedFieldByField() async throws {
    try await withApp { t in
      let (client, token) = try await signedIn(t)
      let response = try await client.apiJSON(
        .POST, "/api/v1/marketing/plans", token: token,
        json: """
          {"name": " ", "targets": ["Company", "Mars"],
           "packages": [{"channel_id": "0af1bfee844a7003cec5", "package_id": "facebook_9"}],
           "recipient": "nobody", "subject": "\(String(repeating: "s", count: 201))"}
          """)
      #expect(response.status == .unprocessableEntity)
      let fields = try #require(
        (try response.json()["error"] as? [String: Any])?["fields"] as? [String: String])
      #expect(fields["name"] == "Give the plan a name.")
      #expect(fields["targets"] == "The catalog has no target \u{201C}Mars\u{201D}.")
      #expect(fields["packages[0]"] == "Facebook is not available for the selected targets.")
      #expect(fields["recipient"] == "Enter an email address like name@example.com.")
      #expect(fields["subject"] == "Use at most 200 characters.")
      #expect(try await MarketingPlanTable.query(on: t.db).count() == 0)

      let twice = try await client.apiJSON(
        .POST, "/api/v1/marketing/plans", token: token,
        json:
          #"{"targets": ["Location"], "packages": [{"channel_id": "0af1bfee844a7003cec5", "package_id": "facebook_0"}, {"channel_id": "0af1bfee844a7003cec5", "package_id": "facebook_1"}, {"channel_id": "0af1bfee844a7003cec5"}]}"#
      )
      let twiceFields = try #require(
        (try twice.json()["error"] as? [String: Any])?["fields"] as? [String: String])
      #expect(
        twiceFields["packages[1]"]
          == "Only one package per channel: 0af1bfee844a7003cec5 is listed twice.")
      #expect(twiceFields["packages[2]"] == "Give both channel_id and package_id.")

      let badPage = try await client.apiJSON(
        .GET, "/api/v1/marketing/plans?per=500&page=0", token: token)
      #expect(badPage.status == .unprocessableEntity)
      let pageFields = try #require(
        (try badPage.json()["error"] as? [String: Any])?["fields"] as? [String: String])
      #expect(pageFields.keys.sorted() == ["page", "per"])

      let notJSON = try await client.apiJSON(
        .POST, "/api/v1/marketing/plans", token: token, json: "{")
      #expect(notJSON.status == .badRequest)
    }
  }

  @Test func anotherAccountsPlanIsNotFound() async throws {
    try await withApp { t in
      let (owner, ownerToken) = try await signedIn(t)
      let created = try await owner.apiJSON(
        .POST, "/api/v1/marketing/plans", token: ownerToken, json: #"{"name": "Secret"}"#)
      let id = try #require(try created.json()["id"] as? String)
      let (other, otherToken) = try await signedIn(t)
      for (method, path, body) in [
        (HTTPMethod.GET, "/api/v1/marketing/plans/\(id)", nil),
        (.PATCH, "/api/v1/marketing/plans/\(id)", #"{"name": "Mine"}"#),
        (.DELETE, "/api/v1/marketing/plans/\(id)", nil),
        (.POST, "/api/v1/marketing/plans/\(id)/duplicate", nil),
        (.GET, "/api/v1/marketing/plans/\(id)/summary", nil),
        (.GET, "/api/v1/marketing/plans/not-a-uuid", nil),
      ] as [(HTTPMethod, String, String?)] {
        let response = try await other.apiJSON(method, path, token: otherToken, json: body)
        #expect(response.status == .notFound, "\(method) \(path)")
        #expect(!response.body.contains("Secret"))
        #expect((try response.json()["error"] as? [String: Any])?["code"] as? String == "not_found")
      }
      let list = try await other.apiJSON(.GET, "/api/v1/marketing/plans", token: otherToken)
      #expect(try list.json()["total"] as? Int == 0)
      #expect(try await MarketingPlanTable.query(on: t.db).first()?.name == "Secret")
    }
  }

  @Test func withoutAValidTokenEverythingIs401() async throws {
    try await withApp { t in
      let client = t.client()
      let id = UUID()
      for (method, path) in [
        (HTTPMethod.GET, "/api/v1/marketing/catalog"), (.POST, "/api/v1/marketing/catalog/refresh"),
        (.GET, "/api/v1/marketing/plans"), (.POST, "/api/v1/marketing/plans"),
        (.GET, "/api/v1/marketing/plans/\(id)"), (.PATCH, "/api/v1/marketing/plans/\(id)"),
        (.DELETE, "/api/v1/marketing/plans/\(id)"),
        (.POST, "/api/v1/marketing/plans/\(id)/duplicate"),
        (.GET, "/api/v1/marketing/plans/\(id)/summary"),
      ] {
        let wrongToken = try await client.apiJSON(method, path, token: "bo_not-a-token")
        #expect(wrongToken.status == .unauthorized, "\(method) \(path)")
        if method == .GET {
          // No credentials at all (writes without a session are stopped by CSRF first).
          let none = try await client.send(method, path)
          #expect(none.status == .unauthorized, "\(method) \(path)")
        }
      }
    }
  }

  @Test func theBrowserCanPatchWithTheSessionAndTheCSRFHeader() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let planID = try await client.newPlan()
      let page = try await client.get("/marketing/plans/\(planID)/review")
      let csrf = try #require(page.csrfToken)
      var headers = HTTPHeaders()
      headers.contentType = .json
      let refused = try await client.send(
        .PATCH, "/api/v1/marketing/plans/\(planID)", headers: headers,
        body: #"{"recipient": "a@example.com"}"#)
      #expect(refused.status == .forbidden)
      headers.add(name: "X-CSRF-Token", value: csrf)
      let saved = try await client.send(
        .PATCH, "/api/v1/marketing/plans/\(planID)", headers: headers,
        body: #"{"recipient": "a@example.com"}"#)
      #expect(saved.status == .ok)
      #expect(try saved.json()["recipient"] as? String == "a@example.com")
    }
  }

  @Test func refreshThroughTheAPIReportsOutcomes() async throws {
    try await CatalogStubServer.with { stub in
      try await withApp(config: fastCatalogConfig(stub.baseURL)) { t in
        let (client, token) = try await signedIn(t)
        let ok = try await client.apiJSON(.POST, "/api/v1/marketing/catalog/refresh", token: token)
        #expect(ok.status == .ok)
        let refreshed = try ok.json()
        #expect(refreshed["outcome"] as? String == "refreshed")
        #expect(refreshed["plans_changed"] as? Int == 0)
        #expect((refreshed["catalog"] as? [String: Any])?["source"] as? String == "refresh")

        // A failed refresh is reported, not an error of this server: the catalog was kept.
        stub.set(.body("[{\"target\": 1}]"), for: MarketingCatalog.targetingDocumentID)
        let bad = try await client.apiJSON(.POST, "/api/v1/marketing/catalog/refresh", token: token)
        #expect(bad.status == .ok)
        let failed = try bad.json()
        #expect(failed["outcome"] as? String == "error")
        #expect(
          (failed["message"] as? String)?.hasPrefix(
            "Refresh failed: targeting document b22fd39c053b256222b1: [0].target is not a string.")
            == true)
        let kept = try #require(failed["catalog"] as? [String: Any])
        #expect(kept["source"] as? String == "refresh")
        #expect((kept["refresh"] as? [String: Any])?["state"] as? String == "error")

        stub.set(.slow(seconds: stubSlowSeconds), for: MarketingCatalog.targetingDocumentID)
        let slow = try await client.apiJSON(
          .POST, "/api/v1/marketing/catalog/refresh", token: token)
        #expect(slow.status == .ok)
        #expect(try slow.json()["outcome"] as? String == "offline")
        let catalog = try await client.apiJSON(.GET, "/api/v1/marketing/catalog", token: token)
        let refresh = try #require(try catalog.json()["refresh"] as? [String: Any])
        #expect(refresh["state"] as? String == "offline")
        #expect(refresh["message"] as? String == "127.0.0.1 stopped answering")
      }
    }
  }
}
