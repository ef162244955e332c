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
  /// What the signed-in member's role must allow (`WorkspaceRole.allows`), checked before the
  /// handler runs; nil for routes outside any workspace (sign-in, public pages, joining).
  /// Reading is `.read` and everything else `.write`, unless the route says otherwise; a page
  /// that is only a form to change something (new, edit, import) is `.write` too.
  let access: WorkspaceAccess?
  /// The template's segments, split once (views print dozens of links per page).
  private let segments: [Segment]

  private enum Segment: Sendable {
    case literal(String)
    case parameter(String)
  }

  /// What a route declares about the member's role: one of `WorkspaceAccess`, or that it is
  /// outside any workspace.
  enum Declared: Sendable {
    case read, personal, write, manage
    /// No workspace is needed (sign-in, public pages, joining with an invitation).
    case outside
  }

  init(
    _ method: HTTPMethod, _ template: String, body: BodyKind = .standard,
    access declared: Declared? = nil
  ) {
    self.method = method
    self.template = template
    self.body = body
    segments = template.split(separator: "/", omittingEmptySubsequences: true).map {
      $0.first == ":" ? .parameter(String($0.dropFirst())) : .literal(String($0))
    }
    switch declared {
    case .read: access = .read
    case .personal: access = .personal
    case .write: access = .write
    case .manage: access = .manage
    case .outside: access = nil
    case nil: access = method == .GET || method == .HEAD ? .read : .write
    }
  }

  var pathComponents: [PathComponent] { template.pathComponents }
  var description: String { "\(method.rawValue) \(template)" }

  /// The path with `:name` segments replaced by `parameters[name]` (percent-encoded), plus a
  /// query string built from the non-nil `query` values in key order.
  ///
  /// Pages print dozens of links, so the common case is short: a value made only of
  /// characters no encoding changes (ids, numbers, plain words) is written as it is; anything
  /// else goes through Foundation's encoders, which decide the bytes.
  func href(_ parameters: [String: String] = [:], query: [String: String?] = [:]) -> String {
    path(query: query) { parameters[$0] ?? "" }
  }

  /// The path with each parameter's value from `value`, and the query.
  private func path(query: [String: String?], _ value: (String) -> String) -> String {
    var path = ""
    for segment in segments {
      path += "/"
      switch segment {
      case .literal(let text): path += text
      case .parameter(let name):
        let value = value(name)
        path +=
          Self.isUnreserved(value)
          ? value : (value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? value)
      }
    }
    if path.isEmpty { path = "/" }
    guard !query.isEmpty else { return path }
    let items = query.compactMap { key, value in value.map { (key, $0) } }
      .sorted { $0.0 < $1.0 }
    guard !items.isEmpty else { return path }
    if items.allSatisfy({ Self.isUnreserved($0.0) && Self.isUnreserved($0.1) }) {
      return path + "?" + items.map { $0.0 + "=" + $0.1 }.joined(separator: "&")
    }
    var components = URLComponents()
    components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
    // `+` means space to form decoders; encode it so values survive the round trip.
    let encoded =
      components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
    return path + "?" + encoded
  }

  /// Letters, digits and `-._~` only (RFC 3986's unreserved characters, which no
  /// percent-encoding changes).
  static func isUnreserved(_ text: String) -> Bool {
    text.utf8.allSatisfy(URLCharacters.isUnreserved)
  }

  /// The path with `id` (in lower case) as its first parameter; any other parameter empty.
  func href(id: UUID, query: [String: String?] = [:]) -> String {
    let first = segments.lazy.compactMap { segment -> String? in
      if case .parameter(let name) = segment { name } else { nil }
    }.first
    var text: [UInt8] = []
    text.reserveCapacity(36)
    UUIDText.writeLowercased(id, into: &text)
    let idText = String(decoding: text, as: UTF8.self)
    return path(query: query) { $0 == first ? idText : "" }
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
      try await UILanguage.$current.withValue(request.uiLanguage) {
        // The member's role, before anything else: a viewer's write never reaches a handler.
        if let access = route.access { try request.requireAccess(access) }
        let response = try await handler(request).encodeResponse(for: request)
        // What the handler changed goes into the workspace's activity, once it succeeded.
        if response.status.code < 400, let note = request.activityNote {
          await ActivityLog.record(request, note.action, note.area, id: note.id, name: note.name)
        }
        return response
      }
    }
  }
}

