import BackofficeCore
import Foundation

/// How this area writes amounts and times: the Ukrainian way (Kyiv time, "15 000", dd.MM.yyyy),
/// whatever the account's locale or interface language; only the currency's word follows the
/// interface language ("грн." in Ukrainian, "UAH" in English).
enum FundraiserFormat {
  /// Kyiv time: the volunteers this area is for, and the time their donors see on Monobank.
  static let timeZone =
    TimeZone(identifier: "Europe/Kyiv") ?? TimeZone(identifier: "Europe/Kiev")
    ?? TimeZone(identifier: "UTC") ?? .current

  /// "15 000 грн." (no-break spaces), as on the original app's cards; "15 000 UAH" in English.
  static func amount(_ value: Decimal) -> String {
    L("fundraisers.amount", ["amount": Hryvnia.formatNumber(value)])
  }

  /// "14.03.2025, 10:15".
  static func dateTime(_ date: Date) -> String {
    BackofficeLocale.ukUA.formatDateTime(date, timeZone: timeZone)
  }

  /// "14.03".
  static func shortDate(_ date: Date) -> String {
    String(BackofficeLocale.ukUA.formatDate(date, timeZone: timeZone).prefix(5))
  }

  /// `<time datetime="…">14.03.2025, 10:15</time>`.
  static func time(_ date: Date, _ attributes: [Attr] = []) -> HTMLNode {
    H.time([.datetime(iso(date))] + attributes, [H.text(dateTime(date))])
  }

  /// `text` with its `{time}` mark replaced by the `<time>` element of `date`: "Data from
  /// <time …>14.03.2025, 10:15</time>".
  static func withTime(_ text: String, _ date: Date) -> HTMLNode {
    var nodes: [HTMLNode] = []
    for (index, part) in text.components(separatedBy: "{time}").enumerated() {
      if index > 0 { nodes.append(time(date)) }
      if !part.isEmpty { nodes.append(H.text(part)) }
    }
    return H.group(nodes)
  }

  /// The machine-readable instant of `time`, in UTC: "2025-03-14T08:15:00Z".
  private static func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: date)
  }

  /// The API's money: a plain decimal string with two places, "15000.50". Written from the
  /// decimal digits, so a sum beyond what 64-bit kopiykas hold is exact too (it used to read
  /// "0.00").
  static func apiAmount(_ value: Decimal) -> String {
    MoneyFormat.decimalString(value, fractionDigits: 2)
  }

  static func apiAmount(kopiykas: Int64) -> String {
    apiAmount(MinorUnits(kopiykas).decimal)
  }
}

/// A small line chart of the collected amount over time, drawn as inline SVG (no styles, no
/// scripts: colours come from the stylesheet through classes).
struct FundraiserChart {
  struct Point: Sendable, Equatable {
    var at: Date
    var amount: Decimal
  }

  var points: [Point]
  /// Drawn as a dashed line when known.
  var goal: Decimal?

  static let width = 480.0
  static let height = 200.0
  static let maxPoints = 200
  private static let left = 12.0
  private static let right = 12.0
  private static let top = 30.0
  private static let bottom = 30.0

  /// Keeps the last point of each of `maxPoints` equal time buckets, so a long history stays a
  /// light drawing with the same shape.
  static func thinned(_ points: [Point]) -> [Point] {
    guard points.count > maxPoints, let first = points.first, let last = points.last else {
      return points
    }
    let span = max(last.at.timeIntervalSince(first.at), 1)
    var buckets: [Int: Point] = [:]
    for point in points {
      let index = min(
        maxPoints - 1, Int(point.at.timeIntervalSince(first.at) / span * Double(maxPoints)))
      buckets[index] = point
    }
    return buckets.keys.sorted().compactMap { buckets[$0] }
  }

  /// The chart as an `<svg>`; nothing when there are no points.
  func render() -> HTMLNode {
    let points = Self.thinned(points)
    guard let first = points.first, let last = points.last else { return H.empty }
    let values = points.map { NSDecimalNumber(decimal: $0.amount).doubleValue }
    let goalValue = goal.map { NSDecimalNumber(decimal: $0).doubleValue }
    let top = max(values.max() ?? 0, goalValue ?? 0, 1)
    let span = last.at.timeIntervalSince(first.at)
    let plotWidth = Self.width - Self.left - Self.right
    let plotHeight = Self.height - Self.top - Self.bottom
    func x(_ date: Date) -> Double {
      span > 0 ? Self.left + date.timeIntervalSince(first.at) / span * plotWidth : Self.width / 2
    }
    func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - value / top) }
    func n(_ value: Double) -> String { String(format: "%.1f", value) }
    func label(x: Double, y: Double, end: Bool = false, _ text: String) -> HTMLNode {
      H.svgText(
        [.class("fr-chart-label"), .x(n(x)), .y(n(y))] + (end ? [.textAnchor("end")] : []),
        [H.text(text)])
    }

    let summary = L(
      "fundraisers.chart.summary",
      [
        "from": FundraiserFormat.dateTime(first.at), "to": FundraiserFormat.dateTime(last.at),
        "first": FundraiserFormat.amount(first.amount),
        "last": FundraiserFormat.amount(last.amount),
      ])
    var children: [HTMLNode] = [H.title([], [H.text(summary)])]
    let baseline = y(0)
    children.append(
      H.line([
        .class("fr-chart-axis"), .x1(n(Self.left)), .y1(n(baseline)),
        .x2(n(Self.width - Self.right)), .y2(n(baseline)),
      ]))
    if let goalValue, goalValue > 0 {
      children.append(
        H.line([
          .class("fr-chart-goal"), .x1(n(Self.left)), .y1(n(y(goalValue))),
          .x2(n(Self.width - Self.right)), .y2(n(y(goalValue))),
        ]))
      children.append(
        label(
          x: Self.width - Self.right, y: max(16, y(goalValue) - 6), end: true,
          L("fundraisers.goal", ["amount": FundraiserFormat.amount(goal ?? 0)])))
    }
    let coordinates = zip(points, values).map { point, value in
      "\(n(x(point.at))),\(n(y(value)))"
    }
    if points.count > 1 {
      let area =
        "\(n(x(first.at))),\(n(baseline)) " + coordinates.joined(separator: " ")
        + " \(n(x(last.at))),\(n(baseline))"
      children.append(H.polygon([.class("fr-chart-area"), .points(area)]))
      children.append(
        H.polyline([.class("fr-chart-line"), .points(coordinates.joined(separator: " "))]))
    }
    if points.count <= 60 {
      for (point, value) in zip(points, values) {
        let tip = FundraiserFormat.dateTime(point.at) + ": " + FundraiserFormat.amount(point.amount)
        children.append(
          H.circle(
            [.class("fr-chart-dot"), .cx(n(x(point.at))), .cy(n(y(value))), .r("4")],
            [H.title([], [H.text(tip)])]))
      }
    }
    children.append(label(x: Self.left, y: 20, FundraiserFormat.amount(last.amount)))
    children.append(
      label(x: Self.left, y: Self.height - 8, FundraiserFormat.shortDate(first.at)))
    children.append(
      label(
        x: Self.width - Self.right, y: Self.height - 8, end: true,
        FundraiserFormat.shortDate(last.at)))
    return H.svg(
      [
        .class("fr-chart"), .viewBox("0 0 \(n(Self.width)) \(n(Self.height))"), .role("img"),
        .aria(.label, summary),
      ], children)
  }
}
