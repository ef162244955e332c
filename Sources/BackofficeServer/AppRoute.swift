import BackofficeCore
import Foundation
import Vapor

/// One route: the method and path template that are registered, and the `href` views print.
/// Both come from here, so a link can never point at a path that is not served.
struct AppRoute: Sendable, CustomStringConvertible {
  let method: HTTPMethod
  let template: String
  /// How large a body the route reads (registration and the CSRF check use the same limit).
  let body: BodyKind

  init(_ method: HTTPMethod, _ template: String, body: BodyKind = .standard) {
    self.method = method
    self.template = template
    self.body = body
  }

  var pathComponents: [PathComponent] { template.pathComponents }
  var description: String { "\(method.rawValue) \(template)" }

  /// The path with `:name` segments replaced by `parameters[name]` (percent-encoded), plus a
  /// query string built from the non-nil `query` values in key order.
  func href(_ parameters: [String: String] = [:], query: [String: String?] = [:]) -> String {
    var path = template.split(separator: "/", omittingEmptySubsequences: true).map {
      segment -> String in
      guard segment.hasPrefix(":") else { return String(segment) }
      let value = parameters[String(segment.dropFirst())] ?? ""
      return value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? value
    }.joined(separator: "/")
    path = "/" + path
    let items = query.compactMap { key, value in value.map { (key, $0) } }
      .sorted { $0.0 < $1.0 }
    guard !items.isEmpty else { return path }
    var components = URLComponents()
    components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
    // `+` means space to form decoders; encode it so values survive the round trip.
    let encoded =
      components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
    return path + "?" + encoded
  }

  func href(id: UUID, query: [String: String?] = [:]) -> String {
    let name = template.split(separator: "/").first { $0.hasPrefix(":") }.map {
      String($0.dropFirst())
    }
    return href(name.map { [$0: id.uuidString.lowercased()] } ?? [:], query: query)
  }
}

extension RoutesBuilder {
  /// Registers `route`. Its body has already been read by `BodyLimitMiddleware`, with the
  /// limit of `route.body`, so the route itself does not collect it again.
  @discardableResult
  func on(
    _ route: AppRoute,
    use handler: @escaping @Sendable (Request) async throws -> some AsyncResponseEncodable
  ) -> Vapor.Route {
    on(route.method, route.pathComponents, body: .stream) { request in
      // Every text the handler produces (pages, flashes, validation, API errors) is in the
      // request's interface language.
      try await UILanguage.$current.withValue(request.uiLanguage) { try await handler(request) }
    }
  }
}

/// Every route of the app, grouped by area. `routes(_:)` registers exactly these.
enum Routes {
  // MARK: system
  static let health = AppRoute(.GET, "/health")
  static let ready = AppRoute(.GET, "/ready")

  // MARK: accounts
  static let home = AppRoute(.GET, "/")
  static let signIn = AppRoute(.GET, "/sign-in")
  static let signInSubmit = AppRoute(.POST, "/sign-in")
  static let signUp = AppRoute(.GET, "/sign-up")
  static let signUpSubmit = AppRoute(.POST, "/sign-up")
  static let signOut = AppRoute(.POST, "/sign-out")

  // MARK: settings
  static let settings = AppRoute(.GET, "/settings")
  static let settingsLocale = AppRoute(.POST, "/settings/locale")
  static let settingsPassword = AppRoute(.POST, "/settings/password")
  static let settingsBackup = AppRoute(.GET, "/settings/backup")
  static let tokenCreate = AppRoute(.POST, "/settings/tokens")
  static let tokenRevoke = AppRoute(.POST, "/settings/tokens/:tokenID/revoke")
  static let settingsSignOutOthers = AppRoute(.POST, "/settings/sessions/sign-out-others")

  // MARK: api
  static let apiMe = AppRoute(.GET, "/api/v1/me")

