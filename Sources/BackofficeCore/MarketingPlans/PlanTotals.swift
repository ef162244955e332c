import Foundation

/// The monthly cost of a plan: one exact sum per currency (amounts in different currencies are
/// never converted or added together), plus the package and channel counts.
public struct PlanTotals: Hashable, Sendable {
  /// One sum per currency, ordered by currency code.
  public var sums: [Money]
  public var packageCount: Int
  public var channelCount: Int

  public init(_ packages: [ChosenPackage]) {
    var byCurrency: [String: Decimal] = [:]
    for chosen in packages {
      byCurrency[chosen.package.currency, default: 0] += chosen.package.price
    }
    // Alphabetical by code, so the same plan shows the same total wherever it is listed,
    // whatever order its packages are shown in.
    sums = byCurrency.sorted { $0.key < $1.key }.map {
      Money(amount: $0.value, currency: $0.key)
    }
    packageCount = packages.count
    channelCount = Set(packages.map(\.channel.id)).count
  }

  /// "590,00 € + 25,00 $" in the given locale; "0.00" (in that locale's form) with no packages.
  public func formatted(locale: BackofficeLocale) -> String {
    guard !sums.isEmpty else { return MoneyFormat.number(0, fractionDigits: 2, locale: locale) }
    return sums.map { MoneyFormat.currency($0.amount, currency: $0.currency, locale: locale) }
      .joined(separator: " + ")
  }

  /// "3 package(s) selected from 3 channel(s)", the original app's wording.
  public var countsText: String {
    L(
      "marketing.totals.counts",
      [
        "packages": L("marketing.totals.packages", count: packageCount),
        "channels": L("marketing.totals.from_channels", count: channelCount),
      ])
  }
}
