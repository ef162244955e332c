import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Fundraisers JSON API", .ukrainian)
struct FundraiserAPITests {
  static func bearer(_ token: String) -> HTTPHeaders {
    ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
  }

  static func body(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
  }

  static var photoBase64: String { FundraiserImages.png().base64EncodedString() }

  @Test func crudWithABearerToken() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let api = t.client()
      let created = try await api.send(
        .POST, "/api/v1/fundraisers", headers: Self.bearer(token),
        body: try Self.body([
          "purpose": "На дрон", "target": "15000.50", "jar_link": fundraiserJar, "template": 4,
          "scale": 2, "offset_x": 10, "offset_y": -5, "show_progress": true,
          "photo": "data:image/png;base64," + Self.photoBase64,
        ]))
      #expect(created.status == .created, "\(created.body)")
      let json = try created.json()
      let id = try #require(json["id"] as? String).lowercased()
      #expect(created.location == "/api/v1/fundraisers/\(id)")
      #expect(json["target"] as? String == "15000.50")
      #expect(json["template"] as? Int == 4)
      #expect(json["show_progress"] as? Bool == true)
      #expect((json["jar"] as? [String: Any])?["id"] as? String == "StubJar001")
      #expect(json["poster_url"] as? String == "/api/v1/fundraisers/\(id)/poster.svg")

      let list = try await api.send(.GET, "/api/v1/fundraisers?per=10", headers: Self.bearer(token))
      let listJSON = try list.json()
      #expect(listJSON["total"] as? Int == 1)
      #expect(listJSON["per"] as? Int == 10)

      let updated = try await api.send(
        .PUT, "/api/v1/fundraisers/\(id)", headers: Self.bearer(token),
        body: try Self.body(["purpose": "Оновлено", "target": 2000, "template": 1]))
      #expect(updated.status == .ok, "\(updated.body)")
      let updatedJSON = try updated.json()
      #expect(updatedJSON["purpose"] as? String == "Оновлено")
      #expect(updatedJSON["target"] as? String == "2000.00")
      #expect(updatedJSON["jar"] is NSNull || updatedJSON["jar"] == nil)

      let poster = try await api.send(
        .GET, "/api/v1/fundraisers/\(id)/poster.svg?format=story&template=15",
        headers: Self.bearer(token))
      #expect(poster.status == .ok)
      #expect(poster.body.contains(#"height="1920""#))
      // Like `format` and `template`, an unknown `download` is refused.
      let badDownload = try await api.send(
        .GET, "/api/v1/fundraisers/\(id)/poster.svg?download=AAA", headers: Self.bearer(token))
      #expect(badDownload.status == .unprocessableEntity)
      let photo = try await api.send(
        .GET, "/api/v1/fundraisers/\(id)/photo", headers: Self.bearer(token))
      #expect(photo.headers.first(name: .contentType) == "image/png")

