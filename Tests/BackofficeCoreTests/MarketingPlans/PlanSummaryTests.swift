import Foundation
import Testing

@testable import BackofficeCore

@Suite("Marketing plan email summary")
struct PlanSummaryTests {
  // 2025-11-22 14:00:00 UTC
  let date = Date(timeIntervalSince1970: 1_763_820_000)
  let kyiv = TimeZone(identifier: "Europe/Kyiv")!
  let utc = TimeZone(identifier: "UTC")!

  private func bundledSelection() -> PlanSelection {
    var selection = PlanSelection(targetNames: ["Interests", "Company", "Events"])
    selection.choose(packageID: "instagram_3", channelID: "2ebf381815ca49157fd6")
    selection.choose(packageID: "linkedin_0", channelID: "9a464cbf5bf479321862")
    selection.choose(packageID: "facebook_1", channelID: "0af1bfee844a7003cec5")
    return selection
  }

  @Test(arguments: [
    ("en-US", "UTC", "Marketing Campaign Selection - 11/22/2025"),
    ("de-DE", "UTC", "Marketing Campaign Selection - 22.11.2025"),
    ("ja-JP", "UTC", "Marketing Campaign Selection - 2025/11/22"),
    // 14:00 UTC is 23:00 in Tokyo, still the 22nd; at UTC+14 it is already the 23rd.
    ("ja-JP", "Asia/Tokyo", "Marketing Campaign Selection - 2025/11/22"),
    ("uk-UA", "Pacific/Kiritimati", "Marketing Campaign Selection - 23.11.2025"),
  ])
  func subjectHasTheShortDateInTheUsersLocaleAndZone(
    locale: String, zone: String, subject: String
  ) {
    let summary = PlanSummary(
      packages: [], locale: BackofficeLocale.resolve(locale), generatedAt: date,
      timeZone: TimeZone(identifier: zone)!)
    #expect(summary.subject == subject)
  }

  @Test func plainTextHasEverythingInChannelNameOrder() {
    let summary = PlanSummary(
      selection: bundledSelection(), catalog: .bundledDefault, locale: .deDE, generatedAt: date,
      timeZone: kyiv)
    let expected = """
      Marketing Campaign Selection

      INVESTMENT SUMMARY
      Total Monthly Cost: 430,00\u{A0}€
      3 package(s) selected from 3 channel(s)
      Targeting: Interests, Company, Events

      SELECTED PACKAGES

      Facebook Package 2 [Facebook]
      200,00\u{A0}€/month
      Monthly package for Facebook
      - 8-15 listings
      - 20 optimizations
      - Campaign setup
      - Admin and optimising
      - Email support
      - Monthly reports
      - Install
      - Conversion monitoring
      - Landing page
      - Phone support
      - Remarketing

      Instagram Package 4 [Instagram]
      80,00\u{A0}€/month
      Monthly package for Instagram
      - 1 listing
      - Campaign setup
      - Email support

      Linkedin Package 1 [Linkedin]
      150,00\u{A0}€/month
      Monthly package for Linkedin
      - 5-8 listings
      - Campaign setup
      - Admin and optimising
      - Email support
      - Monitoring
      - Monthly reports

      Generated on 22.11.2025, 16:00
      """
    #expect(summary.text == expected)
    #expect(summary.textBody.entries.count == 3)
    #expect(summary.totals.packageCount == 3)
  }

