import Foundation
import Testing

@testable import BackofficeServer

@Suite("Progress chart", .ukrainian)
struct FundraiserChartTests {
  static let start = Date(timeIntervalSince1970: 1_790_000_000)

  @Test func aLongHistoryIsThinnedButKeepsItsEnds() {
    let points = (0..<2_000).map {
      FundraiserChart.Point(at: Self.start + Double($0) * 900, amount: Decimal($0))
    }
    let thinned = FundraiserChart.thinned(points)
    #expect(thinned.count <= FundraiserChart.maxPoints)
    #expect(thinned.count > FundraiserChart.maxPoints / 2)
    #expect(thinned.last == points.last)
    #expect(thinned == thinned.sorted { $0.at < $1.at })
    let short = Array(points.prefix(10))
    #expect(FundraiserChart.thinned(short) == short)
  }

  @Test func drawsALineTheGoalAndAnAccessibleSummary() {
    let chart = FundraiserChart(
      points: [
        .init(at: Self.start, amount: 1_000), .init(at: Self.start + 3_600, amount: 2_500.5),
      ], goal: 10_000)
    let svg = chart.render().render()
    #expect(svg.hasPrefix(#"<svg class="fr-chart""#))
    #expect(svg.contains(#"role="img""#))
    #expect(svg.contains("<polyline class=\"fr-chart-line\""))
    #expect(svg.contains("<line class=\"fr-chart-goal\""))
    #expect(svg.contains("Ціль: 10\u{00A0}000\u{00A0}грн."))
    #expect(svg.contains("до 2\u{00A0}500,50\u{00A0}грн."))
    #expect(!svg.contains("style"))
    #expect(FundraiserChart(points: [], goal: nil).render().render().isEmpty)
    // One point is a dot, not a line.
    let single = FundraiserChart(points: [.init(at: Self.start, amount: 5)], goal: nil).render()
      .render()
    #expect(single.contains("fr-chart-dot") && !single.contains("polyline"))
  }
}
