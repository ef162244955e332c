import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Fundraisers: record versions", .serialized, .ukrainian)
struct FundraiserVersionTests {
  static func fields(purpose: String, target: String = "15 000", template: Int = 7)
    -> [FundraiserFormField]
  {
    [
      .text("purpose", purpose), .text("target", target), .text("jar_link", fundraiserJar),
      .text("template", String(template)), .text("scale", "1.5"), .text("offset_x", "12"),
      .text("offset_y", "-8"),
    ]
  }

  @Test func aStaleFormSaveIsRefusedWithBothValuesAndKeepsTheNewPhoto() async throws {
    try await withFundraiserApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addFundraiser(purpose: "На дрон")
      let second = t.client()
      _ = try await second.signIn(email: email)
      let edit = "/fundraisers/\(id.uuidString)/edit"
      #expect(try await first.get(edit).body.contains(#"name="version" value="1""#))
      try await second.get(edit)
      let saved = try await second.postFundraiserForm(
        "/fundraisers/\(id.uuidString)", Self.fields(purpose: "На два дрони", template: 3))
      #expect(saved.status == .seeOther)

      let photo = FundraiserImages.png(width: 9, height: 9)
      let stale = try await first.postFundraiserForm(
        "/fundraisers/\(id.uuidString)",
        Self.fields(purpose: "На дрон і батареї") + [.photo(photo), .text("version", "1")])
      #expect(stale.status == .conflict)
      #expect(stale.body.contains("Цей збір змінили після того, як ви його відкрили"))
      #expect(stale.body.contains(">На дрон і батареї</textarea>"), "what was typed is kept")
      #expect(stale.body.contains("Збережено зараз:</span> <strong>На два дрони</strong>"))
      #expect(stale.body.contains(#"id="field-template-saved""#))
      #expect(!stale.body.contains(#"id="field-target-saved""#))
      #expect(stale.body.contains(#"name="version" value="2""#))
      let draft = try #require(stale.firstMatch(#"name="photo_draft" value="([^"]+)""#))
      var record = try #require(try await FundraiserTable.stored(id, on: t.db))
      #expect(record.purpose == "На два дрони")
      #expect(record.template == 3)

      let again = try await first.postFundraiserForm(
        "/fundraisers/\(id.uuidString)",
        Self.fields(purpose: "На дрон і батареї") + [.text("photo_draft", draft)])
      #expect(again.status == .seeOther)
      record = try #require(try await FundraiserTable.stored(id, on: t.db))
      #expect(record.purpose == "На дрон і батареї")
      #expect(record.template == 7)
      #expect(record.version == 3)
      let stored = try await FundraiserPhotos.photo(for: id, on: t.db)
      #expect(stored?.data == photo, "the photo chosen before the conflict was not lost")
    }
  }

  @Test func aDeletedFundraiserIsAClearMessage() async throws {
    try await withFundraiserApp { t in
      let first = t.client()
      let email = try await first.signUp()
      let id = try await first.addFundraiser(purpose: "Скоро зникне")
      let second = t.client()
      _ = try await second.signIn(email: email)
      try await second.get("/fundraisers/\(id.uuidString)/edit")
      try await first.get("/fundraisers/\(id.uuidString)")
      #expect(try await first.post("/fundraisers/\(id.uuidString)/delete").status == .seeOther)
      let again = try await second.post("/fundraisers/\(id.uuidString)/delete")
      #expect(again.status == .notFound)
      #expect(again.body.contains("Цього збору більше немає"))
      let save = try await second.postFundraiserForm(
        "/fundraisers/\(id.uuidString)", Self.fields(purpose: "Моя правка"))
      #expect(save.status == .notFound)
      #expect(save.body.contains("<dd>Моя правка</dd>"))
    }
  }

  @Test func theAPISendsETagsAndHonoursIfMatch() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let created = try await client.api(
        .POST, "/api/v1/fundraisers", token: token,
        json: try FundraiserAPITests.body([
          "purpose": "API", "template": 2, "photo": FundraiserAPITests.photoBase64,
        ]))
      #expect(created.status == .created, "\(created.body)")
      #expect(created.headers.first(name: .eTag) == #""1""#)
      let id = try #require(try created.json()["id"] as? String)
      let path = "/api/v1/fundraisers/\(id)"
      #expect(try await client.api(.GET, path, token: token).headers.first(name: .eTag) == #""1""#)

      let body = try FundraiserAPITests.body(["purpose": "API 2", "template": 2])
      let mismatch = try await client.api(
        .PUT, path, token: token, json: body, headers: ["If-Match": #""9""#])
      #expect(mismatch.status == .preconditionFailed)
      #expect(try await FundraiserTable.query(on: t.db).first()?.purpose == "API")
      let matched = try await client.api(
        .PUT, path, token: token, json: body, headers: ["If-Match": #""1""#])
      #expect(matched.status == .ok)
      #expect(matched.headers.first(name: .eTag) == #""2""#)
      #expect(try matched.json()["version"] as? Int == 2)
      let staleDelete = try await client.api(
        .DELETE, path, token: token, headers: ["If-Match": #""1""#])
      #expect(staleDelete.status == .preconditionFailed)
      #expect(try await FundraiserTable.query(on: t.db).count() == 1)
      #expect(
        try await client.api(.DELETE, path, token: token, headers: ["If-Match": #""2""#]).status
          == .noContent)
    }
  }

  @Test func ofTwoParallelSavesWithOneVersionExactlyOneWins() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      let email = try await owner.signUp()
      let token = try await owner.createToken()
      let id = try await owner.addFundraiser(purpose: "Перегони")
      let path = "/api/v1/fundraisers/\(id.uuidString)"
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for purpose in ["Ліво", "Право"] {
          group.addTask {
            try await t.client().api(
              .PUT, path, token: token,
              json: try FundraiserAPITests.body(["purpose": purpose, "template": 1]),
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
        try await browser.get("/fundraisers/\(id.uuidString)/edit")
      }
      let forms = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for (index, browser) in browsers.enumerated() {
          group.addTask {
            try await browser.postFundraiserForm(
              "/fundraisers/\(id.uuidString)", Self.fields(purpose: "Форма \(index)")
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(forms.sorted { $0.code < $1.code } == [.seeOther, .conflict])
    }
  }
}
