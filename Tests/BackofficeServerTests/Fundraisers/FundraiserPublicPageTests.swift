import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Fundraisers: public page", .ukrainian)
struct FundraiserPublicPageTests {
  /// Opens the public page of a new fundraiser and returns its address.
  static func publish(_ owner: TestClient, id: UUID) async throws -> String {
    try await owner.get("/fundraisers/\(id.uuidString.lowercased())")
    let response = try await owner.post(
      "/fundraisers/\(id.uuidString.lowercased())/public", form: [("public", "1")])
    #expect(response.status == .seeOther)
    let page = try await owner.get("/fundraisers/\(id.uuidString.lowercased())")
    let path = try #require(
      page.firstMatch(#"id="fr-public-url" target="_blank">(/f/[a-z2-9]{10})<"#))
    return path
  }

  @Test(
    "closed until the owner opens it; then anyone sees the poster, progress and jar, nothing else")
  func openAndClose() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp(email: "owner-secret@example.com")
      let id = try await owner.addFundraiser(purpose: "Дрон для розвідки")
      let show = try await owner.get("/fundraisers/\(id.uuidString.lowercased())")
      #expect(show.body.contains("Відкрити публічну сторінку"))
      let path = try await Self.publish(owner, id: id)

      let visitor = t.client()
      let page = try await visitor.get(path)
      #expect(page.status == .ok)
      #expect(page.body.contains("Дрон для розвідки"))
      #expect(page.body.contains(#"href="https://send.monobank.ua/jar/"#))
      #expect(page.body.contains(#"<meta property="og:title" content="Дрон для розвідки"/>"#))
      #expect(!page.body.contains("og:url"), "no og:url without BACKOFFICE_PUBLIC_URL")
      #expect(!page.body.contains("og:image"), "no picture before the owner's PNG")
      #expect(!page.body.contains("owner-secret"))
      #expect(!page.body.contains("Sign out"))
      #expect(try await visitor.get(path + "/poster.svg").status == .ok)
      let qr = try await visitor.get(path + "/qr.svg")
      #expect(qr.status == .ok)
      #expect(qr.headers.contentType?.subType == "svg+xml")
      #expect(try await visitor.get(path + "/poster.png").status == .notFound)

      // Caches may keep each answer but must ask again before using it: a validator, no
      // max-age, and 304 while nothing changed.
      var validators: [String: String] = [:]
      for suffix in ["", "/poster.svg", "/qr.svg"] {
        let first = try await visitor.get(path + suffix)
        #expect(first.headers.first(name: .cacheControl) == "public, no-cache", "\(suffix)")
        let etag = try #require(first.headers.first(name: .eTag), "\(suffix)")
        validators[suffix] = etag
        let again = try await visitor.get(path + suffix, headers: ["If-None-Match": etag])
        #expect(again.status == .notModified, "\(suffix)")
        // A browser keeps its copy with the 304's headers: the page keeps the policy its
        // stylesheet needs, the poster its own.
        let policy = again.headers.first(name: "Content-Security-Policy")
        if suffix == "" {
          #expect(policy == SecurityHeadersMiddleware.contentSecurityPolicy)
        } else {
          #expect(policy == FundraiserPosters.contentSecurityPolicy, "\(suffix)")
        }
      }

      try await owner.post(
        "/fundraisers/\(id.uuidString.lowercased())/public", form: [("public", "0")])
      for suffix in ["", "/poster.svg", "/qr.svg", "/poster.png"] {
        #expect(try await visitor.get(path + suffix).status == .notFound, "\(suffix)")
        // A cached copy is refused at once too: revalidation answers 404, not 304.
        let cached = try await visitor.get(
          path + suffix, headers: ["If-None-Match": validators[suffix] ?? "*"])
        #expect(cached.status == .notFound, "\(suffix) revalidated")
      }
      // Opened again: the same address comes back.
      #expect(try await Self.publish(owner, id: id) == path)
      #expect(try await visitor.get("/f/aaaaaaaaaa").status == .notFound)
      #expect(
        try await visitor.get("/f/" + String(repeating: "z", count: 10_000)).status == .notFound)
    }
  }

  @Test("another account cannot open or feed someone's page")
  func onlyTheOwner() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser()
      let intruder = t.client()
      try await intruder.signUp(email: "intruder@example.com")
      try await intruder.get("/")
      let response = try await intruder.post(
        "/fundraisers/\(id.uuidString.lowercased())/public", form: [("public", "1")])
      #expect(response.status == .notFound)
      let record = try #require(await FundraiserTable.stored(id, on: t.db))
      #expect(record.isPublic == false && record.publicSlug == nil)
    }
  }

  @Test("the preview picture: a 1080 px wide PNG only, then named by og:image")
  func previewImage() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser()
      let path = try await Self.publish(owner, id: id)
      let url = "/fundraisers/\(id.uuidString.lowercased())/share-image"
      func put(_ data: Data) async throws -> TestResponse {
        try await owner.send(
          .PUT, url,
          headers: ["Content-Type": "image/png", "X-CSRF-Token": owner.csrf ?? ""], bytes: data)
      }
      #expect(try await put(Data("not a picture".utf8)).status == .unprocessableEntity)
      #expect(
        try await put(FundraiserImages.png(width: 600, height: 600)).status == .unprocessableEntity)
      let png = FundraiserImages.png(width: 1080, height: 1080)
      #expect(try await put(png).status == .noContent)
      #expect(try await put(png).status == .noContent, "a second picture replaces the first")

      let visitor = t.client()
      // Without BACKOFFICE_PUBLIC_URL the picture is named by its path, never from `Host`.
      let page = try await visitor.get(path, headers: ["Host": "zbir.example.org"])
      #expect(page.body.contains(#"<meta property="og:image" content="\#(path)/poster.png"/>"#))
      #expect(!page.body.contains("zbir.example.org"))
      let image = try await visitor.get(path + "/poster.png")
      #expect(image.status == .ok)
      #expect(image.headers.first(name: .contentType) == "image/png")
      #expect(image.headers.first(name: .contentLength) == String(png.count))
      let etag = try #require(image.headers.first(name: .eTag))
      let cached = try await visitor.get(path + "/poster.png", headers: ["If-None-Match": etag])
      #expect(cached.status == .notModified)
    }
  }

  @Test("each address gets its budget of requests a minute, then 429")
  func rateLimited() async throws {
    try await withApp { t in
      t.app.publicPageLimiter = PublicPageLimiter(limit: 3)
      let owner = t.client()
      try await owner.signUp()
      let path = try await Self.publish(owner, id: try await owner.addFundraiser())
      let visitor = t.client()
      for _ in 0..<3 { #expect(try await visitor.get(path).status == .ok) }
      let refused = try await visitor.get(path)
      #expect(refused.status == .tooManyRequests)
      #expect(refused.headers.first(name: "Retry-After") == "60")
    }
  }
}
