import Foundation
import Testing
import Vapor

@testable import BackofficeCore
@testable import BackofficeServer

/// The readable text of a page: text nodes and the attributes people hear or see (labels,
/// placeholders, titles, alternative texts), leaving out scripts, styles and anything marked
/// with a `lang` other than the page's (a language or locale named in itself).
enum PageText {
  static let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
  ]
  static let spokenAttributes = ["aria-label", "placeholder", "title", "alt"]

  static func pageLanguage(_ html: String) -> String? {
    firstMatch(#"<html[^>]*\slang="([^"]+)""#, in: html)
  }

  static func texts(_ html: String) -> [String] {
    let language = pageLanguage(html) ?? ""
    let html = html.replacingOccurrences(of: "<!DOCTYPE html>", with: "")
    let tag = try! NSRegularExpression(pattern: #"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>"#)
    let source = html as NSString
    var stack: [(name: String, skip: Bool)] = []
    var out: [String] = []
    var position = 0
    func skipping() -> Bool { stack.contains { $0.skip } }
    for match in tag.matches(in: html, range: NSRange(location: 0, length: source.length)) {
      if !skipping() {
        let text = source.substring(
          with: NSRange(location: position, length: match.range.location - position))
        out.append(decode(text))
      }
      position = match.range.location + match.range.length
      let closing = source.substring(with: match.range(at: 1)) == "/"
      let name = source.substring(with: match.range(at: 2)).lowercased()
      let attributes = source.substring(with: match.range(at: 3))
      if closing {
        if let index = stack.lastIndex(where: { $0.name == name }) {
          stack.removeSubrange(index...)
        }
        continue
      }
      let lang = firstMatch(#"\slang="([^"]*)""#, in: attributes)
      let foreign = lang.map { !$0.isEmpty && $0 != language } ?? false
      let skip = foreign || ["script", "style"].contains(name)
      if !skip && !skipping() {
        for attribute in spokenAttributes {
          if let value = firstMatch(#"\s\#(attribute)="([^"]*)""#, in: attributes) {
            out.append(decode(value))
          }
        }
      }
      if !voidElements.contains(name) && !attributes.hasSuffix("/") {
        stack.append((name, skip))
      }
    }
    return out.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
  }

  static func decode(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  static func firstMatch(_ pattern: String, in text: String) -> String? {
    guard let regex = try? NSRegularExpression(pattern: pattern),
      let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
      let range = Range(match.range(at: 1), in: text)
    else { return nil }
    return String(text[range])
  }

  static func hasCyrillic(_ text: String) -> Bool {
    text.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
  }

  /// Two Latin words in a row (an English phrase), once names of things, addresses and the
  /// test's own data are taken out.
  static func englishPhrase(_ text: String, data: [String]) -> String? {
    var rest = text
    for item in data.sorted(by: { $0.count > $1.count }) {
      rest = rest.replacingOccurrences(of: item, with: " ")
    }
    rest = rest.replacingOccurrences(
      of: #"\S+@\S+|https?://\S+|/[a-z0-9/._?=&:-]+"#, with: " ", options: .regularExpression)
    return firstMatch(#"\b([A-Za-z]{2,}[ ,.:;]+[A-Za-z]{2,})\b"#, in: rest)
  }
}

@Suite("One language per page")
struct LanguageWalkTests {
  static let catalogTexts: [String] = {
    let catalog = MarketingCatalog.bundledDefault
    return catalog.targets.map(\.name) + catalog.channels.map(\.name)
      + catalog.channels.flatMap { $0.packages.flatMap { [$0.name, $0.description] } }
  }()

  /// What the walk's records are called, the shared marketing catalog's contents (data the
  /// administrator writes, in the catalog's language), and names of things that are Latin in
  /// any language.
  static let data =
    catalogTexts + [
      "owned product", "owned fundraiser", "owned public page", "owned photo", "owned entry",
      "owned expense", "owned import", "owned", "Product", "Backoffice", "CSV", "JSON", "API",
      "URL", "PNG", "SVG", "JPEG", "Monobank", "ISO 4217", "UTC", "Authorization: Bearer <token>",
      "ETag", "If-Match", "bo_", "EUR", "USD", "UAH", "GBP", "backoffice import",
      "backoffice user reset-password --email you@example.org",
      "https://owned.example.com",
    ]

  /// Every page a signed-in account can open, with one record of each kind, in English and
  /// in Ukrainian: `<html lang>` names the language and no text of the other one shows.
  @Test(arguments: UILanguage.allCases)
  func everyPageSpeaksTheAccountsLanguage(language: UILanguage) async throws {
    try await withApp { t in
      let owner = t.client()
      try await owner.signUp(acceptLanguage: language == .uk ? "uk-UA,uk;q=0.9" : "en-US")
      var ids: [String: String] = [:]
      for (name, make) in IsolationFixtures.makers.sorted(by: { $0.key < $1.key }) {
        try await owner.get("/")
        ids[name] = try await make(t, owner)
      }
      let pages = Routes.all.filter { $0.method == .GET && !$0.template.hasPrefix("/api/") }
      var checked = 0
      for route in pages {
        let response = try await owner.get(route.href(ids))
        guard response.headers.contentType == .html || response.body.hasPrefix("<!DOCTYPE html>")
        else { continue }
        checked += 1
        #expect(PageText.pageLanguage(response.body) == language.rawValue, "\(route)")
        for text in PageText.texts(response.body) {
          switch language {
          case .en:
            #expect(!PageText.hasCyrillic(text), "\(route): \(text)")
          case .uk:
            let phrase = PageText.englishPhrase(text, data: Self.data)
            #expect(phrase == nil, "\(route): \(text)")
          }
        }
      }
      #expect(checked >= 25)
    }
  }

  @Test func theWalkFindsTheOtherLanguage() {
    let html = """
      <!DOCTYPE html><html lang="uk"><body><p>Товари</p><button aria-label="Add product">+</button>
      <select><option lang="en">English</option></select><script>let a = "b c"</script></body></html>
      """
    let texts = PageText.texts(html)
    #expect(texts.contains("Add product"))
    #expect(!texts.contains("English"))
    #expect(!texts.contains { $0.contains("let a") })
    #expect(PageText.englishPhrase("Add product", data: []) == "Add product")
    #expect(PageText.englishPhrase("Додати owned product", data: ["owned product"]) == nil)
  }
}

@Suite("Interface language setting")
struct LanguageSettingTests {
  @Test func signUpTakesTheBrowsersLanguageAndPagesSayIt() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk-UA,uk;q=0.9,en;q=0.8")
      let user = try #require(await Accounts.all(on: t.db).first)
      #expect(user.uiLanguage == "uk")
      let home = try await client.get("/")
      #expect(home.body.contains(#"<html lang="uk">"#))
      #expect(home.body.contains("Огляд"))
      // The account's choice holds whatever the browser says later.
      let other = try await client.get("/", headers: ["Accept-Language": "en-US"])
      #expect(other.body.contains(#"<html lang="uk">"#))
    }
  }

  @Test func aLanguageOnlyForFormatsKeepsEnglish() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "de-DE")
      let home = try await client.get("/")
      #expect(home.body.contains(#"<html lang="en">"#))
      #expect(home.body.contains("Overview"))
    }
  }

  @Test func settingsSwitchTheLanguageAndSayItInTheNewOne() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "en-US")
      try await client.get("/settings")
      let saved = try await client.post(
        "/settings/locale", form: [("language", "uk"), ("locale", "en-US"), ("currency", "USD")])
      #expect(saved.status == .seeOther)
      let page = try await client.get("/settings")
      #expect(page.body.contains(#"<html lang="uk">"#))
      #expect(page.body.contains("Мову, формати й валюту збережено."))
      #expect(page.body.contains(#"<option value="uk" selected lang="uk">Українська</option>"#))
      // Formats stay with the locale: dollars written the American way.
      #expect(page.body.contains("$1,234.50"))

      let wrong = try await client.post(
        "/settings/locale", form: [("language", "de"), ("locale", "en-US"), ("currency", "USD")])
      #expect(wrong.status == .unprocessableEntity)
      #expect(wrong.body.contains("Виберіть одну з мов у списку."))
      // A form without the field (an older page) leaves the language alone.
      _ = try await client.post(
        "/settings/locale", form: [("locale", "en-GB"), ("currency", "GBP")])
      let user = try #require(await Accounts.all(on: t.db).first)
      #expect(user.uiLanguage == "uk")
    }
  }

  @Test func signedOutPagesFollowTheBrowser() async throws {
    try await withApp { t in
      let client = t.client()
      let page = try await client.get("/sign-in", headers: ["Accept-Language": "uk"])
      #expect(page.body.contains(#"<html lang="uk">"#))
      #expect(page.body.contains("Увійти"))
      let english = try await client.get("/sign-in")
      #expect(english.body.contains(#"<html lang="en">"#))
      // A cached page is never served in the other language.
      let again = try await client.get("/sign-in", headers: ["Accept-Language": "uk"])
      #expect(again.body.contains("Увійти"))
    }
  }

  @Test func apiErrorsSpeakTheTokensAccountsLanguage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk")
      let token = try await client.createToken()
      let missing = try await t.client().get(
        "/api/v1/expenses/\(UUID().uuidString)",
        headers: ["Authorization": "Bearer \(token)"])
      #expect(missing.status == .notFound)
      #expect(
        try missing.json()["error"].flatMap { ($0 as? [String: Any])?["message"] as? String }
          == "Не знайдено.")
      let anonymous = try await t.client().get(
        "/api/v1/expenses", headers: ["Accept-Language": "uk"])
      #expect(anonymous.status == .unauthorized)
      #expect(anonymous.body.contains("API-токен"))
    }
  }

  @Test func scriptsGetTheirTextsInThePagesLanguage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk")
      let page = try await client.get("/")
      let json = try #require(
        PageText.firstMatch(
          #"<script type="application/json" id="ui-text">([^<]*)</script>"#, in: page.body))
      let texts = try #require(
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      #expect(texts["app.copied"] as? String == "Скопійовано")
      #expect(ScriptTexts.build(.en).contains(#""app.copied":"Copied""#))
    }
  }
}

