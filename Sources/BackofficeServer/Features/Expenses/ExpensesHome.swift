import BackofficeCore
import Fluent
import Foundation

/// The expenses card of the overview page: this month's total and count.
struct ExpensesHome: Sendable {
  var month: ExpenseMonth
  var total: Decimal
  var count: Int
  var currency: String

  static func load(db: any Database, workspaceID: UUID, currency: String, now: Date) async throws
    -> ExpensesHome
  {
    let month = ExpenseMonth(containing: now, timeZone: ExpenseStore.timeZone)
    let totals = try await ExpenseStore(db: db, workspaceID: workspaceID)
      .totals(ExpenseFilter(month: month))
    return ExpensesHome(
      month: month, total: totals.total, count: totals.count, currency: currency)
  }

  func card(locale: BackofficeLocale, canWrite: Bool) -> HTMLNode {
    H.div(
      [.class("card"), .id("home-expenses")],
      [
        H.h2(L("nav.expenses")),
        H.p([.class("muted small")], month.title(locale: locale)),
        H.p(
          [.class("home-figure")],
          [
            H.strong(
              [],
              [H.text(MoneyFormat.currency(total, currency: currency, locale: locale))]),
            H.text(" · " + L("expenses.count", count: count)),
          ]),
        count == 0
          ? H.p([.class("muted")], L("expenses.home.nothing_yet"))
          : H.empty,
        H.div(
          [.class("card-actions")],
          [
            H.a(
              Routes.expenses.href(query: ["month": month.description]), [.class("button")],
              text: L("expenses.home.open")),
            canWrite
              ? H.a(Routes.expenseNew.href(), [.class("button")], text: L("expenses.add"))
              : H.empty,
          ]),
      ])
  }
}
