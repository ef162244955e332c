import Testing

@testable import BackofficeCore

@Suite("AdPaymentOrdering")
struct AdPaymentOrderingTests {
  @Test func sortsIgnoringCaseAndAccents() {
    let names = ["zeta", "Émile", "apple", "Banana", "emma", "ÄPFEL", "Ёлка", "ель", "Яблоко"]
    let sorted = AdPaymentOrdering.sorted(names, name: { $0 })
    // Keys: apfel < apple, and ё folds to е so "елка" < "ель".
    #expect(
      sorted == ["ÄPFEL", "apple", "Banana", "Émile", "emma", "zeta", "Ёлка", "ель", "Яблоко"])
  }

  @Test func tiesAreBrokenByExactNameThenInputOrder() {
    let entries = [
      AdPayment(name: "ads", url: "https://one.com"),
      AdPayment(name: "Ads", url: "https://two.com"),
      AdPayment(name: "ads", url: "https://three.com"),
      AdPayment(name: "ÁDS", url: "https://four.com"),
    ]
    let sorted = AdPaymentOrdering.sorted(entries).map(\.url)
    // Same key "ads"; exact names "Ads" < "ads" < "ÁDS" by scalar value; equal names
    // keep their input order.
    #expect(
      sorted == ["https://two.com", "https://one.com", "https://three.com", "https://four.com"])
    // Sorting again gives the same result.
    #expect(AdPaymentOrdering.sorted(AdPaymentOrdering.sorted(entries)).map(\.url) == sorted)
  }

  @Test func sortKeyIsTheSearchKey() {
    #expect(AdPaymentOrdering.sortKey("  Crème   Brûlée ") == "creme brulee")
  }

  @Test func emptyListStaysEmpty() {
    #expect(AdPaymentOrdering.sorted([AdPayment]()).isEmpty)
  }
}

@Suite("AdPaymentCSV")
struct AdPaymentCSVTests {
  @Test func headerIsNameURL() {
    #expect(AdPaymentCSV.header == ["name", "url"])
  }

  @Test(
    "header columns",
    arguments: [
      (["name", "url"], AdPaymentCSVColumns(name: 0, url: 1)),
      (["url", "name"], AdPaymentCSVColumns(name: 1, url: 0)),
      (["\u{FEFF}Name", " URL "], AdPaymentCSVColumns(name: 0, url: 1)),
      (["id", "Name", "Url", "notes"], AdPaymentCSVColumns(name: 1, url: 2)),
    ])
  func headerColumns(_ header: [String], _ expected: AdPaymentCSVColumns) {
    #expect(AdPaymentCSV.columns(inHeader: header) == expected)
  }

  @Test(
    "bad headers",
    arguments: [[], ["name"], ["url"], ["title", "link"], ["Google", "https://www.google.com"]])
  func badHeader(_ header: [String]) {
    #expect(AdPaymentCSV.columns(inHeader: header) == nil)
  }

  @Test func validRowIsTrimmed() {
    let row = AdPaymentCSVRow(name: " Google ", url: " https://www.google.com ")
    #expect(row.validate() == .success(AdPayment(name: "Google", url: "https://www.google.com")))
  }

  @Test func rowReportsEveryProblem() throws {
    let result = AdPaymentCSVRow(name: "", url: "http://google").validate()
    let error = try #require(result.csvFailure)
    #expect(
      error.messages == [
        "Name cannot be blank.", "Please enter a valid URL (e.g., https://www.example.com)",
      ])
    #expect(
      error.message
        == "Name cannot be blank. Please enter a valid URL (e.g., https://www.example.com)")

    let urlOnly = try #require(AdPaymentCSVRow(name: "x", url: "test").validate().csvFailure)
    #expect(urlOnly.errors == [.invalidURL])
  }

  @Test func rowFromFields() {
    let columns = AdPaymentCSVColumns(name: 1, url: 0)
    let row = AdPaymentCSVRow(fields: ["https://a.com", "A"], columns: columns)
    #expect(row == AdPaymentCSVRow(name: "A", url: "https://a.com"))
    let short = AdPaymentCSVRow(fields: ["https://a.com"], columns: columns)
    #expect(short.validate().csvFailure?.errors == [.blankName])
  }

  @Test(
    "formula-looking names survive a round trip",
    arguments: ["=SUM(A1)", "+1 ad", "-promo", "@home", "\tTabbed", "Plain", "'quoted", "'=x"])
  func formulaRoundTrip(_ name: String) throws {
    let entry = AdPayment(name: name, url: "https://example.com")
    let fields = AdPaymentCSV.fields(for: entry)
    if let first = name.drop(while: { $0 == "'" }).first, "=+-@\t".contains(first) {
      #expect(fields[0] == "'" + name)
    } else {
      #expect(fields[0] == name)
    }
    let columns = try #require(AdPaymentCSV.columns(inHeader: AdPaymentCSV.header))
    let back = AdPaymentCSVRow(fields: fields, columns: columns).validate()
    // Tab is whitespace, so the import trims it like any form input would.
    let expectedName = name == "\tTabbed" ? "Tabbed" : name
    #expect(back == .success(AdPayment(name: expectedName, url: "https://example.com")))
  }
}

extension Result where Success == AdPayment, Failure == AdPaymentCSVRowError {
  fileprivate var csvFailure: AdPaymentCSVRowError? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
