import BackofficeCore
import Vapor

struct HomeController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(Routes.home, use: index)
  }

  @Sendable func index(req: Request) async throws -> Response {
    let user = try req.user
    var model = HomeIndex.Model(email: user.email)
    model.expenses = try await ExpensesHome.load(
      db: req.db, workspaceID: try req.workspaceID, currency: user.currency, now: req.now)
    let workspaceID = try req.workspaceID
    model.products = try await ProductsHome.load(
      db: req.db, workspaceID: workspaceID, viewerID: user.requireID())
    model.adPaymentCount = try await AdPaymentsHome.count(db: req.db, workspaceID: workspaceID)
    model.fundraisers = try await FundraisersHome.load(db: req.db, workspaceID: workspaceID)
    model.marketing = try await MarketingHomeCard.load(req)
    return req.page(HomeIndex(model: model))
  }
}

/// The overview: one card per area with its headline figures.
struct HomeIndex: PageView {
  struct Model: Sendable {
    var email: String
    var expenses: ExpensesHome? = nil
    var products = ProductsHome()
    var adPaymentCount = 0
    var fundraisers = FundraisersHome()
    var marketing: MarketingHomeCard.Model? = nil
  }
  var model: Model

  var title: String { L("home.title") }
  var section: NavSection? { .home }

  func content(context: PageContext) -> HTMLNode {
    H.group([
      H.h1(L("home.title")),
      H.p([.class("lead")], L("home.signed_in_as", ["email": model.email])),
      H.section(
        [.class("cards")],
        [
          H.div(
            [.class("card")],
            [
              H.h2(L("home.get_started")),
              H.p([], L("home.get_started.hint")),
              H.a(Routes.settings.href(), [.class("button")], text: L("home.open_settings")),
            ]),
          model.products.card(locale: context.locale, canWrite: context.canWrite),
          model.expenses?.card(locale: context.locale, canWrite: context.canWrite) ?? H.empty,
          AdPaymentsHome.card(count: model.adPaymentCount, canWrite: context.canWrite),
          MarketingHomeCard.render(model.marketing),
          model.fundraisers.card(canWrite: context.canWrite),
        ]),
    ])
  }
}