/// Every route of the app, grouped by area. `routes(_:)` registers exactly these.
enum Routes {
  // MARK: system
  static let health = AppRoute(.GET, "/health", access: .outside)
  static let ready = AppRoute(.GET, "/ready", access: .outside)
  static let metrics = AppRoute(.GET, "/metrics", access: .outside)

  // MARK: accounts
  static let home = AppRoute(.GET, "/")
  static let signIn = AppRoute(.GET, "/sign-in", access: .outside)
  static let signInSubmit = AppRoute(.POST, "/sign-in", access: .outside)
  static let signUp = AppRoute(.GET, "/sign-up", access: .outside)
  static let signUpSubmit = AppRoute(.POST, "/sign-up", access: .outside)
  static let signUpConfirm = AppRoute(.GET, "/sign-up/confirm/:token", access: .outside)
  static let signUpConfirmSubmit = AppRoute(.POST, "/sign-up/confirm/:token", access: .outside)
  static let forgotPassword = AppRoute(.GET, "/forgot-password", access: .outside)
  static let forgotPasswordSubmit = AppRoute(.POST, "/forgot-password", access: .outside)
  static let resetPassword = AppRoute(.GET, "/reset-password/:token", access: .outside)
  static let resetPasswordSubmit = AppRoute(.POST, "/reset-password/:token", access: .outside)
  static let signOut = AppRoute(.POST, "/sign-out", access: .outside)

  // MARK: settings
  static let settings = AppRoute(.GET, "/settings", access: .personal)
  static let settingsLocale = AppRoute(.POST, "/settings/locale", access: .personal)
  static let settingsPassword = AppRoute(.POST, "/settings/password", access: .personal)
  static let settingsBackup = AppRoute(.GET, "/settings/backup", access: .manage)
  static let tokenCreate = AppRoute(.POST, "/settings/tokens", access: .personal)
  static let tokenRevoke = AppRoute(
    .POST, "/settings/tokens/:tokenID/revoke", access: .personal)
  static let settingsSignOutOthers = AppRoute(
    .POST, "/settings/sessions/sign-out-others", access: .personal)

  // MARK: api
  static let apiMe = AppRoute(.GET, "/api/v1/me", access: .personal)

