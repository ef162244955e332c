import Foundation
import Testing

@testable import BackofficeCore

private func dec(_ text: String) -> Decimal {
  Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

@Suite("Fundraiser progress", .ukrainian)
struct FundraiserProgressTests {
  @Test(
    "goal choice, percent and bar",
    arguments: [
      // collected, target, jar goal, percent, fraction
      ("0", "15000", nil, 0 as Int?, 0.0 as Double?),
      ("7500", "15000", nil, 50, 0.5),
      ("7500", "15000", "30000", 50, 0.5),  // the typed target wins
      ("7500", nil, "30000", 25, 0.25),  // else the jar's own goal
      ("7500", "0", "30000", 25, 0.25),  // a zero target counts as none
      ("7500", "-5", "10000", 75, 0.75),
      ("7500", nil, nil, nil, nil),
      ("7500", nil, "0", nil, nil),
      ("7500", "0", "0", nil, nil),
      ("14999.99", "15000", nil, 99, 0.999999),  // never rounds up to 100%
      ("15000", "15000", nil, 100, 1.0),
      ("20100", "15000", nil, 134, 1.0),  // percent is not capped, the bar is
      ("1", "3", nil, 33, 0.333333),
      ("0.01", "1000000", nil, 0, 0.0),
      ("-50", "100", nil, 0, 0.0),
    ] as [(String, String?, String?, Int?, Double?)])
  func progress(
    collected: String, target: String?, jarGoal: String?, percent: Int?, fraction: Double?
  ) {
    let c = dec(collected)
    let t = target.map(dec)
    let g = jarGoal.map(dec)
    #expect(FundraiserProgress.percent(collected: c, target: t, jarGoal: g) == percent)
    #expect(FundraiserProgress.fraction(collected: c, target: t, jarGoal: g) == fraction)
  }

  @Test func basisAndLabel() throws {
    let fromTarget = try #require(FundraiserProgress(collected: 500, target: 1000, jarGoal: 2000))
    #expect(fromTarget.basis == .target)
    #expect(fromTarget.goal == 1000)
    #expect(fromTarget.label == "Прогрес 50%")
    #expect(!fromTarget.isReached)

    let fromJar = try #require(FundraiserProgress(collected: 2000, target: nil, jarGoal: 2000))
    #expect(fromJar.basis == .jarGoal)
    #expect(fromJar.isReached)
    #expect(fromJar.label == "Прогрес 100%")
  }

  @Test func snapshotFeedsProgress() throws {
    let snapshot = try JarResponse.decode(
      Data(#"{"jarAmount": 1500050, "jarGoal": 3000000, "jarStatus": "ACTIVE"}"#.utf8)
    ).get()
    let progress = FundraiserProgress(
      collected: snapshot.amount, target: nil, jarGoal: snapshot.goal)
    #expect(progress?.percent == 50)
    #expect(Hryvnia.format(snapshot.amount) == "15\u{00A0}000,50\u{00A0}грн")
  }

  @Test func hugeRatioDoesNotTrap() {
    let percent = FundraiserProgress.percent(
      collected: dec("1e30"), target: dec("0.01"), jarGoal: nil)
    #expect(percent == Int.max)
  }
}
