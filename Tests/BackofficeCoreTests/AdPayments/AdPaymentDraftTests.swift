import Testing

@testable import BackofficeCore

@Suite("AdPaymentDraft")
struct AdPaymentDraftTests {
  static let blankName = "Name cannot be blank."
  static let badURL = "Please enter a valid URL (e.g., https://www.example.com)"

  @Test func messagesAreExact() {
    #expect(AdPaymentValidationError.blankName.message == Self.blankName)
    #expect(AdPaymentValidationError.invalidURL.message == Self.badURL)
    #expect(AdPaymentValidationError.blankName.field == .name)
    #expect(AdPaymentValidationError.invalidURL.field == .url)
    #expect(AdPaymentField.name.rawValue == "name")
    #expect(AdPaymentField.url.rawValue == "url")
  }

  @Test(
    "valid drafts are trimmed",
    arguments: [
      ("Google Ads", "https://www.google.com", "Google Ads", "https://www.google.com"),
      ("  Meta  ", "\n https://facebook.com/ads \t", "Meta", "https://facebook.com/ads"),
      ("\u{00A0}Реклама\u{3000}", "https://приклад.укр\r\n", "Реклама", "https://приклад.укр"),
      ("Inner  spaces stay", "HTTPS://EXAMPLE.COM", "Inner  spaces stay", "HTTPS://EXAMPLE.COM"),
    ])
  func validDraft(_ name: String, _ url: String, _ storedName: String, _ storedURL: String) {
    let draft = AdPaymentDraft(name: name, url: url)
    #expect(draft.validate() == .success(AdPayment(name: storedName, url: storedURL)))
    #expect(draft.errors.isEmpty)
    #expect(draft.fieldErrors.isEmpty)
  }

  @Test(
    "first failure wins, in the spec's order",
    arguments: [
      ("", "https://www.google.com", AdPaymentValidationError.blankName),
      (" \n\t ", "https://www.google.com", .blankName),
      ("", "not a url", .blankName),
      ("", "", .blankName),
      ("Name", "", .invalidURL),
      ("Name", "   ", .invalidURL),
      ("Name", "http://google", .invalidURL),
      ("Name", "https://exa mple.com", .invalidURL),
      ("Name", "https://user@example.com", .invalidURL),
    ])
  func firstFailure(_ name: String, _ url: String, _ expected: AdPaymentValidationError) {
    #expect(AdPaymentDraft(name: name, url: url).validate() == .failure(expected))
  }

  @Test func namesAndLinksHaveALimit() {
    let link = "https://example.com/"
    let longestName = String(repeating: "я", count: AdPaymentDraft.maxNameLength)
    let longestURL = link + String(repeating: "a", count: AdPaymentDraft.maxURLLength - link.count)
    let longest = AdPaymentDraft(name: " \(longestName) ", url: longestURL)
    #expect(longest.validate() == .success(AdPayment(name: longestName, url: longestURL)))

    // Characters as a person counts them: a flag is one, however many scalars it holds.
    let flags = AdPaymentDraft(name: String(repeating: "🇺🇦", count: 200), url: link)
    #expect(flags.errors.isEmpty)

    let over = AdPaymentDraft(name: longestName + "я", url: longestURL + "a")
    #expect(over.errors == [.nameTooLong, .urlTooLong])
    #expect(
      over.fieldErrors == [
        .name: "Name must be at most 200 characters.",
        .url: "Link must be at most 2048 characters.",
      ])
    // A 10 000-character link is refused for its length, not read as a link.
    let huge = AdPaymentDraft(name: "Ok", url: link + String(repeating: "a", count: 10_000))
    #expect(huge.validate() == .failure(.urlTooLong))
  }

  @Test func fieldErrorsListEveryField() {
    let both = AdPaymentDraft(name: " ", url: "ftp://x.com")
    #expect(both.errors == [.blankName, .invalidURL])
    #expect(both.fieldErrors == [.name: Self.blankName, .url: Self.badURL])

    let urlOnly = AdPaymentDraft(name: "Ok", url: "http://test")
    #expect(urlOnly.fieldErrors == [.url: Self.badURL])

    let nameOnly = AdPaymentDraft(name: "", url: "http://test.com")
    #expect(nameOnly.fieldErrors == [.name: Self.blankName])
  }

  @Test func urlIsCheckedAfterTrimming() {
    // `AdPaymentURL.isValid` refuses surrounding whitespace; the draft trims it first.
    #expect(!AdPaymentURL.isValid(" https://example.com "))
    #expect(AdPaymentDraft(name: "x", url: " https://example.com ").errors.isEmpty)
  }
}