  // MARK: products
  static let products = AppRoute(.GET, "/products")
  static let productNew = AppRoute(.GET, "/products/new", access: .write)
  static let productCreate = AppRoute(.POST, "/products", body: .photoForm)
  static let productEdit = AppRoute(.GET, "/products/:productID/edit", access: .write)
  static let productUpdate = AppRoute(.POST, "/products/:productID", body: .photoForm)
  static let productDelete = AppRoute(.POST, "/products/:productID/delete")
  static let productFavorite = AppRoute(
    .POST, "/products/:productID/favorite", access: .personal)
  static let productPhoto = AppRoute(.GET, "/products/:productID/photo")
  static let productsExport = AppRoute(.GET, "/products/export.csv")
  static let productsImport = AppRoute(.GET, "/products/import", access: .write)
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
  static let apiFavoriteAdd = AppRoute(.PUT, "/api/v1/favorites/:productID", access: .personal)
  static let apiFavoriteRemove = AppRoute(
    .DELETE, "/api/v1/favorites/:productID", access: .personal)
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
  static let fundraiserNew = AppRoute(.GET, "/fundraisers/new", access: .write)
  static let fundraiserCreate = AppRoute(.POST, "/fundraisers", body: .photoForm)
  static let fundraiserPreview = AppRoute(.GET, "/fundraisers/preview.svg")
  static let fundraiserRefreshAll = AppRoute(.POST, "/fundraisers/refresh")
  static let fundraiserPhoto = AppRoute(.GET, "/fundraisers/photos/:photoID")
  static let fundraiser = AppRoute(.GET, "/fundraisers/:fundraiserID")
  static let fundraiserEdit = AppRoute(.GET, "/fundraisers/:fundraiserID/edit", access: .write)
  static let fundraiserUpdate = AppRoute(.POST, "/fundraisers/:fundraiserID", body: .photoForm)
  static let fundraiserDelete = AppRoute(.POST, "/fundraisers/:fundraiserID/delete")
  static let fundraiserRefresh = AppRoute(.POST, "/fundraisers/:fundraiserID/refresh")
  static let fundraiserPoster = AppRoute(.GET, "/fundraisers/:fundraiserID/poster.svg")
  static let fundraiserPublish = AppRoute(.POST, "/fundraisers/:fundraiserID/public")
  static let fundraiserShareImage = AppRoute(.PUT, "/fundraisers/:fundraiserID/share-image")
  static let fundraiserStage = AppRoute(.POST, "/fundraisers/:fundraiserID/stage")
  static let fundraiserReportPoster = AppRoute(
    .GET, "/fundraisers/:fundraiserID/report-poster.svg")
  static let publicFundraiser = AppRoute(.GET, "/f/:slug", access: .outside)
  static let publicFundraiserPoster = AppRoute(.GET, "/f/:slug/poster.svg", access: .outside)
  static let publicFundraiserImage = AppRoute(.GET, "/f/:slug/poster.png", access: .outside)
  static let publicFundraiserQR = AppRoute(.GET, "/f/:slug/qr.svg", access: .outside)
  static let publicFundraiserReceipt = AppRoute(
    .GET, "/f/:slug/receipts/:receiptID", access: .outside)
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
  static let apiFundraiserReport = AppRoute(.GET, "/api/v1/fundraisers/:fundraiserID/report")
  static let apiFundraiserStage = AppRoute(.POST, "/api/v1/fundraisers/:fundraiserID/stage")
  static let fundraiserRoutes: [AppRoute] = [
    fundraisers, fundraiserNew, fundraiserCreate, fundraiserPreview, fundraiserRefreshAll,
    fundraiserPhoto, fundraiser, fundraiserEdit, fundraiserUpdate, fundraiserDelete,
    fundraiserRefresh, fundraiserPoster, fundraiserPublish, fundraiserShareImage, fundraiserStage,
    fundraiserReportPoster,
    publicFundraiser, publicFundraiserPoster, publicFundraiserImage, publicFundraiserQR,
    publicFundraiserReceipt,
    apiFundraisers, apiFundraiserCreate, apiFundraiser, apiFundraiserUpdate, apiFundraiserDelete,
    apiFundraiserPoster, apiFundraiserPhoto, apiFundraiserSnapshots, apiFundraiserRefresh,
    apiFundraiserReport, apiFundraiserStage,
  ]