@Suite("Files and emails in the account's language")
struct LanguageFileTests {
  /// A Ukrainian account's export has Ukrainian column and category names; an English
  /// account imports that file, and importing it again adds nothing.
  @Test func expenseCSVTravelsBetweenLanguages() async throws {
    try await withApp { t in
      let olena = t.client()
      try await olena.signUp(acceptLanguage: "uk-UA")
      try await olena.addExpense(
        title: "Чай", amount: "3,5", category: "Їжа", date: "2025-11-22T15:05", db: t.db)
      let export = try await olena.get("/expenses/export.csv")
      #expect(export.body.hasPrefix("\u{FEFF}дата,назва,категорія,сума,збір\r\n"))
      #expect(export.body.contains(",Чай,Їжа,3.50,\r\n"))

      let ann = t.client()
      try await ann.signUp(acceptLanguage: "en-US")
      try await ann.get("/expenses/import")
      let done = try await ann.followImport(ann.uploadExpenses(export.body), in: t)
      #expect(done.importSummary == "1 expense imported, 0 already present.")
      try await ann.get("/expenses/import")
      let again = try await ann.followImport(ann.uploadExpenses(export.body), in: t)
      #expect(again.importSummary == "0 expenses imported, 1 already present.")
      let list = try await ann.get("/expenses?month=2025-11")
      #expect(list.body.contains("Чай"))
      #expect(list.body.contains(">Food<"))
    }
  }

