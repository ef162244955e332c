import BackofficeCore
import Crypto
import Fluent
import Foundation
import Vapor

/// A fundraiser's money: what the jar raised, what was spent on it (its live expenses) and what
/// is left, with every purchase and its receipts. One place reads it, for the owner's page, the
/// public report, the API and the report poster.
///
/// The jar counts in hryvnias; expenses are in the workspace's currency. Only when that is the
/// hryvnia do the two meet: otherwise the expenses' sum is listed apart, never converted, and
/// nothing is left over to compute.
struct FundraiserReport: Sendable, Equatable {
  /// The jar's currency.
  static let jarCurrency = "UAH"

  struct Receipt: Sendable, Equatable {
    var id: UUID
    var isPublic: Bool
    var width: Int
    var height: Int
  }

  struct Purchase: Sendable, Equatable {
    var expenseID: UUID
    var title: String
    /// In the workspace's currency.
    var amount: Decimal
    /// The day the money was spent (UTC midnight, as expenses keep it); nil when undated.
    var spentAt: Date?
    var receipts: [Receipt]
  }

  /// Money spent in a currency other than the jar's.
  struct OtherSpending: Sendable, Equatable {
    var currency: String
    var amount: Decimal
  }

  /// The jar's last good amount; nil before the jar has answered (or without a jar).
  var raised: Decimal?
  /// The workspace's currency, which every purchase's amount is in.
  var currency: String
  /// Spent in hryvnias: the exact sum of the live expenses when the workspace counts in
  /// hryvnias, else zero.
  var spent: Decimal
  /// What was spent in the workspace's other currency; empty when it is the hryvnia.
  var spentOther: [OtherSpending]
  /// Newest first, as the expense list orders them.
  var purchases: [Purchase]

  /// Raised minus spent, in hryvnias; negative when more was spent than raised. Nil while the
  /// jar has not answered, and when part of the spending is in another currency (it would
  /// need a rate this app does not have).
  var remaining: Decimal? {
    guard let raised, spentOther.isEmpty else { return nil }
    return raised - spent
  }

  /// The report as the public sees it: the same money and purchases, only public receipts.
  var forPublic: FundraiserReport {
    var copy = self
    copy.purchases = purchases.map { purchase in
      var purchase = purchase
      purchase.receipts = purchase.receipts.filter(\.isPublic)
      return purchase
    }
    return copy
  }

  /// Reads the report of `fundraiser`, which belongs to `workspaceID`. `state` is the jar
  /// state when the caller has it already.
  static func load(
    fundraiser: FundraiserRecord, workspaceID: UUID, state: JarState? = nil, on db: any Database
  ) async throws -> FundraiserReport {
    let id = fundraiser.id
    let jar: JarState
    if let state {
      jar = state
    } else {
      jar = try await JarSnapshots.state(for: fundraiser, on: db)
    }
    let currency =
      try await WorkspaceStore(db: db).find(workspaceID)?.currency.uppercased() ?? jarCurrency
    // The expenses' own store: its filter by fundraiser gives the live expenses of this
    // workspace, its exact total and its list order.
    let store = ExpenseStore(db: db, workspaceID: workspaceID)
    let filter = ExpenseFilter(fundraiser: id)
    let total = try await store.totals(filter).total
    let rows = try await store.rows(filter)
    // The bytes stay in the database: a list names receipts, their routes serve them.
    let receipts = try await ExpenseReceipts(db: db, workspaceID: workspaceID)
      .refs(for: rows.map(\.id))
    let purchases = rows.map { row in
      Purchase(
        expenseID: row.id, title: row.expense.title, amount: row.expense.amount,
        spentAt: row.expense.date,
        receipts: (receipts[row.id] ?? []).map {
          Receipt(id: $0.id, isPublic: $0.isPublic, width: $0.width, height: $0.height)
        })
    }
    let inHryvnias = currency == jarCurrency
    return FundraiserReport(
      raised: jar.lastGood?.amount, currency: currency, spent: inHryvnias ? total : 0,
      spentOther: inHryvnias || purchases.isEmpty
        ? [] : [OtherSpending(currency: currency, amount: total)],
      purchases: purchases)
  }

