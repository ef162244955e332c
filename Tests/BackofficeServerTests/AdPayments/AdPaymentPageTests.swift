import BackofficeCore
import Fluent
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Ad payments: pages")
struct AdPaymentPageTests {
  @Test func signedOutVisitorsGoToSignIn() async throws {
    try await withApp { t in
      let response = try await t.client().get("/ad-payments")
      #expect(response.status == .seeOther)
      #expect(response.location?.hasPrefix("/sign-in") == true)
    }
  }

  @Test func emptyListSaysWhatToDo() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let response = try await client.get("/ad-payments")
      #expect(response.status == .ok)
      #expect(response.body.contains("<title>Ad payments · Backoffice</title>"))
      #expect(response.body.contains("No payments added yet"))
      #expect(response.body.contains("Use the Add button to create your first payment entry"))
      #expect(response.body.contains(#"href="/ad-payments/new""#))
      #expect(!response.body.contains("ad-payment-search"), "no search box for an empty list")
    }
  }

  @Test func addShowsTheFormAndSavesTrimmedValues() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let form = try await client.get("/ad-payments/new")
      #expect(form.status == .ok)
      #expect(form.body.contains("<h1>Add Payments</h1>"))
      #expect(form.body.contains(#"action="/ad-payments""#))
      let response = try await client.post(
        "/ad-payments",
        form: [("name", "  Spring campaign \n"), ("url", " https://Example.com/Spring \t")])
      #expect(response.status == .seeOther)
      #expect(response.location == "/ad-payments")
      let entry = try #require(try await AdPaymentTable.query(on: t.db).first())
      #expect(entry.name == "Spring campaign")
      #expect(entry.url == "https://Example.com/Spring", "stored as typed, only trimmed")
      #expect(entry.sortKey == "spring campaign")
      #expect(entry.urlKey == "https://example.com/Spring")
      let list = try await client.get("/ad-payments")
      #expect(list.body.contains("Payment \u{201C}Spring campaign\u{201D} saved."))
      #expect(list.listedNames == ["Spring campaign"])
      #expect(list.body.contains(#"href="https://Example.com/Spring""#))
      #expect(list.body.contains(#"rel="noopener noreferrer nofollow""#))
    }
  }

  @Test(arguments: AdPaymentExamples.invalidURLs)
  func invalidLinkIsRefusedNextToTheFieldWithTheTypedValuesKept(_ url: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/ad-payments/new")
      let response = try await client.post("/ad-payments", form: [("name", "Ads"), ("url", url)])
      #expect(response.status == .unprocessableEntity)
      #expect(response.fieldError("url") == AdPaymentExamples.invalidURL)
      #expect(response.fieldError("name") == "")
      #expect(response.inputValue("name") == "Ads")
      #expect(response.inputValue("url") == url)
      #expect(response.body.contains(#"id="field-url" name="url" type="url""#))
      #expect(try await AdPaymentTable.query(on: t.db).count() == 0)
    }
  }

  @Test(arguments: AdPaymentExamples.validURLs)
  func validLinksAreSaved(_ url: String) async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/ad-payments/new")
      let response = try await client.post("/ad-payments", form: [("name", "Ads"), ("url", url)])
      #expect(response.status == .seeOther)
      #expect(try await AdPaymentTable.query(on: t.db).first()?.url == url)
    }
  }

  @Test func blankNameAndBadLinkAreBothShownNameFirst() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.get("/ad-payments/new")
      let response = try await client.post(
        "/ad-payments", form: [("name", " \n "), ("url", "http://google")])
      #expect(response.status == .unprocessableEntity)
      #expect(response.fieldError("name") == AdPaymentExamples.blankName)
      #expect(response.fieldError("url") == AdPaymentExamples.invalidURL)
      // The first failing rule in the original's order gets the focus.
      let name = try #require(response.firstMatch(#"(<input id="field-name"[^>]*>)"#))
      let url = try #require(response.firstMatch(#"(<input id="field-url"[^>]*>)"#))
      #expect(name.contains("autofocus"))
      #expect(!url.contains("autofocus"))
      #expect(name.contains(#"aria-invalid="true""#))
      // Missing fields count as blank.
      let missing = try await client.post("/ad-payments", form: [])
      #expect(missing.status == .unprocessableEntity)
      #expect(missing.fieldError("name") == AdPaymentExamples.blankName)
    }
  }

  @Test func editShowsTheEntryAndUpdatesIt() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addAdPayment(name: "Old", url: "https://old.example.com", db: t.db)
      let path = "/ad-payments/\(id.uuidString.lowercased())"
      let edit = try await client.get(path + "/edit")
      #expect(edit.status == .ok)
      #expect(edit.body.contains("<h1>Edit Ad Payment</h1>"))
      #expect(edit.inputValue("name") == "Old")
      #expect(edit.inputValue("url") == "https://old.example.com")
      #expect(edit.body.contains(#"action="\#(path)""#))
      #expect(edit.body.contains(#"action="\#(path)/delete""#))

      let bad = try await client.post(path, form: [("name", "New"), ("url", "https://invalid.")])
      #expect(bad.status == .unprocessableEntity)
      #expect(bad.fieldError("url") == AdPaymentExamples.invalidURL)
      #expect(bad.inputValue("name") == "New")
      #expect(bad.body.contains("<h1>Edit Ad Payment</h1>"))
      #expect(try await AdPaymentTable.find(id, on: t.db)?.name == "Old")

      try await client.get(path + "/edit")
      let saved = try await client.post(
        path, form: [("name", " New name "), ("url", "https://new.example.com ")])
      #expect(saved.status == .seeOther)
      let entry = try #require(try await AdPaymentTable.find(id, on: t.db))
      #expect(entry.name == "New name")
      #expect(entry.url == "https://new.example.com")
      #expect(entry.sortKey == "new name")
      #expect(
        try await client.get("/ad-payments").body.contains(
          "Payment \u{201C}New name\u{201D} updated."))
    }
  }

  @Test func deleteRemovesTheEntryAndReturnsToTheSameList() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addAdPayment(
        name: "Gone", url: "https://gone.example.com", db: t.db)
      let list = try await client.get("/ad-payments")
      // The confirmation is part of the page, behind a <details> summary.
      #expect(list.body.contains("Delete \u{201C}Gone\u{201D}? This cannot be undone."))
      #expect(list.body.contains(#"<summary class="button button-danger">Delete</summary>"#))
      let response = try await client.post(
        "/ad-payments/\(id.uuidString.lowercased())/delete?q=go")
      #expect(response.status == .seeOther)
      #expect(response.location == "/ad-payments?q=go")
      #expect(try await AdPaymentTable.find(id, on: t.db) == nil)
      let after = try await client.get("/ad-payments")
      #expect(after.body.contains("Payment \u{201C}Gone\u{201D} deleted."))
      #expect(after.body.contains("No payments added yet"))
    }
  }

  @Test func anotherAccountsEntryIsNotFoundOnEveryPage() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      let id = try await owner.addAdPayment(name: "Mine", url: "https://mine.example.com", db: t.db)
      let path = "/ad-payments/\(id.uuidString.lowercased())"

      let other = t.client()
      try await other.signUp()
      let edit = try await other.get(path + "/edit")
      #expect(edit.status == .notFound)
      #expect(!edit.body.contains("mine.example.com"))
      try await other.get("/ad-payments")
      #expect(
        try await other.post(path, form: [("name", "Taken"), ("url", "https://x.com")]).status
          == .notFound)
      #expect(try await other.post(path + "/delete").status == .notFound)
      let list = try await other.get("/ad-payments")
      #expect(!list.body.contains("Mine"))
      #expect(try await other.get("/ad-payments/export.csv").body.contains("Mine") == false)

      let entry = try #require(try await AdPaymentTable.find(id, on: t.db))
      #expect(entry.name == "Mine")
      // Unknown and malformed ids are the same 404.
      #expect(try await owner.get("/ad-payments/\(UUID())/edit").status == .notFound)
      #expect(try await owner.get("/ad-payments/not-an-id/edit").status == .notFound)
      try await owner.get("/ad-payments")
      #expect(try await owner.post("/ad-payments/not-an-id/delete").status == .notFound)
    }
  }

  @Test func formsRefuseMissingOrForeignCSRFTokens() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addAdPayment(
        name: "Kept", url: "https://kept.example.com", db: t.db)
      let path = "/ad-payments/\(id.uuidString.lowercased())"
      let create = try await client.post(
        "/ad-payments", form: [("name", "Forged"), ("url", "https://forged.example.com")],
        csrf: false)
      #expect(create.status == .forbidden)
      let update = try await client.post(
        path, form: [("name", "Forged"), ("url", "https://forged.example.com")],
        csrfToken: "forged")
      #expect(update.status == .forbidden)
      let attacker = t.client()
      try await attacker.signUp()
      let delete = try await client.post(path + "/delete", csrfToken: attacker.csrf)
      #expect(delete.status == .forbidden)
      let upload = try await client.upload(
        "/ad-payments/import", file: Data("name,url\nA,https://a.com\n".utf8), csrf: false)
      #expect(upload.status == .forbidden)
      let entries = try await AdPaymentTable.query(on: t.db).all()
      #expect(entries.map(\.name) == ["Kept"])
    }
  }

  @Test func listIsSortedByNameIgnoringCaseLikeCore() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let names = [
        "zebra", "Apple", "banana", "Émile", "emile", "Emile", "apple pie", "applesauce", "_under",
        "Ärger", "10 ads", "2 ads", "Zed", "Ґанок", "абетка",
      ]
      for name in names {
        try await client.addAdPayment(
          name: name, url: "https://\(names.firstIndex(of: name)!).example.com", db: t.db)
      }
      let listed = try await client.get("/ad-payments").listedNames
      let expected = AdPaymentOrdering.sorted(names.map { AdPayment(name: $0, url: "") }).map(
        \.name)
      #expect(listed.map(unescape) == expected)
      #expect(expected.prefix(4) == ["10 ads", "2 ads", "_under", "Apple"])
    }
  }

  @Test func searchMatchesNameOrLinkIgnoringCaseAndAccents() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await client.addAdPayment(
        name: "Crème Campaign", url: "https://shop.example.com/a_b", db: t.db)
      try await client.addAdPayment(name: "Winter", url: "https://ADS.Example.org/100%25", db: t.db)
      try await client.addAdPayment(name: "Summer", url: "https://summer.example.net", db: t.db)

      #expect(try await client.get("/ad-payments?q=CREME").listedNames == ["Crème Campaign"])
      #expect(try await client.get("/ad-payments?q=ads.example").listedNames == ["Winter"])
      #expect(try await client.get("/ad-payments?q=EXAMPLE").listedNames.count == 3)
      // LIKE wildcards in the search are plain characters.
      #expect(try await client.get("/ad-payments?q=a_b").listedNames == ["Crème Campaign"])
      #expect(try await client.get("/ad-payments?q=_").listedNames == ["Crème Campaign"])
      #expect(try await client.get("/ad-payments?q=%25").listedNames == ["Winter"])
      let none = try await client.get("/ad-payments?q=nothing")
      #expect(none.listedNames.isEmpty)
      #expect(none.body.contains("No payments match \u{201C}nothing\u{201D}"))
      #expect(none.body.contains(#"value="nothing""#))
      let one = try await client.get("/ad-payments?q=summer")
      #expect(one.body.contains("1 payment match \u{201C}summer\u{201D}"))
    }
  }

  @Test func longListsArePaginatedFiftyAPage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let userID = try #require(try await Accounts.all(on: t.db).first?.id)
      let workspaceID = try await t.workspaceID(ofUser: userID)
      for index in 1...120 {
        let name = String(format: "Entry %03d", index)
        _ = try await AdPaymentStore(db: t.db, workspaceID: workspaceID)
          .create(AdPayment(name: name, url: "https://e\(index).example.com"))
      }
      let first = try await client.get("/ad-payments")
      #expect(first.listedNames.count == 50)
      #expect(first.listedNames.first == "Entry 001")
      #expect(first.body.contains("120 payments"))
      #expect(first.body.contains(#"href="/ad-payments?page=2""#))
      #expect(first.body.contains(#"href="/ad-payments?page=3""#))
      #expect(first.body.contains(#"aria-current="page">1</span>"#))
      let third = try await client.get("/ad-payments?page=3")
      #expect(third.listedNames == (101...120).map { String(format: "Entry %03d", $0) })
      #expect(third.body.contains(#"rel="prev""#))
      // Past the end: the last page; nonsense: the first.
      #expect(try await client.get("/ad-payments?page=99").listedNames.first == "Entry 101")
      #expect(try await client.get("/ad-payments?page=-3").listedNames.first == "Entry 001")
      #expect(
        try await client.get("/ad-payments?page=9223372036854775807").listedNames.first
          == "Entry 101")
      let searched = try await client.get("/ad-payments?q=entry&page=2")
      #expect(searched.listedNames.first == "Entry 051")
      #expect(searched.body.contains(#"href="/ad-payments?page=3&amp;q=entry""#))
    }
  }

  @Test func savingADuplicateLinkWarnsWithALinkToTheOtherEntry() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let first = try await client.addAdPayment(
        name: "Original", url: "https://www.example.com/page", db: t.db)
      try await client.get("/ad-payments/new")
      let response = try await client.post(
        "/ad-payments", form: [("name", "Copy"), ("url", "HTTPS://WWW.EXAMPLE.COM/page/")])
      #expect(response.status == .seeOther, "duplicates are allowed")
      let list = try await client.get("/ad-payments")
      #expect(list.body.contains("\u{201C}Copy\u{201D} has the same URL as"))
      #expect(list.body.contains(#"href="/ad-payments/\#(first.uuidString.lowercased())/edit""#))
      #expect(!(try await client.get("/ad-payments").body.contains("has the same URL")), "once")
      #expect(try await AdPaymentTable.query(on: t.db).count() == 2)

      // The edit form of the copy warns too, without scripts.
      let copy = try #require(
        try await AdPaymentTable.query(on: t.db).filter(\.$name == "Copy").first()?.id)
      let edit = try await client.get("/ad-payments/\(copy.uuidString.lowercased())/edit")
      #expect(edit.body.contains("This URL is already saved as"))
      #expect(
        edit.body.contains(#"<a href="/ad-payments/\#(first.uuidString.lowercased())/edit">"#))
      // A different path is not a duplicate; a distinct entry gets no warning.
      let firstEdit = try await client.get("/ad-payments/\(first.uuidString.lowercased())/edit")
      #expect(firstEdit.body.contains("Copy"), "each side of a duplicate links to the other")
      try await client.get("/ad-payments/new")
      let distinct = try await client.post(
        "/ad-payments", form: [("name", "Other"), ("url", "https://www.example.com/Page")])
      #expect(distinct.status == .seeOther)
      #expect(!(try await client.get("/ad-payments").body.contains("has the same URL")))
    }
  }

  @Test func duplicatesInAnotherAccountAreNotMentioned() async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp()
      try await owner.addAdPayment(name: "Secret", url: "https://shared.example.com", db: t.db)
      let other = t.client()
      try await other.signUp()
      try await other.addAdPayment(name: "Mine", url: "https://shared.example.com", db: t.db)
      let list = try await other.get("/ad-payments")
      #expect(!list.body.contains("has the same URL"))
      #expect(!list.body.contains("Secret"))
      let check = try await other.get("/ad-payments/check?name=x&url=https://shared.example.com")
      #expect(!check.body.contains("Secret"))
    }
  }

  @Test func checkAnswersWithCoreMessagesAndDuplicates() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addAdPayment(name: "First", url: "https://a.example.com", db: t.db)
      let bad = try await client.get("/ad-payments/check?name=%20&url=http%3A%2F%2Ftest")
      #expect(bad.status == .ok)
      #expect(bad.headers.first(name: .contentType)?.hasPrefix("application/json") == true)
      let fields = try #require(try bad.json()["fields"] as? [String: String])
      #expect(fields == ["name": AdPaymentExamples.blankName, "url": AdPaymentExamples.invalidURL])
      #expect((try bad.json()["same_url"] as? [Any])?.isEmpty == true)

      let duplicate = try await client.get(
        "/ad-payments/check?name=Second&url=HTTPS%3A%2F%2FA.example.com%2F")
      let json = try duplicate.json()
      #expect((json["fields"] as? [String: String]) == [:])
      let same = try #require(json["same_url"] as? [[String: Any]])
      #expect(same.count == 1)
      #expect(same.first?["name"] as? String == "First")
      #expect(same.first?["href"] as? String == "/ad-payments/\(id.uuidString.lowercased())/edit")
      // Editing the entry itself: it is not its own duplicate.
      let own = try await client.get(
        "/ad-payments/check?name=First&url=https%3A%2F%2Fa.example.com&id=\(id.uuidString)")
      #expect((try own.json()["same_url"] as? [Any])?.isEmpty == true)
    }
  }

  @Test func failedWritesSayWhatTheOriginalSaidAndKeepTheValues() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      try await failAdPaymentWrites(t, on: "INSERT")
      try await client.get("/ad-payments/new")
      let create = try await client.post(
        "/ad-payments", form: [("name", "Lost"), ("url", "https://lost.example.com")])
      #expect(create.status == .internalServerError)
      #expect(create.body.contains("Failed to save payment. Please try again."))
      #expect(create.inputValue("name") == "Lost")
      #expect(create.inputValue("url") == "https://lost.example.com")
    }
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addAdPayment(
        name: "Stored", url: "https://stored.example.com", db: t.db)
      try await failAdPaymentWrites(t, on: "UPDATE")
      let path = "/ad-payments/\(id.uuidString.lowercased())"
      try await client.get(path + "/edit")
      let update = try await client.post(
        path, form: [("name", "Changed"), ("url", "https://changed.example.com")])
      #expect(update.status == .internalServerError)
      #expect(update.body.contains("Failed to update payment. Please try again."))
      #expect(update.inputValue("name") == "Changed")
      #expect(try await AdPaymentTable.find(id, on: t.db)?.name == "Stored")
    }
  }

  @Test func homeShowsTheNumberOfEntries() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let empty = try await client.get("/")
      #expect(empty.body.contains(#"id="home-ad-payments""#))
      #expect(empty.body.contains("<strong>0</strong> entries"))
      try await client.addAdPayment(name: "One", url: "https://one.example.com", db: t.db)
      try await client.addAdPayment(name: "Two", url: "https://two.example.com", db: t.db)
      let home = try await client.get("/")
      #expect(home.body.contains("<strong>2</strong> entries"))
      #expect(home.body.contains(#"href="/ad-payments""#))
      let other = t.client()
      try await other.signUp()
      #expect(try await other.get("/").body.contains("<strong>0</strong> entries"))
    }
  }

  @Test func navigationListsTheArea() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/ad-payments/new")
      #expect(page.body.contains(#"<a href="/ad-payments" aria-current="page">Ad payments</a>"#))
      #expect(page.body.contains(#"<script type="module" src="/js/ad-payments.js"></script>"#))
    }
  }

  private func unescape(_ html: String) -> String {
    html.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}
