import Foundation
import Testing

@testable import BackofficeServer

@Suite("Ad payments: views without a database")
struct AdPaymentViewTests {
  let context = PageContext(userEmail: "a@example.com", csrf: "token")

  @Test func namesAndLinksAreEscaped() {
    let id = UUID()
    let html = AdPaymentIndex(
      rows: [.init(id: id, name: "<script>alert(1)</script>", url: "https://a.com/?q=<b>&x=\"")],
      matching: 1, accountTotal: 1,
      duplicateNotice: .init(savedName: "<i>new</i>", existingID: id, existingName: "\"old\"")
    ).render(context: context)
    #expect(!html.contains("<script>alert"))
    #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(html.contains(#"href="https://a.com/?q=&lt;b&gt;&amp;x=&quot;""#))
    #expect(html.contains("&lt;i&gt;new&lt;/i&gt;"))
    #expect(!html.contains("<i>new</i>"))
  }

  @Test func invalidStoredLinksAreNotMadeClickable() {
    let html = AdPaymentIndex(
      rows: [.init(id: UUID(), name: "Old", url: "javascript:alert(1)")], matching: 1,
      accountTotal: 1
    ).render(context: context)
    #expect(!html.contains(#"href="javascript"#))
    #expect(html.contains(#"<span class="ad-payment-url">javascript:alert(1)</span>"#))
  }

  @Test func pageLinksShowTheEndsAndTheNeighbourhood() {
    #expect(Pagination.pageNumbers(current: 1, count: 1) == [1])
    #expect(Pagination.pageNumbers(current: 1, count: 10) == [1, 2, 3, 10])
    #expect(Pagination.pageNumbers(current: 6, count: 10) == [1, 4, 5, 6, 7, 8, 10])
    #expect(Pagination.pageNumbers(current: 10, count: 10) == [1, 8, 9, 10])
    let html = AdPaymentIndex(
      rows: [.init(id: UUID(), name: "A", url: "https://a.com")], page: 6, pageCount: 10,
      matching: 500, accountTotal: 500
    ).render(context: context)
    #expect(html.contains(#"<span class="page-gap">…</span>"#))
    #expect(html.contains(#"<a href="/ad-payments?page=5" class="button" rel="prev">Previous</a>"#))
    #expect(html.contains(#"<a href="/ad-payments?page=7" class="button" rel="next">Next</a>"#))
  }

  @Test func titlesAreTheOriginals() {
    #expect(AdPaymentForm(mode: .create).title == "Add Payments")
    #expect(AdPaymentForm(mode: .edit(UUID())).title == "Edit Ad Payment")
    #expect(AdPaymentIndex(rows: [], matching: 0, accountTotal: 0).title == "Ad payments")
  }

  @Test func theFormCarriesWhatItsScriptNeeds() {
    let id = UUID()
    let html = AdPaymentForm(mode: .edit(id), name: "A", url: "https://a.com").render(
      context: context)
    #expect(html.contains(#"data-check-url="/ad-payments/check""#))
    #expect(html.contains(#"data-entry-id="\#(id.uuidString.lowercased())""#))
    #expect(html.contains(#"id="ad-payment-duplicate""#))
    #expect(html.contains("novalidate"), "the server's messages, not the browser's, are shown")
  }
}
