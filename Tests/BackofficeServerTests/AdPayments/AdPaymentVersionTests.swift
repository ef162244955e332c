import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Ad payments: record versions", .serialized)
struct AdPaymentVersionTests {
  @Test func aStaleFormSaveIsRefusedWithBothValuesAndASecondSubmitSaves() async throws {
    try await withApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addAdPayment(
        name: "Spring", url: "https://spring.example.com", db: t.db)
      let second = t.client()
      _ = try await second.signIn(email: email)
      let edit = "/ad-payments/\(id.uuidString)/edit"
      #expect(try await first.get(edit).body.contains(#"name="version" value="1""#))
      try await second.get(edit)
      #expect(
        try await second.post(
          "/ad-payments/\(id.uuidString)",
          form: [("name", "Spring sale"), ("url", "https://spring.example.com")]
        ).status == .seeOther)

      let stale = try await first.post(
        "/ad-payments/\(id.uuidString)",
        form: [("name", "Spring"), ("url", "https://spring.example.com/new"), ("version", "1")])
      #expect(stale.status == .conflict)
      #expect(stale.body.contains("This payment was changed since you opened it"))
      #expect(stale.inputValue("name") == "Spring")
      #expect(stale.inputValue("url") == "https://spring.example.com/new")
      #expect(stale.body.contains("Saved now:</span> <strong>Spring sale</strong>"))
      #expect(stale.body.contains("Saved now:</span> <strong>https://spring.example.com</strong>"))
      #expect(stale.body.contains(#"name="version" value="2""#))
      var entry = try #require(try await AdPaymentTable.find(id, on: t.db))
      #expect(entry.name == "Spring sale")
      #expect(entry.url == "https://spring.example.com")

      let again = try await first.post(
        "/ad-payments/\(id.uuidString)",
        form: [("name", "Spring"), ("url", "https://spring.example.com/new")])
      #expect(again.status == .seeOther)
      entry = try #require(try await AdPaymentTable.find(id, on: t.db))
      #expect(entry.name == "Spring")
      #expect(entry.url == "https://spring.example.com/new")
      #expect(entry.version == 3)
    }
  }

  @Test func aDeletedEntryIsAClearMessage() async throws {
    try await withApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addAdPayment(
        name: "Brief", url: "https://brief.example.com", db: t.db)
      let second = t.client()
      _ = try await second.signIn(email: email)
      try await first.get("/ad-payments")
      try await second.get("/ad-payments/\(id.uuidString)/edit")
      #expect(try await first.post("/ad-payments/\(id.uuidString)/delete").status == .seeOther)
      let again = try await second.post("/ad-payments/\(id.uuidString)/delete")
      #expect(again.status == .notFound)
      #expect(again.body.contains("This payment no longer exists"))
      let save = try await second.post(
        "/ad-payments/\(id.uuidString)",
        form: [("name", "Brief 2"), ("url", "https://brief.example.com")])
      #expect(save.status == .notFound)
      #expect(save.body.contains("<dd>Brief 2</dd>"))
    }
  }

  @Test func theAPISendsETagsAndHonoursIfMatch() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.api(
        .POST, "/api/v1/ad-payments", token: token,
        json: #"{"name": "Ads", "url": "https://ads.example.com"}"#)
      #expect(created.status == .created)
      #expect(created.headers.first(name: .eTag) == #""1""#)
      let id = try #require(try created.json()["id"] as? String)
      let path = "/api/v1/ad-payments/\(id)"
      #expect(try await client.api(.GET, path, token: token).headers.first(name: .eTag) == #""1""#)
      let list = try await client.api(.GET, "/api/v1/ad-payments", token: token)
      #expect((try list.json()["items"] as? [[String: Any]])?.first?["version"] as? Int == 1)

      let body = #"{"name": "Ads 2", "url": "https://ads.example.com"}"#
      let mismatch = try await client.api(
        .PUT, path, token: token, json: body, headers: ["If-Match": #""2""#])
      #expect(mismatch.status == .preconditionFailed)
      #expect(try await AdPaymentTable.query(on: t.db).first()?.name == "Ads")
      let matched = try await client.api(
        .PUT, path, token: token, json: body, headers: ["If-Match": #""1""#])
      #expect(matched.status == .ok)
      #expect(matched.headers.first(name: .eTag) == #""2""#)
      #expect(try matched.json()["version"] as? Int == 2)

      let staleDelete = try await client.api(
        .DELETE, path, token: token, headers: ["If-Match": #""1""#])
      #expect(staleDelete.status == .preconditionFailed)
      #expect(try await AdPaymentTable.query(on: t.db).count() == 1)
      #expect(
        try await client.api(.DELETE, path, token: token, headers: ["If-Match": #""2""#]).status
          == .noContent)
      #expect(try await client.api(.DELETE, path, token: token).status == .notFound)
    }
  }

  @Test func ofTwoParallelSavesWithOneVersionExactlyOneWins() async throws {
    try await withApp { t in
      let owner = t.client()
      let email = try await owner.signUp()
      let token = try await owner.createToken()
      let id = try await owner.addAdPayment(name: "Raced", url: "https://r.example.com", db: t.db)
      let path = "/api/v1/ad-payments/\(id.uuidString)"
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for name in ["Left", "Right"] {
          group.addTask {
            try await t.client().api(
              .PUT, path, token: token,
              json: #"{"name": "\#(name)", "url": "https://r.example.com"}"#,
              headers: ["If-Match": #""1""#]
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.sorted { $0.code < $1.code } == [.ok, .preconditionFailed])

      let browsers = [t.client(), t.client()]
      for browser in browsers {
        _ = try await browser.signIn(email: email)
        try await browser.get("/ad-payments/\(id.uuidString)/edit")
      }
      let forms = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for (index, browser) in browsers.enumerated() {
          group.addTask {
            try await browser.post(
              "/ad-payments/\(id.uuidString)",
              form: [("name", "Form \(index)"), ("url", "https://r.example.com")]
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(forms.sorted { $0.code < $1.code } == [.seeOther, .conflict])
    }
  }
}
