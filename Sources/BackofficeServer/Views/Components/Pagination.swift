/// The numbered page links under a list: Previous, the first and last page and the two on each
/// side of the current one (gaps shown as "…"), Next. Nothing when the list has one page.
enum Pagination {
  static func nav(page: Int, pageCount: Int, href: (Int) -> String) -> HTMLNode {
    guard pageCount > 1 else { return H.empty }
    var items: [HTMLNode] = []
    if page > 1 {
      items.append(H.a(href(page - 1), [.class("button"), .rel("prev")], text: "Previous"))
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
            href(number), [.class("button"), .aria(.label, "Page \(number)")],
            text: String(number)))
      }
      previous = number
    }
    if page < pageCount {
      items.append(H.a(href(page + 1), [.class("button"), .rel("next")], text: "Next"))
    }
    return H.nav([.class("pagination"), .aria(.label, "Pages")], items)
  }

  /// The first and last page and the two on each side of the current one.
  static func pageNumbers(current: Int, count: Int) -> [Int] {
    let wanted = Set([1, count] + Array((current - 2)...(current + 2)))
    return wanted.filter { (1...count).contains($0) }.sorted()
  }
}