  // MARK: products
  static let products = AppRoute(.GET, "/products")
  static let productNew = AppRoute(.GET, "/products/new")
  static let productCreate = AppRoute(.POST, "/products", body: .photoForm)
  static let productEdit = AppRoute(.GET, "/products/:productID/edit")
  static let productUpdate = AppRoute(.POST, "/products/:productID", body: .photoForm)
  static let productDelete = AppRoute(.POST, "/products/:productID/delete")
  static let productFavorite = AppRoute(.POST, "/products/:productID/favorite")
  static let productPhoto = AppRoute(.GET, "/products/:productID/photo")
  static let productsExport = AppRoute(.GET, "/products/export.csv")
  static let productsImport = AppRoute(.GET, "/products/import")
  static let productsImportSubmit = AppRoute(.POST, "/products/import")
  static let apiProducts = AppRoute(.GET, "/api/v1/products")
  static let apiProductCreate = AppRoute(.POST, "/api/v1/products", body: .jsonWithPhoto)
  static let apiProduct = AppRoute(.GET, "/api/v1/products/:productID")
  static let apiProductUpdate = AppRoute(.PUT, "/api/v1/products/:productID", body: .jsonWithPhoto)
  static let apiProductDelete = AppRoute(.DELETE, "/api/v1/products/:productID")
  static let apiProductPhoto = AppRoute(.GET, "/api/v1/products/:productID/photo")
  static let apiProductTypes = AppRoute(.GET, "/api/v1/product-types")
  static let apiProductChanges = AppRoute(.GET, "/api/v1/product-changes")
  static let apiFavorites = AppRoute(.GET, "/api/v1/favorites")
  static let apiFavoriteAdd = AppRoute(.PUT, "/api/v1/favorites/:productID")
  static let apiFavoriteRemove = AppRoute(.DELETE, "/api/v1/favorites/:productID")
  static let swipeGet = AppRoute(.GET, "/api/public/get")
  static let swipeAdd = AppRoute(.POST, "/api/public/add", body: .photoForm)
  static let productRoutes: [AppRoute] = [
    products, productNew, productCreate, productEdit, productUpdate, productDelete,
    productFavorite, productPhoto, productsExport, productsImport, productsImportSubmit,
    apiProducts, apiProductCreate, apiProduct, apiProductUpdate,
    apiProductDelete, apiProductPhoto, apiProductTypes, apiProductChanges, apiFavorites,
    apiFavoriteAdd,
    apiFavoriteRemove, swipeGet, swipeAdd,
  ]

  // MARK: fundraisers
  static let fundraisers = AppRoute(.GET, "/fundraisers")
  static let fundraiserNew = AppRoute(.GET, "/fundraisers/new")
  static let fundraiserCreate = AppRoute(.POST, "/fundraisers", body: .photoForm)
  static let fundraiserPreview = AppRoute(.GET, "/fundraisers/preview.svg")
  static let fundraiserRefreshAll = AppRoute(.POST, "/fundraisers/refresh")
  static let fundraiserPhoto = AppRoute(.GET, "/fundraisers/photos/:photoID")
  static let fundraiser = AppRoute(.GET, "/fundraisers/:fundraiserID")
  static let fundraiserEdit = AppRoute(.GET, "/fundraisers/:fundraiserID/edit")
  static let fundraiserUpdate = AppRoute(.POST, "/fundraisers/:fundraiserID", body: .photoForm)
  static let fundraiserDelete = AppRoute(.POST, "/fundraisers/:fundraiserID/delete")
  static let fundraiserRefresh = AppRoute(.POST, "/fundraisers/:fundraiserID/refresh")
  static let fundraiserPoster = AppRoute(.GET, "/fundraisers/:fundraiserID/poster.svg")
  static let fundraiserPublish = AppRoute(.POST, "/fundraisers/:fundraiserID/public")
  static let fundraiserShareImage = AppRoute(.PUT, "/fundraisers/:fundraiserID/share-image")
  static let publicFundraiser = AppRoute(.GET, "/f/:slug")
  static let publicFundraiserPoster = AppRoute(.GET, "/f/:slug/poster.svg")
  static let publicFundraiserImage = AppRoute(.GET, "/f/:slug/poster.png")
  static let publicFundraiserQR = AppRoute(.GET, "/f/:slug/qr.svg")
  static let apiFundraisers = AppRoute(.GET, "/api/v1/fundraisers")
  static let apiFundraiserCreate = AppRoute(.POST, "/api/v1/fundraisers", body: .jsonWithPhoto)
  static let apiFundraiser = AppRoute(.GET, "/api/v1/fundraisers/:fundraiserID")
  static let apiFundraiserUpdate = AppRoute(
    .PUT, "/api/v1/fundraisers/:fundraiserID", body: .jsonWithPhoto)
  static let apiFundraiserDelete = AppRoute(.DELETE, "/api/v1/fundraisers/:fundraiserID")
  static let apiFundraiserPoster = AppRoute(.GET, "/api/v1/fundraisers/:fundraiserID/poster.svg")
  static let apiFundraiserPhoto = AppRoute(.GET, "/api/v1/fundraisers/:fundraiserID/photo")
  static let apiFundraiserSnapshots = AppRoute(
    .GET, "/api/v1/fundraisers/:fundraiserID/snapshots")
  static let apiFundraiserRefresh = AppRoute(.POST, "/api/v1/fundraisers/:fundraiserID/refresh")
  static let fundraiserRoutes: [AppRoute] = [
    fundraisers, fundraiserNew, fundraiserCreate, fundraiserPreview, fundraiserRefreshAll,
    fundraiserPhoto, fundraiser, fundraiserEdit, fundraiserUpdate, fundraiserDelete,
    fundraiserRefresh, fundraiserPoster, fundraiserPublish, fundraiserShareImage,
    publicFundraiser, publicFundraiserPoster, publicFundraiserImage, publicFundraiserQR,
    apiFundraisers, apiFundraiserCreate, apiFundraiser, apiFundraiserUpdate, apiFundraiserDelete,
    apiFundraiserPoster, apiFundraiserPhoto, apiFundraiserSnapshots, apiFundraiserRefresh,
  ]

