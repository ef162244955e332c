import BackofficeCore
import Foundation
import Testing
import Vapor

@testable import BackofficeServer

/// Every area's pages rendered from plain models, without a database or a request, and compared
/// with the recorded HTML in `__Snapshots__/`. A change to a view shows up here as a diff to read
/// (and to record with `RECORD_SNAPSHOTS=1 swift test` when it is meant).
@Suite("Page snapshots")
struct PageSnapshotTests {
  static let context: PageContext = {
    var context = PageContext(
      userEmail: "owner@example.com", csrf: "csrf-token-for-snapshots", path: "/",
      locale: .resolve("en-US"))
    context.isAdmin = true
    context.workspace = WorkspaceContext(
      id: UUID(uuidString: "6F1D2C2B-8E2A-4C61-9F43-2B7E9A7C0001") ?? UUID(), name: "Kyiv bakery",
      currency: "USD", role: .owner)
    return context
  }()

  static let id = UUID(uuidString: "6F1D2C2B-8E2A-4C61-9F43-2B7E9A7C0001") ?? UUID()
  static let otherID = UUID(uuidString: "6F1D2C2B-8E2A-4C61-9F43-2B7E9A7C0002") ?? UUID()

  func check(
    _ view: some PageView, _ name: String, path: String = "/", language: UILanguage = .en
  ) throws {
    var context = Self.context
    context.path = path
    context.language = language
    try assertSnapshot(readableHTML(view.render(context: context)), named: "\(name).html")
  }

  // MARK: accounts

  @Test func signInWithAnError() throws {
    var context = PageContext(csrf: "csrf-token-for-snapshots", path: "/sign-in")
    context.signupOpen = true
    let view = SignInView(
      email: "ana@example.com", error: "Email or password is incorrect.", next: "/settings")
    try assertSnapshot(readableHTML(view.render(context: context)), named: "sign-in.html")
  }

  @Test func settings() throws {
    let view = SettingsShow(
      email: "owner@example.com", otherSessions: 2, locale: "de-DE", currency: "EUR",
      workspace: WorkspaceContext(id: Self.id, name: "Kyiv bakery", currency: "EUR", role: .owner),
      tokens: [
        .init(
          id: Self.id, name: "Shop import", prefix: "bo_abc1234",
          createdAt: Date(timeIntervalSince1970: 1_790_000_000), lastUsedAt: nil)
      ])
    try check(view, "settings", path: "/settings")
  }

  @Test func errorPage() throws {
    try check(ErrorPageView(status: .notFound, message: "Not found."), "error-404")
  }

  // MARK: products

  @Test func productFormWithProblems() throws {
    var view = ProductForm(
      mode: .create, currency: "EUR", maxUploadBytes: ImageUpload.defaultMaxBytes,
      outbox: OutboxSettings(
        account: "\(Self.id.uuidString.lowercased())-\(Self.id.uuidString.lowercased())",
        locale: .resolve("en-US")))
    view.values = .init(name: "Espresso <b>", type: "Drinks", price: "-1", tax: "20")
    view.errors = ["price": "Price must be greater than 0."]
    view.types = ["Drinks", "Food"]
    view.idempotencyKey = "00000000-0000-0000-0000-000000000000"
    try check(view, "product-form", path: "/products/new")
  }

  // MARK: expenses

  @Test func expenseForm() throws {
    let view = ExpenseForm(
      model: .init(
        mode: .edit(Self.id),
        draft: ExpenseDraft(title: "Coffee", amount: "3.50", category: "Food", date: "2026-11-23"),
        hasDate: true, currency: "EUR", places: 2, defaultDate: "2026-11-23", back: nil,
        version: 3))
    try check(view, "expense-form", path: "/expenses")
  }

  // MARK: ad payments

  @Test func adPaymentList() throws {
    let view = AdPaymentIndex(
      rows: [
        .init(id: Self.id, name: "Facebook boost", url: "https://pay.example.com/fb?a=1&b=2"),
        .init(id: Self.otherID, name: "Google Ads", url: "https://ads.example.com/pay"),
      ],
      matching: 2, accountTotal: 2)
    try check(view, "ad-payments", path: "/ad-payments")
  }

  // MARK: marketing plans

  @Test func marketingPlansEmpty() throws {
    let view = MarketingPlanIndex(rows: [], stored: nil, page: 1, pageCount: 1)
    try check(view, "marketing-plans-empty", path: "/marketing")
  }

  // MARK: fundraisers

  /// In Ukrainian, with the original app's words.
  @Test(.ukrainian) func fundraiserForm() throws {
    var view = FundraiserForm(mode: .create)
    view.purpose = "На дрони для 47-ї бригади"
    view.target = "50 000"
    view.jarLink = "https://send.monobank.ua/jar/8xZ2kQ3v9A"
    view.template = PosterTemplate(number: 3)
    view.errors = [.target: "Ціль має бути більшою за 0"]
    try check(view, "fundraiser-form", path: "/fundraisers/new", language: .uk)
  }
}
