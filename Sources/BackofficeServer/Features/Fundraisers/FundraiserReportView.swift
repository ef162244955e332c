import BackofficeCore
import Foundation

/// The pieces of a report the owner's page and the public page share: the money lines and the
/// list of purchases. Receipts are linked by the caller's route (the owner's own, or the
/// public one), so the same list never points the public at a private address.
enum FundraiserReportView {
  /// Raised, spent, and what is left (or overspent); spending in another currency on a line of
  /// its own, never added to hryvnias.
  static func money(_ report: FundraiserReport) -> HTMLNode {
    var rows: [HTMLNode] = [
      row(
        L("fundraisers.report.raised"),
        report.raised.map(FundraiserFormat.amount) ?? L("fundraisers.report.raised_unknown"),
        class: "fr-money-raised")
    ]
    // "Spent: 0 UAH" beside money spent in another currency would read as nothing bought.
    if report.spent != 0 || report.spentOther.isEmpty {
      rows.append(
        row(
          L("fundraisers.report.spent"), FundraiserFormat.amount(report.spent),
          class: "fr-money-spent"))
    }
    if let remaining = report.remaining {
      rows.append(
        remaining < 0
          ? row(
            L("fundraisers.report.overspent"), FundraiserFormat.amount(-remaining),
            class: "fr-money-overspent")
          : row(
            L("fundraisers.report.remaining"), FundraiserFormat.amount(remaining),
            class: "fr-money-remaining"))
    }
    var nodes: [HTMLNode] = [H.dl([.class("fr-money")], rows)]
    for other in report.spentOther {
      nodes.append(
        H.p(
          [.class("fr-money-other")],
          L(
            "fundraisers.report.spent_other",
            ["amount": FundraiserReportFormat.amount(other.amount, currency: other.currency)])))
    }
    return H.group(nodes)
  }

  private static func row(_ label: String, _ value: String, class name: String) -> HTMLNode {
    H.div(
      [.class("fr-money-row " + name)],
      [H.dt([], [H.text(label)]), H.dd([], [H.text(value)])])
  }

  /// Each purchase (title, day, amount) with its receipts as small pictures that open full
  /// size; `receiptHref` names each receipt's address. `hiddenMark` labels receipts the public
  /// does not see (the owner's page). Nothing when there are no purchases.
  static func purchases(
    _ report: FundraiserReport, hiddenMark: Bool = false,
    receiptHref: (FundraiserReport.Purchase, FundraiserReport.Receipt) -> String
  ) -> HTMLNode {
    guard !report.purchases.isEmpty else { return H.empty }
    return H.ul(
      [.class("fr-purchases")],
      report.purchases.map { purchase in
        var head: [HTMLNode] = [
          H.span([.class("fr-purchase-title")], purchase.title),
          H.span(
            [.class("fr-purchase-amount")],
            FundraiserReportFormat.amount(purchase.amount, currency: report.currency)),
        ]
        if let day = purchase.spentAt {
          head.insert(
            H.time(
              [.class("fr-purchase-day muted"), .datetime(isoDay(day))],
              [H.text(FundraiserReportFormat.day(day))]), at: 1)
        }
        var item: [HTMLNode] = [H.div([.class("fr-purchase-head")], head)]
        if !purchase.receipts.isEmpty {
          item.append(
            H.ul(
              [.class("fr-receipts")],
              purchase.receipts.enumerated().map { index, receipt in
                let href = receiptHref(purchase, receipt)
                let alt = L(
                  "fundraisers.report.receipt_alt",
                  ["number": String(index + 1), "title": purchase.title])
                return H.li(
                  [.class("fr-receipt")],
                  [
                    H.a(
                      href, [.target("_blank")],
                      [
                        H.img([
                          .src(href), .alt(alt), .loading("lazy"),
                          .width(String(receipt.width)), .height(String(receipt.height)),
                        ])
                      ]),
                    hiddenMark && !receipt.isPublic
                      ? H.span(
                        [.class("fr-receipt-hidden")], L("fundraisers.report.receipt_hidden"))
                      : H.empty,
                  ])
              }))
        }
        return H.li([.class("fr-purchase")], item)
      })
  }

  /// "2025-03-14", the machine-readable day.
  private static func isoDay(_ date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = ExpenseStore.timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
  }
}