      let deleted = try await api.send(
        .DELETE, "/api/v1/fundraisers/\(id)", headers: Self.bearer(token))
      #expect(deleted.status == .noContent)
      let gone = try await api.send(.GET, "/api/v1/fundraisers/\(id)", headers: Self.bearer(token))
      #expect(gone.status == .notFound)
    }
  }

  @Test func validationIsCoreWithUkrainianMessages() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      let response = try await t.client().send(
        .POST, "/api/v1/fundraisers", headers: Self.bearer(token),
        body: try Self.body([
          "purpose": " ", "target": "1,000.5", "jar_link": "ftp://x", "template": 16,
        ]))
      #expect(response.status == .unprocessableEntity)
      let fields = try #require(
        (try response.json()["error"] as? [String: Any])?["fields"] as? [String: String])
      #expect(fields["purpose"] == "Поле не може бути пустим")
      #expect(fields["target"] == "Неправильний формат")
      #expect(fields["jar_link"]?.hasPrefix("Неправильний формат URL") == true)
      #expect(fields["photo"] == "Необхідно вибрати зображення")
      #expect(fields["template"] == "Шаблон: число від 1 до 15")

      let badPhoto = try await t.client().send(
        .POST, "/api/v1/fundraisers", headers: Self.bearer(token),
        body: try Self.body([
          "purpose": "x", "template": 1, "photo": Data("GIF89a".utf8).base64EncodedString(),
        ]))
      let photoMessage =
        ((try badPhoto.json()["error"] as? [String: Any])?["fields"] as? [String: String])?["photo"]
      #expect(photoMessage == "Зображення має бути у форматі JPEG або PNG")
      #expect(try await FundraiserTable.query(on: t.db).count() == 0)

      let notJSON = try await t.client().send(
        .POST, "/api/v1/fundraisers", headers: Self.bearer(token), body: "[1,2]")
      #expect(notJSON.status == .badRequest)
    }
  }

  @Test func refreshAndSnapshotsFromTheStub() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 100_050, goal: 1_000_000))
      try await withFundraiserApp(stub: stub) { t in
        let client = t.client()
        try await client.signUp()
        let id = try await client.addFundraiser(target: "")
        let token = try await client.createToken()
        let api = t.client()
        let path = "/api/v1/fundraisers/\(id.uuidString.lowercased())"
        let refreshed = try await api.send(.POST, path + "/refresh", headers: Self.bearer(token))
        #expect(refreshed.status == .ok, "\(refreshed.body)")
        let json = try refreshed.json()
        let snapshot = try #require(json["snapshot"] as? [String: Any])
        #expect(snapshot["ok"] as? Bool == true)
        #expect(snapshot["amount"] as? String == "1000.50")
        let progress = try #require(
          (json["fundraiser"] as? [String: Any])?["progress"] as? [String: Any])
        #expect(progress["percent"] as? Int == 10)
        #expect(progress["basis"] as? String == "jar_goal")

        t.clock.advance(by: 60)
        stub.set("StubJar001", .serviceError(code: "E", text: "Технічна перерва"))
        let failed = try await api.send(.POST, path + "/refresh", headers: Self.bearer(token))
        let failedJSON = try failed.json()
        #expect(
          (failedJSON["snapshot"] as? [String: Any])?["error"] as? String == "Технічна перерва (E)")
        let jar = try #require(
          (failedJSON["fundraiser"] as? [String: Any])?["jar"] as? [String: Any])
        #expect(jar["amount"] as? String == "1000.50")
        #expect(jar["last_error"] as? String == "Технічна перерва (E)")

        let snapshots = try await api.send(
          .GET, path + "/snapshots?per=1", headers: Self.bearer(token))
        let list = try snapshots.json()
        #expect(list["total"] as? Int == 2)
        #expect((list["items"] as? [[String: Any]])?.first?["ok"] as? Bool == false)
        let badPage = try await api.send(
          .GET, path + "/snapshots?per=500", headers: Self.bearer(token))
        #expect(badPage.status == .unprocessableEntity)
      }
    }
  }

  @Test func aFundraiserWithoutAJarIsAConflictToRefresh() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser(jar: "")
      let token = try await client.createToken()
      let response = try await t.client().send(
        .POST, "/api/v1/fundraisers/\(id.uuidString)/refresh", headers: Self.bearer(token))
      #expect(response.status == .conflict)
    }
  }

  @Test func aJarThatCannotBeAskedIsAnAPIError() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser()
      // A stored jar id no valid form writes: nothing can be asked, nothing stored.
      let record = try #require(try await FundraiserTable.find(id, on: t.db))
      record.jarID = "not a jar"
      try await record.save(on: t.db)
      let token = try await client.createToken()
      let response = try await t.client().send(
        .POST, "/api/v1/fundraisers/\(id.uuidString)/refresh", headers: Self.bearer(token))
      #expect(response.status == .internalServerError)
      let error = try #require(try response.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "refresh_failed")
      #expect(
        error["message"] as? String == "Не вдалося зберегти відповідь банки. Спробуйте ще раз.")
    }
  }

  @Test func withoutATokenIs401AndAnotherAccountIs404() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(purpose: "Чужий збір")
      let anonymous = try await t.client().send(.GET, "/api/v1/fundraisers")
      #expect(anonymous.status == .unauthorized)

      let other = t.client()
      try await other.signUp()
      let token = try await other.createToken()
      let api = t.client()
      let base = "/api/v1/fundraisers/\(id.uuidString)"
      for (method, path) in [
        (HTTPMethod.GET, base), (.PUT, base), (.DELETE, base), (.GET, base + "/poster.svg"),
        (.GET, base + "/photo"), (.GET, base + "/snapshots"), (.POST, base + "/refresh"),
      ] {
        let response = try await api.send(
          method, path, headers: Self.bearer(token),
          body: try Self.body(["purpose": "x", "template": 1]))
        #expect(response.status == .notFound, "\(method) \(path)")
        #expect(!response.body.contains("Чужий"))
      }
      let list = try await api.send(.GET, "/api/v1/fundraisers", headers: Self.bearer(token))
      #expect(try list.json()["total"] as? Int == 0)
      #expect(try await FundraiserTable.stored(id, on: t.db)?.purpose == "Чужий збір")
    }
  }
}
