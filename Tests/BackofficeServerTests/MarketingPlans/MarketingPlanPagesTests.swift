import BackofficeCore
import Foundation
import TestSupport
import Testing
import Vapor

@testable import BackofficeServer

/// The four steps as a browser drives them: every click a form post that saves the plan.
@Suite("Marketing plan pages")
struct MarketingPlanPagesTests {
  static let facebook = "0af1bfee844a7003cec5"
  static let linkedin = "9a464cbf5bf479321862"
  static let seo = "9789d17ffaf4432dcce0"

  struct Plan {
    let client: TestClient
    let id: String
    var base: String { "/marketing/plans/\(id)" }

    @discardableResult
    func toggle(_ target: String) async throws -> TestResponse {
      try await client.postOn(
        "\(base)/targets", "\(base)/targets/toggle", form: [("target", target)])
    }

    @discardableResult
    func choose(_ package: String, in channel: String) async throws -> TestResponse {
      try await client.postOn(
        "\(base)/channels/\(channel)", "\(base)/channels/\(channel)/choose",
        form: [("package", package)])
    }

    func selection(_ t: TestApp) async throws -> PlanSelection {
      let record = try #require(
        try await MarketingPlanTable.find(UUID(uuidString: id), on: t.db))
      return record.selection
    }
  }

  func newPlan(_ t: TestApp) async throws -> Plan {
    let client = t.client()
    try await client.signUp()
    return Plan(client: client, id: try await client.newPlan())
  }

  @Test func plansListStartsEmpty() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let page = try await client.get("/marketing")
      #expect(page.status == .ok)
      #expect(page.body.contains("No marketing plans yet"))
      #expect(page.body.contains(">New plan</button>"))
      #expect(
        page.body.contains("Catalog: 15 targets, 6 channels, 23 packages — bundled with Backoffice")
      )
      #expect(page.body.contains(#"<a href="/marketing" aria-current="page">Marketing plans</a>"#))
      let home = try await client.get("/")
      #expect(home.body.contains("No plans yet."))
    }
  }

  @Test func stepOneShowsTheOriginalTexts() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      let page = try await plan.client.get("\(plan.base)/targets")
      #expect(page.status == .ok)
      #expect(page.body.contains("<h1>Select Targeting</h1>"))
      #expect(page.body.contains("Target based on Location"))
      #expect(page.body.contains("5 available channels"))
      #expect(page.body.contains("Target based on Similar products / services"))
      // Location reaches five channels: three chips and "+2 more".
      #expect(
        page.body.contains(
          #"<span class="mk-chip">Twitter</span><span class="mk-chip mk-chip-more">+2 more</span>"#)
      )
      #expect(page.body.contains("1 available channel<"))
      #expect(!page.body.contains("1 available channels"))
      #expect(page.body.contains("Selected: 0 option(s)"))
      #expect(
        page.body.contains(
          #"<button type="button" class="button button-primary" disabled>Continue</button>"#))
      #expect(page.allMatches(#"aria-pressed="(true|false)""#).count == 15)
      #expect(!page.body.contains(#"aria-pressed="true""#))
      // A plan is named after the day it was made.
      #expect(page.body.contains("Plan of "))
    }
  }

  @Test func togglingTargetsSavesAtOnceAndSurvivesAReload() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      let response = try await plan.toggle("Location")
      #expect(response.status == .seeOther)
      #expect(response.location == "\(plan.base)/targets#target-0")
      try await plan.toggle("Industry")
      let page = try await plan.client.get("\(plan.base)/targets")
      #expect(page.body.contains("Selected: 2 option(s)"))
      #expect(page.allMatches(#"aria-pressed="(true)""#).count == 2)
      #expect(
        page.body.contains(
          #"<a href="\#(plan.base)/channels" class="button button-primary">Continue</a>"#))
      #expect(try await plan.selection(t).targetNames == ["Location", "Industry"])
      // Toggling again deselects.
      try await plan.toggle("Industry")
      #expect(try await plan.selection(t).targetNames == ["Location"])
      // An unknown target changes nothing and says why.
      let unknown = try await plan.toggle("Nowhere")
      #expect(unknown.status == .seeOther)
      #expect(
        try await plan.client.get("\(plan.base)/targets").body.contains(
          "That target is not in the catalog any more."))
      #expect(try await plan.selection(t).targetNames == ["Location"])
    }
  }

  @Test func stepTwoListsTheUnionOfChannelsInCatalogOrder() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      let empty = try await plan.client.get("\(plan.base)/channels")
      #expect(empty.body.contains("No channels yet"))
      try await plan.toggle("Hyperlinks")  // SEO
      try await plan.toggle("Company")  // Linkedin
      let page = try await plan.client.get("\(plan.base)/channels")
      #expect(page.body.contains("<h1>Select Channels</h1>"))
      let names = page.allMatches(#"<span class="mk-option-title">([^<]+)</span>"#)
      #expect(names == ["Linkedin", "SEO"])  // catalog order, not click order
      #expect(page.body.contains("No package selected"))
      #expect(!page.body.contains("Review Selected Packages"))
      try await plan.choose("linkedin_1", in: Self.linkedin)
      let chosen = try await plan.client.get("\(plan.base)/channels")
      #expect(chosen.body.contains("Selected: Linkedin Package 2 (€180.00)"))
      #expect(chosen.body.contains(">Review Selected Packages</a>"))
    }
  }

  @Test func stepThreeIsOnePackagePerChannel() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Location")
      let page = try await plan.client.get("\(plan.base)/channels/\(Self.facebook)")
      #expect(page.status == .ok)
      #expect(page.body.contains("<h1>Select one package for Facebook</h1>"))
      #expect(page.body.contains("Facebook Package 1"))
      #expect(page.body.contains("Monthly package for Facebook"))
      #expect(page.body.contains("€140.00"))
      // Nine details: three shown, "... and 6 more" / "Show less" behind a <details>.
      #expect(page.body.contains("... and 6 more"))
      #expect(page.body.contains("Show less"))
      #expect(page.body.contains(#"<details class="mk-more">"#))
      #expect(page.body.contains(#"<button type="submit" class="button" disabled>Reset</button>"#))

      // Choose, replace, choose again to clear.
      let chosen = try await plan.choose("facebook_0", in: Self.facebook)
      #expect(chosen.location == "\(plan.base)/channels/\(Self.facebook)#package-0")
      #expect(try await plan.selection(t).chosenPackageIDs == [Self.facebook: "facebook_0"])
      try await plan.choose("facebook_2", in: Self.facebook)
      #expect(try await plan.selection(t).chosenPackageIDs == [Self.facebook: "facebook_2"])
      let again = try await plan.client.get("\(plan.base)/channels/\(Self.facebook)")
      #expect(again.allMatches(#"aria-pressed="(true)""#).count == 1)
      #expect(again.body.contains(#"<li class="mk-package mk-package-chosen" id="package-2">"#))
      try await plan.choose("facebook_2", in: Self.facebook)
      #expect(try await plan.selection(t).chosenPackageIDs == [:])

      // Reset clears the channel.
      try await plan.choose("facebook_1", in: Self.facebook)
      try await plan.client.postOn(
        "\(plan.base)/channels/\(Self.facebook)", "\(plan.base)/channels/\(Self.facebook)/reset")
      #expect(try await plan.selection(t).chosenPackageIDs == [:])
    }
  }

  @Test func choicesTheCatalogDoesNotAllowAreRefused() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Company")  // Linkedin only
      // A package of another channel, an unknown package, a channel no target reaches.
      let wrong = try await plan.choose("facebook_0", in: Self.linkedin)
      #expect(wrong.status == .seeOther)
      let page = try await plan.client.get("\(plan.base)/channels/\(Self.linkedin)")
      #expect(page.body.contains("Linkedin has no package facebook_0."))
      let unreachable = try await plan.choose("facebook_0", in: Self.facebook)
      #expect(unreachable.location == "\(plan.base)/channels")
      #expect(
        try await plan.client.get("\(plan.base)/channels").body.contains(
          "Facebook is not available for the selected targets."))
      #expect(try await plan.selection(t).chosenPackageIDs == [:])
      // The channel page of an unreached channel sends back to the list.
      let away = try await plan.client.get("\(plan.base)/channels/\(Self.facebook)")
      #expect(away.status == .seeOther)
      #expect(away.location == "\(plan.base)/channels")
      #expect(try await plan.client.get("\(plan.base)/channels/nope").status == .notFound)
    }
  }

  @Test func deselectingATargetDropsPackagesOfChannelsNoLongerReached() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Industry")  // Linkedin, SEO
      try await plan.toggle("Company")  // Linkedin
      try await plan.choose("linkedin_0", in: Self.linkedin)
      try await plan.choose("seo_0", in: Self.seo)
      try await plan.toggle("Industry")
      // Linkedin is still reached through Company; SEO is not.
      #expect(try await plan.selection(t).chosenPackageIDs == [Self.linkedin: "linkedin_0"])
    }
  }

  /// The steps before Review show what the plan costs so far, and it follows every choice.
  @Test func channelStepsShowARunningTotal() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Events")  // Facebook, Twitter
      let none = try await plan.client.get("\(plan.base)/channels")
      #expect(none.body.contains("Monthly total so far: <strong>0.00</strong>"))
      try await plan.choose("facebook_1", in: Self.facebook)
      let one = try await plan.client.get("\(plan.base)/channels")
      #expect(
        one.body.contains(
          "Monthly total so far: <strong>€200.00</strong> \u{00B7} 1 package(s) selected from 1 channel(s)"
        ))
      let channel = try await plan.client.get("\(plan.base)/channels/\(Self.facebook)")
      #expect(channel.body.contains("Monthly total so far: <strong>€200.00</strong>"))
    }
  }

  @Test func reviewShowsCardsByChannelTotalsAndCounts() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      let empty = try await plan.client.get("\(plan.base)/review")
      #expect(empty.body.contains("No packages selected"))
      try await plan.toggle("Keywords")  // Google AdWords, SEO
      try await plan.toggle("Events")  // Facebook, Twitter
      try await plan.choose("seo_0", in: Self.seo)
      try await plan.choose("facebook_1", in: Self.facebook)
      try await plan.choose("google_adwords_0", in: "2499f739821b5ab3dcd6")
      let page = try await plan.client.get("\(plan.base)/review")
      #expect(page.status == .ok)
      #expect(page.body.contains("<h1>Review Selection</h1>"))
      let names = page.allMatches(#"<div class="mk-review-head"><h2>([^<]+)</h2>"#)
      #expect(names == ["Facebook Package 2", "Google AdWords Package 1", "SEO Package 1"])
      #expect(page.body.contains("Total Monthly Cost:"))
      #expect(page.body.contains(#"<p class="mk-total-value" id="mk-total">€"#))
      #expect(page.body.contains("3 package(s) selected from 3 channel(s)"))
      #expect(page.body.contains("€200.00/month"))
      #expect(page.body.contains(">Send Email</h2>"))
      #expect(page.body.contains(">Remove</button>"))

      try await plan.client.post("\(plan.base)/review/remove", form: [("package", "seo_0")])
      let after = try await plan.client.get("\(plan.base)/review")
      #expect(after.body.contains("2 package(s) selected from 2 channel(s)"))
      #expect(!after.body.contains("SEO Package 1"))
    }
  }

  @Test func totalsWithMixedCurrenciesAreSummedPerCurrencyInTheUsersLocale() async throws {
    try await withApp { t in
      try await MarketingCatalogStore.replace(
        with: MarketingSamples.mixedCurrencies, source: .upload, detail: "test", on: t.db,
        now: t.clock.now)
      let client = t.client()
      try await client.signUp()
      try await client.post("/settings/locale", form: [("locale", "uk-UA"), ("currency", "UAH")])
      let plan = Plan(client: client, id: try await client.newPlan())
      try await plan.toggle("Europe")
      try await plan.toggle("Ukraine")
      try await plan.choose("alpha_0", in: "alpha")
      try await plan.choose("beta_ads_1", in: "beta")
      try await plan.choose("gamma_0", in: "gamma")
      let page = try await client.get("\(plan.base)/review")
      let total = try #require(page.firstMatch(#"id="mk-total">([^<]+)</p>"#))
      #expect(total == "100,50\u{a0}€ + 1\u{a0}500,50\u{a0}₴ + 0,10\u{a0}$")
      let list = try await client.get("/marketing")
      #expect(
        list.body.contains("Total Monthly Cost: 100,50\u{a0}€ + 1\u{a0}500,50\u{a0}₴ + 0,10\u{a0}$")
      )
      #expect(list.body.contains("3 package(s) selected from 3 channel(s)"))
    }
  }

  @Test func emailDetailsAreCheckedAndSaved() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Company")
      try await plan.choose("linkedin_0", in: Self.linkedin)
      let page = try await plan.client.get("\(plan.base)/review")
      let subject = try #require(page.firstMatch(#"name="subject" type="text" value="([^"]+)""#))
      #expect(subject.hasPrefix("Marketing Campaign Selection - "))
      let mailto = try #require(
        page.firstMatch(#"<a href="(mailto:[^"]*)" class="button button-primary" id="mk-mailto">"#))
      #expect(mailto.hasPrefix("mailto:?subject=Marketing%20Campaign%20Selection%20-%20"))
      #expect(mailto.contains("&amp;body=Marketing%20Campaign%20Selection"))
      #expect(page.body.contains("Linkedin Package 1 [Linkedin]"))  // the plain-text summary
      #expect(page.body.contains(#"id="mk-mailto-note" aria-live="polite""#))

      let bad = try await plan.client.post(
        "\(plan.base)/email", form: [("recipient", "not an address"), ("subject", "Hi")])
      #expect(bad.status == .unprocessableEntity)
      #expect(bad.body.contains("Enter an email address like name@example.com."))
      #expect(bad.body.contains(#"value="not an address""#))

      let good = try await plan.client.post(
        "\(plan.base)/email", form: [("recipient", " boss@example.com "), ("subject", "Q3 plan")])
      #expect(good.status == .seeOther)
      let saved = try await plan.client.get("\(plan.base)/review")
      #expect(saved.body.contains("Email details saved."))
      #expect(saved.body.contains(#"href="mailto:boss@example.com?subject=Q3%20plan&amp;body="#))
      let record = try #require(
        try await MarketingPlanTable.find(UUID(uuidString: plan.id), on: t.db))
      #expect(record.recipient == "boss@example.com")
      #expect(record.subject == "Q3 plan")
      // Saving the default subject keeps it "default", so its date follows the day.
      try await plan.client.post(
        "\(plan.base)/email", form: [("recipient", ""), ("subject", subject)])
      let reset = try #require(
        try await MarketingPlanTable.find(UUID(uuidString: plan.id), on: t.db))
      #expect(reset.subject == nil)
      #expect(reset.recipient == "")
    }
  }

  @Test func aLongPlanGetsAShortenedMailLinkAndSaysSo() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      for target in ["Location", "Hyperlinks"] { try await plan.toggle(target) }
      for (package, channel) in [
        ("facebook_1", Self.facebook), ("linkedin_0", Self.linkedin),
        ("twitter_0", "66a8bfaafccc4b2c2a9a"),
        ("instagram_0", "2ebf381815ca49157fd6"), ("google_adwords_0", "2499f739821b5ab3dcd6"),
        ("seo_0", Self.seo),
      ] {
        try await plan.choose(package, in: channel)
      }
      let page = try await plan.client.get("\(plan.base)/review")
      let mailto = try #require(
        page.firstMatch(#"<a href="(mailto:[^"]*)" class="button button-primary""#))
      #expect(mailto.replacingOccurrences(of: "&amp;", with: "&").count <= Mailto.defaultLimit)
      #expect(page.body.contains("The mail app link holds a shortened summary:"))
      #expect(
        !page.body.contains(
          #"id="mk-mailto-note" aria-live="polite" data-template="The mail app link holds a shortened summary: {n} package(s) left out to stay under 1800 characters. Download the email for the full version." hidden"#
        ))
      #expect(mailto.contains("more%20package"))
    }
  }

  @Test func theEmailDownloadIsAnAttachment() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Company")
      try await plan.choose("linkedin_0", in: Self.linkedin)
      let response = try await plan.client.get("\(plan.base)/email.eml")
      #expect(response.status == .ok)
      #expect(response.headers.first(name: .contentType) == "message/rfc822")
      let name = PlanName.defaultName(on: t.clock.now, locale: .enUS, timeZone: MarketingFormat.utc)
      let slug = MarketingEmailDetails.fileName(name)
      #expect(slug.hasPrefix("plan-of-") && !slug.contains("/"))
      #expect(
        response.headers.first(name: .contentDisposition)
          == "attachment; filename=\"\(slug).eml\"")
      #expect(response.body.contains("MIME-Version: 1.0\r\n"))
      #expect(response.body.contains("Content-Type: multipart/alternative;"))
      #expect(response.body.contains("Content-Type: text/plain; charset=utf-8"))
      #expect(response.body.contains("Content-Type: text/html; charset=utf-8"))
      #expect(!response.body.contains("\nTo:"))  // no recipient saved yet
      #expect(response.body.contains("X-Unsent: 1"))
    }
  }

  @Test func theDownloadedEmailIsValidMIMEForPythonsEmailPackage() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Location")
      try await plan.choose("facebook_0", in: Self.facebook)
      try await plan.choose("linkedin_2", in: Self.linkedin)
      try await plan.client.postOn(
        "\(plan.base)/review", "\(plan.base)/email",
        form: [("recipient", "boss@example.com"), ("subject", "Plan für Q3 — draft")])
      let response = try await plan.client.get("\(plan.base)/email.eml")
      #expect(response.status == .ok)
      #expect(response.headers.first(name: .contentType) == "message/rfc822")
      #expect(
        response.headers.first(name: .contentDisposition)?.hasPrefix(
          "attachment; filename=\"plan-of-") == true)
      #expect(response.body.contains("Content-Type: multipart/alternative;"))

      let parsed = try PythonEmail.parse(response.body)
      #expect(parsed.contentType == "multipart/alternative")
      #expect(parsed.parts == ["text/plain", "text/html"])
      #expect(parsed.defects == 0)
      #expect(parsed.subject == "Plan für Q3 — draft")
      #expect(parsed.to == "boss@example.com")
      #expect(parsed.text.contains("Total Monthly Cost: €230.00"))
      #expect(parsed.text.contains("2 package(s) selected from 2 channel(s)"))
      #expect(
        parsed.html.contains("<h3 style=\"margin:0;font-size:17px;\">Facebook Package 1</h3>"))

      // The query overrides the saved recipient and subject.
      let custom = try await plan.client.get(
        "\(plan.base)/email.eml?recipient=ann@example.com&subject=Other")
      let other = try PythonEmail.parse(custom.body)
      #expect(other.to == "ann@example.com")
      #expect(other.subject == "Other")
      let refused = try await plan.client.get("\(plan.base)/email.eml?recipient=nope")
      #expect(refused.status == .unprocessableEntity)
    }
  }

  @Test func plansCanBeRenamedDuplicatedAndDeleted() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.toggle("Company")
      try await plan.choose("linkedin_0", in: Self.linkedin)
      let blank = try await plan.client.postOn(
        "\(plan.base)/review", "\(plan.base)/rename", form: [("name", "   "), ("step", "4")])
      #expect(blank.status == .unprocessableEntity)
      #expect(blank.body.contains("Give the plan a name."))
      #expect(blank.body.contains(#"<details class="mk-rename" open>"#))
      let renamed = try await plan.client.post(
        "\(plan.base)/rename", form: [("name", " Spring  push "), ("step", "2")])
      #expect(renamed.location == "\(plan.base)/channels")
      let list = try await plan.client.get("/marketing")
      #expect(list.body.contains(">Spring push</a>"))
      #expect(list.body.contains("1 target · 1 package(s) selected from 1 channel(s)"))
      // Reopening goes to the furthest step.
      #expect(
        list.body.contains(#"<a href="\#(plan.base)/review" class="mk-plan-link">Spring push</a>"#))

      let copy = try await plan.client.post("\(plan.base)/duplicate")
      #expect(copy.location == "/marketing")
      let both = try await plan.client.get("/marketing")
      #expect(both.body.contains("Plan duplicated as \u{201C}Copy of Spring push\u{201D}."))
      #expect(both.body.contains(">Copy of Spring push</a>"))
      let records = try await MarketingPlanTable.query(on: t.db).all()
      #expect(records.count == 2)
      #expect(Set(records.map(\.selectionJSON)).count == 1)
      #expect(try await plan.client.get("/").body.contains("2 plans"))

      let deleted = try await plan.client.post("\(plan.base)/delete")
      #expect(deleted.location == "/marketing")
      let after = try await plan.client.get("/marketing")
      #expect(after.body.contains("Plan \u{201C}Spring push\u{201D} deleted."))
      #expect(try await MarketingPlanTable.query(on: t.db).count() == 1)
      #expect(try await plan.client.get("\(plan.base)/review").status == .notFound)
    }
  }

  @Test func anotherAccountsPlanIsNotFoundOnEveryPage() async throws {
    try await withApp { t in
      let owner = try await newPlan(t)
      try await owner.toggle("Company")
      let other = t.client()
      try await other.signUp()
      let base = owner.base
      for path in [
        "\(base)/targets", "\(base)/channels", "\(base)/channels/\(Self.linkedin)",
        "\(base)/review",
        "\(base)/email.eml",
      ] {
        let response = try await other.get(path)
        #expect(response.status == .notFound, "\(path)")
        #expect(!response.body.contains("Company"), "\(path)")
      }
      try await other.get("/marketing")
      for (path, form) in [
        ("\(base)/targets/toggle", [("target", "Location")]),
        ("\(base)/channels/\(Self.linkedin)/choose", [("package", "linkedin_0")]),
        ("\(base)/channels/\(Self.linkedin)/reset", []),
        ("\(base)/review/remove", [("package", "linkedin_0")]),
        ("\(base)/email", [("recipient", "x@example.com")]),
        ("\(base)/rename", [("name", "Mine")]), ("\(base)/duplicate", []), ("\(base)/delete", []),
      ] {
        let response = try await other.post(path, form: form)
        #expect(response.status == .notFound, "\(path)")
      }
      #expect(try await other.get("/marketing/plans/not-a-uuid/targets").status == .notFound)
      #expect(try await owner.selection(t).targetNames == ["Company"])
      #expect(try await MarketingPlanTable.query(on: t.db).count() == 1)
    }
  }

  @Test func formsWithoutTheCSRFTokenAreRefused() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      try await plan.client.get("\(plan.base)/targets")
      for (path, form) in [
        ("/marketing/plans", []),
        ("\(plan.base)/targets/toggle", [("target", "Location")]),
        ("\(plan.base)/channels/\(Self.linkedin)/choose", [("package", "linkedin_0")]),
        ("\(plan.base)/channels/\(Self.linkedin)/reset", []),
        ("\(plan.base)/review/remove", [("package", "linkedin_0")]),
        ("\(plan.base)/email", [("recipient", "x@example.com")]),
        ("\(plan.base)/rename", [("name", "X")]), ("\(plan.base)/duplicate", []),
        ("\(plan.base)/delete", []),
      ] {
        let response = try await plan.client.post(path, form: form, csrf: false)
        #expect(response.status == .forbidden, "\(path)")
      }
      #expect(try await plan.selection(t).isEmpty)
      #expect(try await MarketingPlanTable.query(on: t.db).count() == 1)
    }
  }

  @Test func signedOutVisitorsGoToSignIn() async throws {
    try await withApp { t in
      let response = try await t.client().get("/marketing")
      #expect(response.status == .seeOther)
      #expect(response.location?.hasPrefix("/sign-in") == true)
    }
  }

  @Test func anUnreadableCatalogShowsFailedToLoadDataWithRetry() async throws {
    try await withApp { t in
      let plan = try await newPlan(t)
      _ = try #require(try await MarketingCatalogStore.record(on: t.db))
      try await MarketingCatalogTable.query(on: t.db).set(\.$catalogJSON, to: "{broken").update()
      for path in [
        "\(plan.base)/targets", "\(plan.base)/channels", "\(plan.base)/review",
        "/marketing/catalog",
      ] {
        let page = try await plan.client.get(path)
        #expect(page.status == .serviceUnavailable, "\(path)")
        #expect(page.body.contains("Failed to Load Data"), "\(path)")
        #expect(page.body.contains(">Retry</a>"), "\(path)")
      }
      let list = try await plan.client.get("/marketing")
      #expect(list.body.contains("Failed to Load Data"))
    }
  }

  @Test func aChannelWithoutPackagesSaysSo() async throws {
    try await withApp { t in
      var catalog = MarketingSamples.mixedCurrencies
      catalog.channels[2].packages = []
      try await MarketingCatalogStore.replace(
        with: catalog, source: .upload, detail: nil, on: t.db, now: t.clock.now)
      let plan = try await newPlan(t)
      try await plan.toggle("Ukraine")
      let page = try await plan.client.get("\(plan.base)/channels/gamma")
      #expect(page.body.contains("No packages available"))
    }
  }
}

/// Reads an `.eml` with Python's `email` package, the way a mail program would.
enum PythonEmail {
  struct Parsed: Decodable {
    var contentType: String
    var parts: [String]
    var defects: Int
    var subject: String
    var to: String
    var text: String
    var html: String
  }

  static let script = """
    import email, email.policy, json, sys
    msg = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
    parts = list(msg.iter_parts())
    defects = len(msg.defects) + sum(len(p.defects) for p in parts)
    print(json.dumps({
        "contentType": msg.get_content_type(),
        "parts": [p.get_content_type() for p in parts],
        "defects": defects,
        "subject": str(msg["subject"]),
        "to": str(msg["to"] or ""),
        "text": parts[0].get_content() if parts else "",
        "html": parts[1].get_content() if len(parts) > 1 else "",
    }))
    """

  static func parse(_ eml: String) throws -> Parsed {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("marketing-\(UUID().uuidString).eml")
    try Data(eml.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let data = try Python3.run(script, arguments: [file.path])
    return try JSONDecoder().decode(Parsed.self, from: data)
  }
}