  @Test func adPaymentCSVTravelsBetweenLanguages() async throws {
    try await withApp { t in
      let olena = t.client()
      try await olena.signUp(acceptLanguage: "uk")
      try await olena.addAdPayment(name: "Реклама", url: "https://pay.example.com/a", db: t.db)
      let export = try await olena.get("/ad-payments/export.csv")
      #expect(export.body.hasPrefix("\u{FEFF}назва,посилання\r\n"))

      let ann = t.client()
      try await ann.signUp(acceptLanguage: "en-US")
      try await ann.get("/ad-payments/import")
      let done = try await ann.followImport(
        ann.upload("/ad-payments/import", file: Data(export.body.utf8)), in: t)
      #expect(done.importSummary == "1 payment imported, 0 already present.")
    }
  }

  /// The plan's email is written in the language of the account that sends it.
  @Test func thePlanEmailIsInTheSendersLanguage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk")
      let id = try await client.newPlan()
      let email = try await client.get("/marketing/plans/\(id)/email.eml")
      #expect(email.status == .ok)
      let text = Self.quotedPrintableDecoded(email.body)
      #expect(text.contains("ПІДСУМОК ІНВЕСТИЦІЙ"))
      #expect(text.contains(#"<html lang="uk">"#))
      #expect(!text.contains("INVESTMENT SUMMARY"))
    }
  }

  static func quotedPrintableDecoded(_ text: String) -> String {
    let joined = text.replacingOccurrences(of: "=\r\n", with: "")
    var bytes: [UInt8] = []
    var index = joined.utf8.startIndex
    let utf8 = joined.utf8
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "="), utf8.distance(from: index, to: utf8.endIndex) >= 3,
        let value = UInt8(
          String(
            decoding: utf8[utf8.index(after: index)..<utf8.index(index, offsetBy: 3)], as: UTF8.self
          ),
          radix: 16)
      {
        bytes.append(value)
        index = utf8.index(index, offsetBy: 3)
      } else {
        bytes.append(byte)
        index = utf8.index(after: index)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A refresh failure is recorded once, in the words of whoever ran it; a page in the other
  /// language says its own sentence around them and marks them with their language.
  @Test func aRecordedRefreshFailureIsMarkedWithItsLanguage() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk")
      try await UILanguage.$current.withValue(.en) {
        try await MarketingCatalogStore.recordFailure(
          .error(message: "HTTP 500 from http://catalog.example"), on: t.db, now: t.clock.now)
      }
      let page = try await client.get("/marketing")
      #expect(page.body.contains(#"<span lang="en">HTTP 500 from http://catalog.example</span>"#))
      #expect(
        PageText.texts(page.body).allSatisfy {
          PageText.englishPhrase($0, data: LanguageWalkTests.data) == nil
        })

      let english = t.client()
      try await english.signUp(acceptLanguage: "en")
      let plain = try await english.get("/marketing")
      #expect(plain.body.contains("HTTP 500 from http://catalog.example"))
      #expect(!plain.body.contains(#"<span lang="en">"#))
    }
  }

  /// The language travels with the account's backup; a file without it (older versions, or
  /// an account that follows its browser) leaves the target account's language alone.
  @Test func theBackupCarriesTheLanguage() async throws {
    let file = try await withApp { t in
      let client = t.client()
      let email = try await client.signUp(acceptLanguage: "uk")
      let userID = try await ExpenseFixtures.userID(email: email, db: t.db)
      let backup = try await AccountBackup.export(
        workspaceID: try await t.workspaceID(ofUser: userID), person: userID, on: t.db,
        now: t.clock.now)
      #expect(backup.account.language == "uk")
      return try backup.encoded()
    }
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp(acceptLanguage: "en")
      let userID = try await ExpenseFixtures.userID(email: email, db: t.db)
      _ = try await AccountRestore.run(
        try AccountBackup.decode(file), into: userID, merge: false, maxPhotoBytes: 5_000_000,
        on: t.db)
      #expect(try await Accounts.find(id: userID, on: t.db)?.uiLanguage == "uk")
      #expect(try await client.get("/").body.contains(#"<html lang="uk">"#))

      var broken = try AccountBackup.decode(file)
      broken.account.language = "klingon"
      await #expect(throws: BackupError.self) {
        try await AccountRestore.run(
          broken, into: userID, merge: true, maxPhotoBytes: 5_000_000, on: t.db)
      }
    }
  }

  /// Errors made before the account is known, or by the framework, are in the request's
  /// language too, and a bare status gets a sentence of its own.
  @Test func errorsBeforeTheRouteSpeakTheLanguage() async throws {
    try await withApp { t in
      let client = t.client()
      let refused = try await client.send(
        .PUT, "/api/v1/expenses/summary", headers: ["Accept-Language": "uk"], body: "")
      #expect(refused.status == .methodNotAllowed)
      #expect(refused.body.contains("Ця адреса не приймає запитів PUT."))
      UILanguage.$current.withValue(.uk) {
        #expect(
          AppErrorMiddleware.publicMessage(status: .tooManyRequests, reason: "Too Many Requests")
            == "Забагато запитів. Спробуйте ще раз за мить.")
        #expect(
          AppErrorMiddleware.publicMessage(
            status: .unsupportedMediaType, reason: "Can't decode data without a content type"
          )
          .contains("Content-Type"))
        #expect(
          AppErrorMiddleware.publicMessage(status: .conflict, reason: "Власна причина.")
            == "Власна причина.")
      }
      #expect(
        AppErrorMiddleware.publicMessage(status: .badRequest, reason: "Bad Request")
          == "The request could not be understood.")
    }
  }

  /// A default subject saved in one language is still the default after switching.
  @Test func theDefaultSubjectIsTheDefaultInEitherLanguage() {
    let now = Date(timeIntervalSince1970: 1_790_000_000)
    let english = UILanguage.$current.withValue(.en) {
      MarketingPlanRules.defaultSubject(locale: .enUS, now: now)
    }
    UILanguage.$current.withValue(.uk) {
      #expect(MarketingPlanRules.storedSubject(english, locale: .enUS, now: now) == nil)
      #expect(MarketingPlanRules.storedSubject("Мій план", locale: .enUS, now: now) == "Мій план")
    }
  }

  @Test func aRefusedFormAndTheAPISpeakUkrainian() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp(acceptLanguage: "uk")
      try await client.get("/expenses/new")
      let refused = try await client.post("/expenses", form: [("title", ""), ("amount", "abc")])
      #expect(refused.status == .unprocessableEntity)
      #expect(PageText.hasCyrillic(refused.firstMatch(#"role="alert">([^<]+)<"#) ?? ""))
      let token = try await client.createToken()
      let api = try await t.client().send(
        .POST, "/api/v1/products",
        headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
        body: #"{"name": "", "type": "Kitchen", "price": "-1", "tax": "150"}"#)
      #expect(api.status == .unprocessableEntity)
      let error = try #require(try api.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "validation_failed")
      #expect(error["message"] as? String == "Деякі поля заповнено неправильно.")
      let fields = try #require(error["fields"] as? [String: String])
      #expect(fields.count == 3)
      #expect(fields.values.allSatisfy(PageText.hasCyrillic))
    }
  }
}