  // MARK: ad payments
  static let adPayments = AppRoute(.GET, "/ad-payments")
  static let adPaymentNew = AppRoute(.GET, "/ad-payments/new")
  static let adPaymentCreate = AppRoute(.POST, "/ad-payments")
  static let adPaymentEdit = AppRoute(.GET, "/ad-payments/:entryID/edit")
  static let adPaymentUpdate = AppRoute(.POST, "/ad-payments/:entryID")
  static let adPaymentDelete = AppRoute(.POST, "/ad-payments/:entryID/delete")
  static let adPaymentCheck = AppRoute(.GET, "/ad-payments/check")
  static let adPaymentExport = AppRoute(.GET, "/ad-payments/export.csv")
  static let adPaymentImport = AppRoute(.GET, "/ad-payments/import")
  static let adPaymentImportSubmit = AppRoute(.POST, "/ad-payments/import")
  static let apiAdPayments = AppRoute(.GET, "/api/v1/ad-payments")
  static let apiAdPaymentCreate = AppRoute(.POST, "/api/v1/ad-payments")
  static let apiAdPayment = AppRoute(.GET, "/api/v1/ad-payments/:entryID")
  static let apiAdPaymentUpdate = AppRoute(.PUT, "/api/v1/ad-payments/:entryID")
  static let apiAdPaymentDelete = AppRoute(.DELETE, "/api/v1/ad-payments/:entryID")
  static let adPaymentRoutes: [AppRoute] = [
    adPayments, adPaymentNew, adPaymentCreate, adPaymentEdit, adPaymentUpdate, adPaymentDelete,
    adPaymentCheck, adPaymentExport, adPaymentImport, adPaymentImportSubmit,
    apiAdPayments, apiAdPaymentCreate, apiAdPayment, apiAdPaymentUpdate, apiAdPaymentDelete,
  ]

  // MARK: expenses
  static let expenses = AppRoute(.GET, "/expenses")
  static let expenseNew = AppRoute(.GET, "/expenses/new")
  static let expenseCreate = AppRoute(.POST, "/expenses")
  static let expenseEdit = AppRoute(.GET, "/expenses/:expenseID/edit")
  static let expenseUpdate = AppRoute(.POST, "/expenses/:expenseID")
  static let expenseDelete = AppRoute(.POST, "/expenses/:expenseID/delete")
  static let expenseRestore = AppRoute(.POST, "/expenses/:expenseID/restore")
  static let expensesExport = AppRoute(.GET, "/expenses/export.csv")
  static let expensesImport = AppRoute(.GET, "/expenses/import")
  static let expensesImportSubmit = AppRoute(.POST, "/expenses/import")
  static let apiExpenses = AppRoute(.GET, "/api/v1/expenses")
  static let apiExpenseCreate = AppRoute(.POST, "/api/v1/expenses")
  static let apiExpensesSummary = AppRoute(.GET, "/api/v1/expenses/summary")
  static let apiExpense = AppRoute(.GET, "/api/v1/expenses/:expenseID")
  static let apiExpenseUpdate = AppRoute(.PUT, "/api/v1/expenses/:expenseID")
  static let apiExpenseDelete = AppRoute(.DELETE, "/api/v1/expenses/:expenseID")
  static let expenseRoutes: [AppRoute] = [
    expenses, expenseNew, expenseCreate, expenseEdit, expenseUpdate, expenseDelete,
    expenseRestore, expensesExport, expensesImport, expensesImportSubmit,
    apiExpenses, apiExpenseCreate, apiExpensesSummary, apiExpense, apiExpenseUpdate,
    apiExpenseDelete,
  ]

