import Foundation
import Testing

@testable import BackofficeServer

/// The one page arithmetic and the one pager of every paged list.
@Suite struct PageWindowTests {
  let context = PageContext(userEmail: "a@example.com", csrf: "token")

  @Test func pagesAreCountedAndAPagePastTheEndIsTheLast() {
    let empty = PageWindow(requested: 1, perPage: 50, total: 0)
    #expect(empty.page == 1 && empty.pageCount == 1)
    #expect(PageWindow(requested: 1, perPage: 50, total: 50).pageCount == 1)
    #expect(PageWindow(requested: 1, perPage: 50, total: 51).pageCount == 2)
    let past = PageWindow(requested: 9, perPage: 24, total: 49)
    #expect(past.page == 3 && past.pageCount == 3)
    #expect(PageWindow(requested: 0, perPage: 24, total: 49).page == 1)
    #expect(PageWindow(requested: -5, perPage: 24, total: 49).page == 1)
    #expect(PageWindow(requested: 2, perPage: 24, total: 49).hasMore)
    #expect(!PageWindow(requested: 3, perPage: 24, total: 49).hasMore)
    #expect(PageWindow(requested: 1, perPage: 0, total: 3).pageCount == 3)
    #expect(PageWindow(requested: 1, perPage: 10, total: -1).pageCount == 1)
  }

  @Test func hugeCountsNeitherOverflowNorPassTheLastPageARequestCanName() {
    let huge = PageWindow(requested: .max, perPage: 50, total: .max)
    #expect(huge.pageCount == Paging.maxPage)
    #expect(huge.page == Paging.maxPage)
    #expect(!huge.hasMore)
    #expect(PageWindow.pageCount(total: .max, perPage: .max) == 1)
    #expect(PageWindow.pageCount(total: .max - 1, perPage: .max) == 1)
    #expect(PageWindow.pageCount(total: 5 * Paging.maxPage, perPage: 5) == Paging.maxPage)
    #expect(PageWindow.pageCount(total: 5 * Paging.maxPage + 1, perPage: 5) == Paging.maxPage)
  }

  @Test(.ukrainian) func theFundraisersPagerIsTheSharedOneInUkrainian() {
    var ukrainian = context
    ukrainian.language = .uk
    let html = FundraiserIndex(cards: [], page: 2, pageCount: 3, total: 60)
      .render(context: ukrainian)
    #expect(html.contains(#"<nav class="pagination" aria-label="Сторінки">"#))
    // The first page is the plain address.
    #expect(html.contains(#"<a href="/fundraisers" class="button" rel="prev">← Попередня</a>"#))
    #expect(
      html.contains(#"<a href="/fundraisers" class="button" aria-label="Сторінка 1">1</a>"#))
    #expect(html.contains(#"<span class="button page-current" aria-current="page">2</span>"#))
    #expect(
      html.contains(#"<a href="/fundraisers?page=3" class="button" rel="next">Наступна →</a>"#))
  }

  @Test func theMarketingPagerIsTheSharedOne() {
    let html = MarketingPlanIndex(rows: [], stored: nil, page: 2, pageCount: 2)
      .render(context: context)
    #expect(html.contains(#"<nav class="pagination" aria-label="Pages">"#))
    #expect(html.contains(#"<a href="/marketing?page=1" class="button" rel="prev">← Newer</a>"#))
    #expect(!html.contains(#"rel="next""#))
    let single = MarketingPlanIndex(rows: [], stored: nil, page: 2, pageCount: 1)
      .render(context: context)
    #expect(!single.contains(#"class="pagination""#))
  }
}