  // MARK: ad payments
  static let adPayments = AppRoute(.GET, "/ad-payments")
  static let adPaymentNew = AppRoute(.GET, "/ad-payments/new", access: .write)
  static let adPaymentCreate = AppRoute(.POST, "/ad-payments")
  static let adPaymentEdit = AppRoute(.GET, "/ad-payments/:entryID/edit", access: .write)
  static let adPaymentUpdate = AppRoute(.POST, "/ad-payments/:entryID")
  static let adPaymentDelete = AppRoute(.POST, "/ad-payments/:entryID/delete")
  static let adPaymentCheck = AppRoute(.GET, "/ad-payments/check")
  static let adPaymentExport = AppRoute(.GET, "/ad-payments/export.csv")
  static let adPaymentImport = AppRoute(.GET, "/ad-payments/import", access: .write)
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
  static let expenseNew = AppRoute(.GET, "/expenses/new", access: .write)
  static let expenseCreate = AppRoute(.POST, "/expenses", body: .receiptForm)
  static let expenseEdit = AppRoute(.GET, "/expenses/:expenseID/edit", access: .write)
  static let expenseUpdate = AppRoute(.POST, "/expenses/:expenseID", body: .receiptForm)
  static let expenseDelete = AppRoute(.POST, "/expenses/:expenseID/delete")
  static let expenseRestore = AppRoute(.POST, "/expenses/:expenseID/restore")
  static let expenseReceipt = AppRoute(.GET, "/expenses/:expenseID/receipts/:receiptID")
  static let expensesExport = AppRoute(.GET, "/expenses/export.csv")
  static let expensesImport = AppRoute(.GET, "/expenses/import", access: .write)
  static let expensesImportSubmit = AppRoute(.POST, "/expenses/import")
  static let apiExpenses = AppRoute(.GET, "/api/v1/expenses")
  static let apiExpenseCreate = AppRoute(.POST, "/api/v1/expenses")
  static let apiExpensesSummary = AppRoute(.GET, "/api/v1/expenses/summary")
  static let apiExpense = AppRoute(.GET, "/api/v1/expenses/:expenseID")
  static let apiExpenseUpdate = AppRoute(.PUT, "/api/v1/expenses/:expenseID")
  static let apiExpenseDelete = AppRoute(.DELETE, "/api/v1/expenses/:expenseID")
  static let apiExpenseReceiptAdd = AppRoute(
    .POST, "/api/v1/expenses/:expenseID/receipts", body: .jsonWithPhoto)
  static let apiExpenseReceipt = AppRoute(
    .GET, "/api/v1/expenses/:expenseID/receipts/:receiptID")
  static let apiExpenseReceiptUpdate = AppRoute(
    .PATCH, "/api/v1/expenses/:expenseID/receipts/:receiptID")
  static let apiExpenseReceiptDelete = AppRoute(
    .DELETE, "/api/v1/expenses/:expenseID/receipts/:receiptID")
  static let expenseRoutes: [AppRoute] = [
    expenses, expenseNew, expenseCreate, expenseEdit, expenseUpdate, expenseDelete,
    expenseRestore, expenseReceipt, expensesExport, expensesImport, expensesImportSubmit,
    apiExpenses, apiExpenseCreate, apiExpensesSummary, apiExpense, apiExpenseUpdate,
    apiExpenseDelete, apiExpenseReceiptAdd, apiExpenseReceipt, apiExpenseReceiptUpdate,
    apiExpenseReceiptDelete,
  ]

  // MARK: imports (CSV imports of expenses, ad payments and products, running in the background)
  static let importJob = AppRoute(.GET, "/imports/:jobID")
  static let importJobStatus = AppRoute(.GET, "/imports/:jobID/status")
  static let importJobRetry = AppRoute(.POST, "/imports/:jobID/retry")
  static let importRoutes: [AppRoute] = [importJob, importJobStatus, importJobRetry]

