import BackofficeCore

/// The numbered page links under a list: Previous, the first and last page and the two on each
/// side of the current one (gaps shown as "…"), Next. Nothing when the list has one page. The
/// one pager of every paged list; only its words change with the page around it.
enum Pagination {
  /// The words of the pager.
  struct Labels: Sendable {
    var previous = L("pagination.previous")
    var next = L("pagination.next")
    /// The name of the navigation landmark.
    var pages = L("pagination.pages")
    /// The accessible name of one page's link, with `{number}`.
    var page = L("pagination.page")

    /// In the interface language of the moment it is asked for.
    static var standard: Labels { Labels() }
    /// For lists newest first (expenses, marketing plans).
    static var newerOlder: Labels {
      Labels(previous: L("pagination.newer"), next: L("pagination.older"))
    }
  }

  static func nav(_ window: PageWindow, labels: Labels = .standard, href: (Int) -> String)
    -> HTMLNode
  {
    nav(page: window.page, pageCount: window.pageCount, labels: labels, href: href)
  }

  static func nav(
    page: Int, pageCount: Int, labels: Labels = .standard, href: (Int) -> String
  ) -> HTMLNode {
    guard pageCount > 1 else { return H.empty }
    var items: [HTMLNode] = []
    if page > 1 {
      items.append(H.a(href(page - 1), [.class("button"), .rel("prev")], text: labels.previous))
    }
    var previous = 0
    for number in pageNumbers(current: page, count: pageCount) {
      if number > previous + 1 { items.append(H.span([.class("page-gap")], "…")) }
      if number == page {
        items.append(
          H.span([.class("button page-current"), .aria(.current, "page")], String(number)))
      } else {
        items.append(
          H.a(
            href(number),
            [
              .class("button"),
              .aria(.label, Catalogue.fill(labels.page, ["number": String(number)])),
            ],
            text: String(number)))
      }
      previous = number
    }
    if page < pageCount {
      items.append(H.a(href(page + 1), [.class("button"), .rel("next")], text: labels.next))
    }
    return H.nav([.class("pagination"), .aria(.label, labels.pages)], items)
  }

  /// The first and last page and the two on each side of the current one.
  static func pageNumbers(current: Int, count: Int) -> [Int] {
    let wanted = Set([1, count] + Array((current - 2)...(current + 2)))
    return wanted.filter { (1...count).contains($0) }.sorted()
  }
}
