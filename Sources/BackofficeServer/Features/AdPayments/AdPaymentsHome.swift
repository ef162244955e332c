import BackofficeCore
import Fluent
import Foundation

/// The ad payments card of the overview page.
enum AdPaymentsHome {
  static func count(db: any Database, workspaceID: UUID) async throws -> Int {
    try await AdPaymentStore(db: db, workspaceID: workspaceID).count()
  }

  static func card(count: Int, canWrite: Bool) -> HTMLNode {
    let adding = count == 0 && canWrite
    return H.div(
      [.class("card"), .id("home-ad-payments")],
      [
        H.h2(L("nav.ad_payments")),
        H.p(
          [.class("home-figure")],
          [
            H.strong([], [H.text(String(count))]),
            H.text(" " + L("ad_payments.home.entries", count: count)),
          ]),
        count == 0
          ? H.p([.class("muted")], L("ad_payments.home.empty_hint"))
          : H.empty,
        H.a(
          adding ? Routes.adPaymentNew.href() : Routes.adPayments.href(), [.class("button")],
          text: adding ? L("ad_payments.home.add") : L("ad_payments.home.open")),
      ])
  }
}