  // MARK: marketing plans
  static let marketing = AppRoute(.GET, "/marketing")
  static let marketingPlanCreate = AppRoute(.POST, "/marketing/plans")
  static let marketingPlanTargets = AppRoute(
    .GET, "/marketing/plans/:planID/targets", access: .write)
  static let marketingPlanTargetToggle = AppRoute(.POST, "/marketing/plans/:planID/targets/toggle")
  static let marketingPlanChannels = AppRoute(
    .GET, "/marketing/plans/:planID/channels", access: .write)
  static let marketingPlanChannel = AppRoute(
    .GET, "/marketing/plans/:planID/channels/:channelID", access: .write)
  static let marketingPlanChoose = AppRoute(
    .POST, "/marketing/plans/:planID/channels/:channelID/choose")
  static let marketingPlanReset = AppRoute(
    .POST, "/marketing/plans/:planID/channels/:channelID/reset")
  static let marketingPlanReview = AppRoute(.GET, "/marketing/plans/:planID/review")
  static let marketingPlanRemove = AppRoute(.POST, "/marketing/plans/:planID/review/remove")
  static let marketingPlanEmail = AppRoute(.POST, "/marketing/plans/:planID/email")
  static let marketingPlanEmailDownload = AppRoute(.GET, "/marketing/plans/:planID/email.eml")
  static let marketingPlanEmailSend = AppRoute(.POST, "/marketing/plans/:planID/email/send")
  static let marketingPlanRename = AppRoute(.POST, "/marketing/plans/:planID/rename")
  static let marketingPlanDuplicate = AppRoute(.POST, "/marketing/plans/:planID/duplicate")
  static let marketingPlanDelete = AppRoute(.POST, "/marketing/plans/:planID/delete")
  static let marketingCatalog = AppRoute(.GET, "/marketing/catalog")
  /// The catalog every account shares: an administrator's, whatever their role in a workspace
  /// (`RequireAdminMiddleware`).
  static let marketingCatalogRefresh = AppRoute(
    .POST, "/marketing/catalog/refresh", access: .personal)
  static let marketingCatalogImport = AppRoute(
    .POST, "/marketing/catalog/import", access: .personal)
  static let marketingCatalogExport = AppRoute(.GET, "/marketing/catalog/export.json")
  static let apiMarketingCatalog = AppRoute(.GET, "/api/v1/marketing/catalog")
  static let apiMarketingCatalogRefresh = AppRoute(
    .POST, "/api/v1/marketing/catalog/refresh", access: .personal)
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
    marketingPlanEmailSend,
    marketingPlanRename, marketingPlanDuplicate, marketingPlanDelete, marketingCatalog,
    marketingCatalogRefresh, marketingCatalogImport, marketingCatalogExport,
    apiMarketingCatalog, apiMarketingCatalogRefresh, apiMarketingPlans, apiMarketingPlanCreate,
    apiMarketingPlan, apiMarketingPlanUpdate, apiMarketingPlanDelete, apiMarketingPlanDuplicate,
    apiMarketingPlanSummary,
  ]

  // MARK: workspace — members, invitations, activity, switching
  static let members = AppRoute(.GET, "/settings/members")
  static let memberRole = AppRoute(.POST, "/settings/members/:userID/role", access: .manage)
  static let memberRemove = AppRoute(.POST, "/settings/members/:userID/remove", access: .manage)
  static let workspaceLeave = AppRoute(.POST, "/settings/members/leave", access: .personal)
  static let invitationCreate = AppRoute(.POST, "/settings/invitations", access: .manage)
  static let invitationRevoke = AppRoute(
    .POST, "/settings/invitations/:invitationID/revoke", access: .manage)
  static let workspaceRename = AppRoute(.POST, "/settings/workspace", access: .manage)
  static let workspaceDelete = AppRoute(.POST, "/settings/workspace/delete", access: .manage)
  static let activity = AppRoute(.GET, "/settings/activity")
  static let workspaceSwitch = AppRoute(.POST, "/workspace/switch", access: .personal)
  /// An invitation's link: before joining, the visitor is in no workspace of it yet.
  static let join = AppRoute(.GET, "/join/:token", access: .outside)
  static let joinSubmit = AppRoute(.POST, "/join/:token", access: .outside)
  static let apiWorkspace = AppRoute(.GET, "/api/v1/workspace")
  static let apiMembers = AppRoute(.GET, "/api/v1/workspace/members")
  static let apiMemberSet = AppRoute(.POST, "/api/v1/workspace/members", access: .manage)
  static let apiMemberRemove = AppRoute(
    .DELETE, "/api/v1/workspace/members/:userID", access: .manage)
  static let apiInvitationCreate = AppRoute(
    .POST, "/api/v1/workspace/invitations", access: .manage)
  static let apiActivity = AppRoute(.GET, "/api/v1/activity")
  static let workspaceRoutes: [AppRoute] = [
    members, memberRole, memberRemove, workspaceLeave, invitationCreate, invitationRevoke,
    workspaceRename, workspaceDelete, activity, workspaceSwitch, join, joinSubmit, apiWorkspace,
    apiMembers,
    apiMemberSet, apiMemberRemove, apiInvitationCreate, apiActivity,
  ]

  static let all: [AppRoute] =
    [
      health, ready, metrics, home, signIn, signInSubmit, signUp, signUpSubmit, signOut,
      forgotPassword, forgotPasswordSubmit, resetPassword, resetPasswordSubmit, signUpConfirm,
      signUpConfirmSubmit,
      settings, settingsLocale, settingsPassword, settingsBackup, tokenCreate, tokenRevoke,
      settingsSignOutOthers, apiMe,
    ] + productRoutes + adPaymentRoutes + fundraiserRoutes + expenseRoutes + importRoutes
    + marketingRoutes + workspaceRoutes
}
