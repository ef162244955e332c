import Vapor

/// The table of contents: every area's routes, in one place, with the guards they need.
func routes(_ app: Application) throws {
  // MARK: system — open to everyone
  try app.register(collection: SystemController())
  try app.register(collection: MetricsController())
  try app.register(collection: PasswordResetController())

  // MARK: accounts — sign-in and sign-up pages
  try app.register(collection: AuthController())

  // MARK: invitations — a link opens to everyone, joining needs a signed-in browser
  try app.register(collection: JoinController())

  // MARK: public fundraiser pages — no sign-in, switched on per fundraiser by its owner
  app.publicPageLimiter = PublicPageLimiter(limit: FundraiserPublicPage.requestsPerMinute)
  try app.register(collection: FundraiserPublicPage())

  // MARK: pages behind sign-in
  let pages = app.guarded(RequireUserMiddleware())
  try pages.register(collection: HomeController())
  try pages.register(collection: SettingsController())
  // MARK: workspace — members, invitations, activity, switching
  try pages.register(collection: WorkspaceController())
  // MARK: expenses
  try pages.register(collection: ExpensesController())
  // MARK: products
  try pages.register(collection: ProductsController())
  // MARK: ad payments
  try pages.register(collection: AdPaymentsController())
  // MARK: CSV imports — progress of the imports the two areas above start
  try pages.register(collection: ImportsController())
  // MARK: marketing plans
  try pages.register(collection: MarketingPlansController())
  // MARK: fundraisers
  try pages.register(collection: FundraisersController())

  // MARK: JSON API — bearer token or session
  let api = app.guarded(APIAuthMiddleware())
  try api.register(collection: AccountAPIController())
  try api.register(collection: WorkspaceAPIController())
  // MARK: expenses API
  try api.register(collection: ExpensesAPIController())
  // MARK: products API (and the Swipe-compatible /api/public)
  try api.register(collection: ProductsAPIController())
  try api.register(collection: SwipeAPIController())
  // MARK: ad payments API
  try api.register(collection: AdPaymentsAPIController())
  // MARK: marketing plans API
  try api.register(collection: MarketingPlansAPIController())
  // MARK: fundraisers API
  try api.register(collection: FundraisersAPIController())
}
