import Fluent
import Foundation

/// The ad payments card of the overview page.
enum AdPaymentsHome {
  static func count(db: any Database, userID: UUID) async throws -> Int {
    try await AdPaymentStore(db: db, userID: userID).count()
  }

  static func card(count: Int) -> HTMLNode {
    H.div(
      [.class("card"), .id("home-ad-payments")],
      [
        H.h2("Ad payments"),
        H.p(
          [.class("home-figure")],
          [
            H.strong([], [H.text(String(count))]),
            H.text(count == 1 ? " entry" : " entries"),
          ]),
        count == 0
          ? H.p([.class("muted")], "Save the links you pay for ads, with a name for each.")
          : H.empty,
        H.a(
          count == 0 ? Routes.adPaymentNew.href() : Routes.adPayments.href(), [.class("button")],
          text: count == 0 ? "Add a payment" : "Open ad payments"),
      ])
  }
}