  // MARK: imports (CSV imports of expenses, ad payments and products, running in the background)
  static let importJob = AppRoute(.GET, "/imports/:jobID")
  static let importJobStatus = AppRoute(.GET, "/imports/:jobID/status")
  static let importJobRetry = AppRoute(.POST, "/imports/:jobID/retry")
  static let importRoutes: [AppRoute] = [importJob, importJobStatus, importJobRetry]

  // MARK: marketing plans
  static let marketing = AppRoute(.GET, "/marketing")
  static let marketingPlanCreate = AppRoute(.POST, "/marketing/plans")
  static let marketingPlanTargets = AppRoute(.GET, "/marketing/plans/:planID/targets")
  static let marketingPlanTargetToggle = AppRoute(.POST, "/marketing/plans/:planID/targets/toggle")
  static let marketingPlanChannels = AppRoute(.GET, "/marketing/plans/:planID/channels")
  static let marketingPlanChannel = AppRoute(.GET, "/marketing/plans/:planID/channels/:channelID")
  static let marketingPlanChoose = AppRoute(
    .POST, "/marketing/plans/:planID/channels/:channelID/choose")
  static let marketingPlanReset = AppRoute(
    .POST, "/marketing/plans/:planID/channels/:channelID/reset")
  static let marketingPlanReview = AppRoute(.GET, "/marketing/plans/:planID/review")
  static let marketingPlanRemove = AppRoute(.POST, "/marketing/plans/:planID/review/remove")
  static let marketingPlanEmail = AppRoute(.POST, "/marketing/plans/:planID/email")
  static let marketingPlanEmailDownload = AppRoute(.GET, "/marketing/plans/:planID/email.eml")
  static let marketingPlanRename = AppRoute(.POST, "/marketing/plans/:planID/rename")
  static let marketingPlanDuplicate = AppRoute(.POST, "/marketing/plans/:planID/duplicate")
  static let marketingPlanDelete = AppRoute(.POST, "/marketing/plans/:planID/delete")
  static let marketingCatalog = AppRoute(.GET, "/marketing/catalog")
  static let marketingCatalogRefresh = AppRoute(.POST, "/marketing/catalog/refresh")
  static let marketingCatalogImport = AppRoute(.POST, "/marketing/catalog/import")
  static let marketingCatalogExport = AppRoute(.GET, "/marketing/catalog/export.json")
  static let apiMarketingCatalog = AppRoute(.GET, "/api/v1/marketing/catalog")
  static let apiMarketingCatalogRefresh = AppRoute(.POST, "/api/v1/marketing/catalog/refresh")
  static let apiMarketingPlans = AppRoute(.GET, "/api/v1/marketing/plans")
  static let apiMarketingPlanCreate = AppRoute(.POST, "/api/v1/marketing/plans")
  static let apiMarketingPlan = AppRoute(.GET, "/api/v1/marketing/plans/:planID")
  static let apiMarketingPlanUpdate = AppRoute(.PATCH, "/api/v1/marketing/plans/:planID")
  static let apiMarketingPlanDelete = AppRoute(.DELETE, "/api/v1/marketing/plans/:planID")
  static let apiMarketingPlanDuplicate = AppRoute(
    .POST, "/api/v1/marketing/plans/:planID/duplicate")
  static let apiMarketingPlanSummary = AppRoute(.GET, "/api/v1/marketing/plans/:planID/summary")
  static let marketingRoutes: [AppRoute] = [
    marketing, marketingPlanCreate, marketingPlanTargets, marketingPlanTargetToggle,
    marketingPlanChannels, marketingPlanChannel, marketingPlanChoose, marketingPlanReset,
    marketingPlanReview, marketingPlanRemove, marketingPlanEmail, marketingPlanEmailDownload,
    marketingPlanRename, marketingPlanDuplicate, marketingPlanDelete, marketingCatalog,
    marketingCatalogRefresh, marketingCatalogImport, marketingCatalogExport,
    apiMarketingCatalog, apiMarketingCatalogRefresh, apiMarketingPlans, apiMarketingPlanCreate,
    apiMarketingPlan, apiMarketingPlanUpdate, apiMarketingPlanDelete, apiMarketingPlanDuplicate,
    apiMarketingPlanSummary,
  ]

  static let all: [AppRoute] =
    [
      health, ready, home, signIn, signInSubmit, signUp, signUpSubmit, signOut,
      settings, settingsLocale, settingsPassword, settingsBackup, tokenCreate, tokenRevoke,
      settingsSignOutOthers, apiMe,
    ] + productRoutes + adPaymentRoutes + fundraiserRoutes + expenseRoutes + importRoutes
    + marketingRoutes
}