  @Test func htmlHasHeaderSummaryCardsInChannelNameOrderAndFooter() throws {
    let summary = PlanSummary(
      selection: bundledSelection(), catalog: .bundledDefault, planName: "Spring launch",
      locale: .enUS, generatedAt: date, timeZone: utc)
    let html = summary.html
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(html.contains("<title>Marketing Campaign Selection - 11/22/2025</title>"))
    #expect(html.contains(">Marketing Campaign Selection</h1>"))
    #expect(html.contains(">Spring launch</p>"))
    #expect(html.contains(">Investment Summary</h2>"))
    #expect(html.contains(">€430.00</p>"))
    #expect(html.contains(">3 package(s) selected from 3 channel(s)</p>"))
    #expect(html.contains(">€200.00/month</p>"))
    #expect(html.contains(">Monthly package for Instagram</p>"))
    #expect(html.contains("<li>1 listing</li>"))
    #expect(html.contains(">Generated on 11/22/2025, 2:00 PM</p>"))

    let facebook = try #require(html.range(of: ">Facebook Package 2</h3>"))
    let instagram = try #require(html.range(of: ">Instagram Package 4</h3>"))
    let linkedin = try #require(html.range(of: ">Linkedin Package 1</h3>"))
    #expect(facebook.lowerBound < instagram.lowerBound)
    #expect(instagram.lowerBound < linkedin.lowerBound)
    #expect(html.components(separatedBy: "border-radius:999px").count - 1 == 3)
  }

  @Test func htmlUsesInlineStylesOnly() {
    let html = PlanSummary(
      selection: bundledSelection(), catalog: .bundledDefault, locale: .enUS, generatedAt: date,
      timeZone: utc
    ).html
    for forbidden in ["<style", "<link", "<script", "class=\"", "http://", "https://"] {
      #expect(!html.contains(forbidden), "found \(forbidden)")
    }
  }

  @Test func everythingFromDataIsEscaped() {
    let evil = MarketingChannel(
      id: "e",
      document: ChannelDocument(
        channel: "Ads & <b>More</b>",
        monthlyFees: [
          .init(
            price: 5, details: ["<script>alert('x')</script>", #"50" "banner""#],
            currency: "EUR")
        ]))
    let package = evil.packages[0]
    let summary = PlanSummary(
      packages: [ChosenPackage(channel: evil, package: package)],
      targetNames: ["<img src=x onerror=alert(1)>"], planName: "Tom & \"Jerry\"",
      locale: .enUS, generatedAt: date, timeZone: utc)
    let html = summary.html
    #expect(!html.contains("<script>"))
    #expect(!html.contains("<b>"))
    #expect(!html.contains("<img"))
    #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
    #expect(html.contains("Ads &amp; &lt;b&gt;More&lt;/b&gt; Package 1"))
    #expect(html.contains("50&quot; &quot;banner&quot;"))
    #expect(html.contains("Tom &amp; &quot;Jerry&quot;"))
    #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
    // Plain text is not HTML and stays as written.
    #expect(summary.text.contains("- <script>alert('x')</script>"))
  }

  @Test(arguments: [
    ("a<b", "a&lt;b"), ("a>b", "a&gt;b"), ("a&b", "a&amp;b"), ("a\"b", "a&quot;b"),
    ("a'b", "a&#39;b"), ("&amp;", "&amp;amp;"), ("Ünïcödé €", "Ünïcödé €"),
  ])
  func escapeHandlesEachSpecialCharacter(text: String, escaped: String) {
    #expect(HTMLEscaping.attribute(text) == escaped)
  }

  @Test func emptyPlanSaysSo() {
    let summary = PlanSummary(packages: [], locale: .enUS, generatedAt: date, timeZone: utc)
    #expect(summary.text.contains("Total Monthly Cost: 0.00"))
    #expect(summary.text.contains("0 package(s) selected from 0 channel(s)"))
    #expect(summary.text.contains("No packages selected."))
    #expect(summary.html.contains("No packages selected."))
    #expect(summary.textBody.entries.isEmpty)
  }

  @Test func mixedCurrenciesInTheSummary() {
    var selection = PlanSelection(targetNames: ["A", "B"])
    selection.choose(packageID: "xenon_0", channelID: "x")
    selection.choose(packageID: "yak_ads_0", channelID: "y")
    selection.choose(packageID: "zulu_0", channelID: "z")
    let summary = PlanSummary(
      selection: selection, catalog: SampleCatalog.catalog, locale: .enUS, generatedAt: date,
      timeZone: utc)
    #expect(summary.text.contains("Total Monthly Cost: €100.00 + ₴1,500.50 + $20.00"))
    #expect(summary.html.contains(">€100.00 + ₴1,500.50 + $20.00</p>"))
  }
}
