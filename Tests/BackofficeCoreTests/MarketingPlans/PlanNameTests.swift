import Foundation
import Testing

@testable import BackofficeCore

@Suite("Plan names")
struct PlanNameTests {
  @Test func normalizeTrimsAndCollapsesWhitespace() {
    #expect(PlanName.normalize("  Spring \n\t push  ") == "Spring push")
    #expect(PlanName.normalize("   ") == "")
  }

  @Test func emptyAndTooLongNamesAreRefused() {
    #expect(PlanName.problem(with: "") == "Give the plan a name.")
    #expect(PlanName.problem(with: String(repeating: "a", count: 100)) == nil)
    #expect(
      PlanName.problem(with: String(repeating: "a", count: 101))
        == "Use at most 100 characters.")
    #expect(PlanName.problem(with: "Spring push") == nil)
  }

  @Test func defaultAndCopyNames() {
    let date = Date(timeIntervalSince1970: 1_763_820_000)  // 22 Nov 2025
    let utc = TimeZone(identifier: "UTC")!
    #expect(PlanName.defaultName(on: date, locale: .enUS, timeZone: utc) == "Plan of 11/22/2025")
    #expect(PlanName.defaultName(on: date, locale: .ukUA, timeZone: utc) == "Plan of 22.11.2025")
    #expect(PlanName.copyName(of: "Spring") == "Copy of Spring")
    #expect(PlanName.copyName(of: String(repeating: "x", count: 100)).count == 100)
  }
}
