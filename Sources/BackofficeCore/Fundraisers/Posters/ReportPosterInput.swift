import Foundation

/// One thing the fundraiser's money bought, as the report poster lists it.
public struct ReportPurchase: Hashable, Sendable {
  /// What was bought, as the volunteer wrote it; the poster shortens a long one.
  public var title: String
  /// The price in hryvnias.
  public var amount: Decimal

  public init(title: String, amount: Decimal) {
    self.title = title
    self.amount = amount
  }
}

/// What the thank-you poster at the end of a fundraiser shows: "Зібрали! Дякуємо", the
/// purpose, the money raised and spent, the largest purchases and a QR code of the report.
public struct ReportPosterInput: Hashable, Sendable {
  /// The line beside the QR code when `callToAction` is blank.
  public static let defaultCallToAction = "Звіт і чеки"

  /// What the money was for; shortened with "…" when it is too long, left out when blank.
  public var purpose: String
  /// Hryvnias collected.
  public var raised: Decimal
  /// Hryvnias spent.
  public var spent: Decimal
  /// Everything bought; the poster lists the largest few (`ReportPosterRenderer.shownPurchases`)
  /// and counts the rest.
  public var purchases: [ReportPurchase]
  /// The public report page the QR code opens. No QR card when blank or too long to encode.
  public var link: String
  /// The line beside the QR code; `defaultCallToAction` when blank.
  public var callToAction: String

  public init(
    purpose: String, raised: Decimal, spent: Decimal, purchases: [ReportPurchase], link: String,
    callToAction: String = ""
  ) {
    self.purpose = purpose
    self.raised = raised
    self.spent = spent
    self.purchases = purchases
    self.link = link
    self.callToAction = callToAction
  }

  /// The QR card's content, or `nil` when there is no link.
  var share: PosterShare? {
    guard link.contains(where: { !$0.isWhitespace }) else { return nil }
    let call = callToAction.trimmingCharacters(in: .whitespacesAndNewlines)
    return PosterShare(link: link, callToAction: call.isEmpty ? Self.defaultCallToAction : call)
  }
}