  /// The receipt `id` when the public report of `fundraiser` may show it: public, on a live
  /// expense of the fundraiser, in its workspace. Nil in every other case, alike.
  static func publicReceipt(id: String?, of fundraiser: FundraiserRecord, on db: any Database)
    async throws -> ExpenseReceipt?
  {
    guard let id = id.flatMap(UUID.init(uuidString:)) else { return nil }
    return try await ExpenseReceipts(db: db, workspaceID: fundraiser.workspaceID)
      .publicReceipt(id, ofFundraiser: fundraiser.id)
  }
}

/// How the report writes money and days: the area's Ukrainian way ("15 000 грн."), another
/// currency by its code ("120 USD"), an expense's day as the expense list keeps it (UTC).
enum FundraiserReportFormat {
  static func amount(_ value: Decimal, currency: String) -> String {
    currency == FundraiserReport.jarCurrency
      ? FundraiserFormat.amount(value)
      : Hryvnia.formatNumber(value) + "\u{00A0}" + currency
  }

  /// "14.03.2025".
  static func day(_ date: Date) -> String {
    BackofficeLocale.ukUA.formatDate(date, timeZone: ExpenseStore.timeZone)
  }
}

/// The thank-you poster ("Зібрали! Дякуємо") of a reported fundraiser, drawn by Core's
/// `ReportPosterRenderer` on the fundraiser's template, its QR code opening the public report.
enum FundraiserReportPoster {
  /// Why there is no poster, or nil when there can be one: the report must be on the public
  /// page (the QR code opens it) and counted in hryvnias (the poster says "грн.").
  static func unavailable(_ record: FundraiserRecord, report: FundraiserReport) -> String? {
    guard record.stage == .reported, record.isPublic, record.publicSlug != nil else {
      return L("fundraisers.report_poster.not_published")
    }
    guard report.currency == FundraiserReport.jarCurrency else {
      return L("fundraisers.report_poster.other_currency", ["currency": report.currency])
    }
    return nil
  }

  static func input(_ record: FundraiserRecord, report: FundraiserReport, link: String)
    -> ReportPosterInput
  {
    ReportPosterInput(
      purpose: record.campaign.purpose, raised: report.raised ?? 0, spent: report.spent,
      purchases: report.purchases.map { ReportPurchase(title: $0.title, amount: $0.amount) },
      link: link)
  }

  /// "zvit-07-story.svg", like the campaign posters' names.
  static func filename(template: PosterTemplate, format: PosterFormat, _ ext: String) -> String {
    let number = template.number < 10 ? "0\(template.number)" : "\(template.number)"
    return "zvit-\(number)-\(format.rawValue).\(ext)"
  }

  /// The poster as an SVG answer (a download with `download`), 409 with the reason when the
  /// fundraiser has none. The validator is made from the input, so an unchanged poster is a
  /// 304 without drawing it.
  static func response(_ record: FundraiserRecord, req: Request, download: Bool) async throws
    -> Response
  {
    let report = try await FundraiserReport.load(
      fundraiser: record, workspaceID: record.workspaceID, on: req.db)
    if let reason = unavailable(record, report: report) {
      throw Abort(.conflict, reason: reason)
    }
    let template = record.campaign.template
    let format = FundraiserPosters.format(req)
    let link = req.publicBaseURL + FundraiserPublicPage.path(record.publicSlug ?? "")
    let input = input(record, report: report, link: link)
    let parts =
      [
        "report-poster-v1", String(template.number), format.rawValue, input.purpose,
        "\(input.raised)", "\(input.spent)", input.link,
      ] + input.purchases.map { "\($0.title)\u{1E}\($0.amount)" }
    let etag =
      "\"" + hexString(SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8)).prefix(16))
      + "\""
    if !download, FundraiserPosters.notModified(req, etag: etag) {
      return FundraiserPosters.notModifiedResponse(etag: etag, svg: true)
    }
    let svg = ReportPosterRenderer.render(input, template: template, format: format)
    return FundraiserPosters.svgResponse(
      svg, etag: etag,
      filename: download ? filename(template: template, format: format, "svg") : nil)
  }
}
