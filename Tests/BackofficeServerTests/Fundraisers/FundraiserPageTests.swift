import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Fundraiser pages", .ukrainian)
struct FundraiserPageTests {
  static func path(_ id: UUID, _ suffix: String = "") -> String {
    "/fundraisers/\(id.uuidString.lowercased())\(suffix)"
  }

  @Test func emptyStateAndNavigation() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/fundraisers")
      #expect(page.status == .ok)
      #expect(page.body.contains("Створіть свою першу обкладинку для збору коштів"))
      #expect(page.body.contains("Допомагайте тим, хто цього потребує"))
      #expect(page.body.contains(#"href="/fundraisers/new""#))
      #expect(page.body.contains(#"<a href="/fundraisers" aria-current="page">Збори</a>"#))
      #expect(!page.body.contains("style="))
    }
  }

  @Test func theFormHasTheOriginalLabelsAndAllFifteenTemplates() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let form = try await client.get("/fundraisers/new")
      #expect(form.status == .ok)
      for label in [
        "Призначення збору", "Сума збору (не обов'язково)", "Банка збору (не обов'язково)",
        "Обрати фото з бібліотеки", "Обрати шаблон", "Зберегти",
      ] {
        #expect(form.body.contains(label), "missing \(label)")
      }
      for number in 1...15 {
        #expect(form.body.contains(#"name="template" value="\#(number)""#))
        #expect(
          form.body.contains(
            "preview.svg?format=post&amp;mode=thumb&amp;show_qr=1&amp;template=\(number)\""))
      }
      #expect(form.body.contains(#"data-max-scale="10.0""#))
      #expect(form.body.contains(#"src="/js/fundraisers.js""#))
    }
  }

  @Test func validationMessagesAreTheOriginalOnes() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/fundraisers/new")
      let response = try await client.postFundraiserForm(
        "/fundraisers",
        [
          .text("purpose", "  "), .text("target", "багато"),
          .text("jar_link", "send.monobank.ua/jar/x"),
        ])
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains("Поле не може бути пустим"))
      #expect(response.body.contains("Неправильний формат"))
      #expect(response.body.contains("Неправильний формат URL"))
      #expect(response.body.contains("Необхідно вибрати зображення"))
      #expect(response.body.contains("Необхідно вибрати шаблон"))
      // Typed values are kept.
      #expect(response.body.contains(#"value="багато""#))
      #expect(try await FundraiserTable.query(on: t.db).count() == 0)
    }
  }

  @Test func aRefusedPhotoSaysWhyInUkrainian() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/fundraisers/new")
      let response = try await client.postFundraiserForm(
        "/fundraisers",
        [
          .text("purpose", "Збір"), .text("template", "1"),
          .photo(Data("GIF89a".utf8), filename: "photo.png"),
        ])
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains("Зображення має бути у форматі JPEG або PNG"))
    }
  }

  @Test func aPhotoUploadedWithAFailingFormIsKept() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/fundraisers/new")
      let failed = try await client.postFundraiserForm(
        "/fundraisers",
        [.text("purpose", ""), .text("template", "2"), .photo(FundraiserImages.png())])
      #expect(failed.status == .unprocessableEntity)
      #expect(!failed.body.contains("Необхідно вибрати зображення"))
      let draft = try #require(failed.firstMatch(#"name="photo_draft" value="([0-9a-f-]+)""#))
      let second = try await client.postFundraiserForm(
        "/fundraisers",
        [.text("purpose", "Тепер з текстом"), .text("template", "2"), .text("photo_draft", draft)])
      #expect(second.status == .seeOther)
      let record = try #require(await FundraiserTable.query(on: t.db).first())
      let photo = try #require(await FundraiserPhotos.photo(for: record.requireID(), on: t.db))
      #expect(photo.id.uuidString.lowercased() == draft)
    }
  }

  @Test func draftsAreKeptForADayOfTheAppsClock() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/fundraisers/new")
      func leaveADraft() async throws {
        let failed = try await client.postFundraiserForm(
          "/fundraisers", [.text("purpose", ""), .photo(FundraiserImages.png())])
        #expect(failed.status == .unprocessableEntity)
      }
      func drafts() async throws -> Int {
        try await FundraiserPhotoTable.query(on: t.db).filter(\.$fundraiserID == nil).count()
      }
      try await leaveADraft()
      t.clock.advance(by: 23 * 3600)
      _ = try await client.addFundraiser(purpose: "Перший")
      #expect(try await drafts() == 1, "a draft a day old by the app's clock is kept")
      try await leaveADraft()
      t.clock.advance(by: 2 * 3600)
      _ = try await client.addFundraiser(purpose: "Другий")
      #expect(try await drafts() == 1, "only the draft older than a day is gone")
    }
  }

  @Test func anotherAccountsDraftCannotBeUsed() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      try await owner.get("/fundraisers/new")
      let failed = try await owner.postFundraiserForm(
        "/fundraisers", [.text("purpose", ""), .photo(FundraiserImages.png())])
      let draft = try #require(failed.firstMatch(#"name="photo_draft" value="([0-9a-f-]+)""#))
      let other = t.client()
      try await other.signUp()
      try await other.get("/fundraisers/new")
      let response = try await other.postFundraiserForm(
        "/fundraisers",
        [.text("purpose", "Чуже фото"), .text("template", "2"), .text("photo_draft", draft)])
      #expect(response.status == .unprocessableEntity)
      #expect(response.body.contains("Необхідно вибрати зображення"))
      #expect(try await other.get("/fundraisers/photos/\(draft)").status == .notFound)
    }
  }

  @Test func createShowsTheCardAndThePosterPage() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser(purpose: "Бусик <для> розвідки", target: "15000,50")
      let record = try #require(await FundraiserTable.stored(id, on: t.db))
      #expect(record.targetKopiykas == 1_500_050)
      #expect(record.template == 7)
      #expect(record.scale == 1.5 && record.offsetX == 12 && record.offsetY == -8)
      #expect(record.jarID == "StubJar001")

      let list = try await client.get("/fundraisers")
      #expect(list.body.contains("Бусик &lt;для&gt; розвідки"))
      #expect(list.body.contains("Ціль: 15\u{00A0}000,50\u{00A0}грн."))
      #expect(list.body.contains(#"src="\#(Self.path(id, "/poster.svg"))?format=post""#))
      // No jar data yet: no progress, nothing "collected".
      #expect(!list.body.contains("Прогрес"))
      #expect(!list.body.contains("Зібрано"))

      let show = try await client.get(Self.path(id))
      #expect(show.status == .ok)
      #expect(show.body.contains("Завантажити PNG"))
      #expect(show.body.contains("Завантажити SVG"))
      #expect(show.body.contains("Ви впевнені, що хочете видалити збір?"))
      #expect(show.body.contains("Оновити"))
      let story = try await client.get(Self.path(id) + "?format=story")
      #expect(story.body.contains(#"data-height="1920""#))
    }
  }

  @Test func posterSVGIsCachedAndHasItsOwnPolicy() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser(purpose: "Дрон", target: "15 000")
      let poster = try await client.get(
        Self.path(id, "/poster.svg") + "?format=portrait&template=3")
      #expect(poster.status == .ok)
      #expect(poster.headers.first(name: .contentType)?.hasPrefix("image/svg+xml") == true)
      let policy = try #require(poster.headers.first(name: "Content-Security-Policy"))
      #expect(policy.contains("default-src 'none'"))
      #expect(policy.contains("style-src 'unsafe-inline'"))
      #expect(!policy.contains("script-src"))
      #expect(poster.body.contains(#"height="1350""#))
      #expect(poster.body.contains("Ціль: 15\u{00A0}000"))
      #expect(poster.body.contains("data:image/png;base64,"))
      #expect(poster.body.contains("@font-face"))
      let etag = try #require(poster.headers.first(name: .eTag))
      let again = try await client.get(
        Self.path(id, "/poster.svg") + "?format=portrait&template=3",
        headers: ["If-None-Match": etag])
      #expect(again.status == .notModified)
      let other = try await client.get(
        Self.path(id, "/poster.svg") + "?format=story&template=3", headers: ["If-None-Match": etag])
      #expect(other.status == .ok)
      let download = try await client.get(Self.path(id, "/poster.svg") + "?download=1")
      #expect(
        download.headers.first(name: .contentDisposition)
          == #"attachment; filename="zbir-07-post.svg""#)
    }
  }

  @Test func previewRendersTypedValuesForThumbnailsAndTheLivePreview() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let thumb = try await client.get(
        "/fundraisers/preview.svg?mode=thumb&template=9&purpose=%D0%9D%D0%B0%20%D0%B0%D0%B2%D1%82%D0%BE&target=2000"
      )
      #expect(thumb.status == .ok)
      #expect(thumb.body.contains("На авто"))
      #expect(thumb.body.contains("Збір на 2\u{00A0}000"))
      #expect(thumb.body.contains("@font-face"))
      // The live preview gets no inline style (the page's policy forbids it) and a slot for the
      // photo chosen on the device.
      let live = try await client.get(
        "/fundraisers/preview.svg?mode=inline&template=1&photo=local&scale=2&offset_x=10")
      #expect(live.status == .ok)
      #expect(!live.body.contains("<style"))
      #expect(live.body.contains("<image"))
      #expect(live.body.contains("matrix(2 0 0 2"))
      #expect(try await client.get("/fundraisers/preview.svg").status == .ok)
    }
  }

  @Test func updateAndDelete() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser()
      let edit = try await client.get(Self.path(id, "/edit"))
      #expect(edit.status == .ok)
      #expect(edit.body.contains("Залиште порожнім, щоб зберегти поточне фото."))
      #expect(edit.body.contains(#"value="7" class="fr-template-radio" checked"#))
      let updated = try await client.postFundraiserForm(
        Self.path(id),
        [
          .text("purpose", "Нове призначення"), .text("target", ""), .text("jar_link", ""),
          .text("template", "12"), .text("scale", "99"), .text("offset_x", "0"),
          .text("offset_y", "0"), .text("format", "story"),
        ])
      #expect(updated.status == .seeOther)
      #expect(updated.location == Self.path(id) + "?format=story")
      let record = try #require(await FundraiserTable.stored(id, on: t.db))
      #expect(record.purpose == "Нове призначення")
      #expect(record.targetKopiykas == nil && record.jarID == nil)
      #expect(record.template == 12)
      #expect(record.scale == ImagePlacement.maximumScale)
      try await client.get(Self.path(id))
      let deleted = try await client.post(Self.path(id, "/delete"))
      #expect(deleted.status == .seeOther)
      #expect(try await FundraiserTable.stored(id, on: t.db) == nil)
      #expect(try await FundraiserPhotoTable.query(on: t.db).count() == 0)
      #expect(try await client.get(Self.path(id)).status == .notFound)
    }
  }

  @Test func formsRefuseAPostWithoutTheCSRFToken() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser()
      let create = try await client.postFundraiserForm(
        "/fundraisers", [.text("purpose", "x"), .text("template", "1")], csrf: false)
      #expect(create.status == .forbidden)
      for path in [Self.path(id), Self.path(id, "/delete"), Self.path(id, "/refresh")] {
        #expect(try await client.post(path, csrf: false).status == .forbidden, "\(path)")
      }
      #expect(try await client.post("/fundraisers/refresh", csrf: false).status == .forbidden)
      #expect(try await FundraiserTable.stored(id, on: t.db) != nil)
    }
  }

  @Test func anotherAccountsFundraiserAndPhotoAreNotFound() async throws {
    try await withFundraiserApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addFundraiser(purpose: "Секретний збір")
      let photo = try #require(await FundraiserPhotos.reference(for: id, on: t.db))
      #expect(try await owner.get("/fundraisers/photos/\(photo.id.uuidString)").status == .ok)

      let other = t.client()
      try await other.signUp()
      for path in [
        Self.path(id), Self.path(id, "/edit"), Self.path(id, "/poster.svg"),
        "/fundraisers/photos/\(photo.id.uuidString)",
        "/fundraisers/preview.svg?id=\(id.uuidString)",
        "/fundraisers/preview.svg?photo=\(photo.id.uuidString)",
      ] {
        let response = try await other.get(path)
        #expect(response.status == .notFound, "\(path)")
        #expect(!response.body.contains("Секретний"))
      }
      for path in [Self.path(id), Self.path(id, "/delete"), Self.path(id, "/refresh")] {
        #expect(try await other.post(path).status == .notFound, "\(path)")
      }
      #expect(try await other.get("/fundraisers/not-an-id").status == .notFound)
      let list = try await other.get("/fundraisers")
      #expect(!list.body.contains("Секретний"))
      #expect(try await FundraiserTable.stored(id, on: t.db) != nil)
    }
  }

  @Test func refreshingFromTheStubUpdatesTheCardAndAFailureKeepsTheLastGoodData() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 375_000, goal: 2_000_000))
      try await withFundraiserApp(stub: stub) { t in
        let client = t.client()
        try await client.signUp()
        let id = try await client.addFundraiser(target: "10 000")
        let refreshed = try await client.post(Self.path(id, "/refresh"))
        #expect(refreshed.status == .seeOther)
        let show = try await client.get(try #require(refreshed.location))
        #expect(show.body.contains("Прогрес оновлено: зібрано 3\u{00A0}750\u{00A0}грн."))
        let list = try await client.get("/fundraisers")
        #expect(list.body.contains("Прогрес 37%"))
        #expect(list.body.contains(#"<progress class="fr-progress-bar" max="100" value="37""#))
        #expect(list.body.contains("Зібрано: 3\u{00A0}750\u{00A0}грн."))
        #expect(list.body.contains("Дані від"))

        // Monobank is down: the card keeps 37% and says the refresh failed.
        t.clock.advance(by: 600)
        stub.set("StubJar001", .raw(status: .serviceUnavailable, body: "down"))
        try await client.post(Self.path(id, "/refresh"))
        let after = try await client.get(Self.path(id))
        #expect(after.body.contains("Не вдалося оновити: Monobank повернув помилку HTTP 503"))
        #expect(after.body.contains("Показано дані від"))
        #expect(after.body.contains("Прогрес 37%"))
        let card = try await client.get("/fundraisers")
        #expect(card.body.contains("Прогрес 37%"))
        #expect(card.body.contains("Не вдалося оновити"))

        // The jar closes: the card says so; the jar's goal is used when there is no target.
        t.clock.advance(by: 600)
        stub.set("StubJar001", .jar(amount: 2_100_000, goal: 2_000_000, status: "CLOSED"))
        try await client.post("/fundraisers/refresh")
        let closed = try await client.get("/fundraisers")
        #expect(closed.body.contains("Збір закрито"))
        #expect(closed.body.contains("Прогрес 210%"))
        #expect(!closed.body.contains("Не вдалося оновити"))
        let chart = try await client.get(Self.path(id))
        #expect(chart.body.contains(#"<svg class="fr-chart""#))
        #expect(chart.body.contains("Історія оновлень"))
      }
    }
  }

  @Test func progressUsesTheJarGoalWithoutATargetAndThePosterShowsIt() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 250_000, goal: 1_000_000))
      try await withFundraiserApp(stub: stub) { t in
        let client = t.client()
        try await client.signUp()
        let id = try await client.addFundraiser(target: "", showProgress: true)
        let before = try await client.get(Self.path(id, "/poster.svg"))
        #expect(!before.body.contains("Зібрано"))
        try await client.post(Self.path(id, "/refresh"))
        let list = try await client.get("/fundraisers")
        #expect(list.body.contains("Прогрес 25%"))
        #expect(list.body.contains("Ціль: 10\u{00A0}000\u{00A0}грн."))
        let after = try await client.get(
          Self.path(id, "/poster.svg"),
          headers: ["If-None-Match": before.headers.first(name: .eTag) ?? ""])
        #expect(after.status == .ok, "the poster did not change with the progress")
        #expect(after.body.contains("Зібрано"))
      }
    }
  }

  @Test func aFundraiserWithoutAJarCannotBeRefreshed() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser(jar: "")
      let response = try await client.post(Self.path(id, "/refresh"))
      #expect(response.status == .seeOther)
      let page = try await client.get(Self.path(id))
      #expect(page.body.contains("У цього збору немає банки"))
      #expect(try await JarSnapshotTable.query(on: t.db).count() == 0)
    }
  }

  @Test func homeCardCountsFundraisersAndOverallProgress() async throws {
    try await withJarStub { stub in
      stub.set("StubJar001", .jar(amount: 500_000, goal: nil))
      try await withFundraiserApp(stub: stub) { t in
        let client = t.client()
        try await client.signUp()
        let empty = try await client.get("/")
        #expect(empty.body.contains(#"id="home-fundraisers""#))
        #expect(empty.body.contains("0</strong> зборів"))
        let id = try await client.addFundraiser(target: "10 000")
        try await client.addFundraiser(target: "", jar: "")
        try await client.post(Self.path(id, "/refresh"))
        let home = try await client.get("/")
        #expect(home.body.contains("2</strong> збори"))
        #expect(home.body.contains("Прогрес 50%"))
        #expect(FundraisersHome.noun(1) == "збір" && FundraisersHome.noun(11) == "зборів")
        #expect(FundraisersHome.noun(22) == "збори" && FundraisersHome.noun(25) == "зборів")
      }
    }
  }
}
