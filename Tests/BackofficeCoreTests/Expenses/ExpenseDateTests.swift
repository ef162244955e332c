import Foundation
import Testing

@testable import BackofficeCore

private let utc = TimeZone(secondsFromGMT: 0)!
private let kyivWinter = TimeZone(secondsFromGMT: 2 * 3600)!
private let newYork = TimeZone(secondsFromGMT: -5 * 3600)!

// Seconds since 1970 for 2025-11-22 15:05:00 UTC.
private let afternoon: TimeInterval = 1_763_823_900

private let parseCases: [(String, TimeInterval)] = [
  ("2025-11-22T15:05:00Z", afternoon),
  ("2025-11-22T15:05Z", afternoon),
  ("2025-11-22t15:05z", afternoon),
  ("2025-11-22 15:05:00Z", afternoon),
  ("2025-11-22T17:05:00+02:00", afternoon),
  ("2025-11-22T17:05+0200", afternoon),
  ("2025-11-22T17:05+02", afternoon),
  ("2025-11-22T10:05-05:00", afternoon),
  ("2025-11-22T15:05:00.250Z", afternoon + 0.25),
  ("2025-11-22T17:05", afternoon),  // datetime-local, read in the zone (+02:00)
  ("2025-11-22T17:05:00", afternoon),
  ("  2025-11-22T17:05  ", afternoon),
  ("2025-11-22", afternoon - 17 * 3600 - 5 * 60),  // midnight in the zone
  ("2024-02-29", 1_709_157_600),
  // Offsets past the ±18:00 of time zones, as RFC 3339 allows them.
  ("2025-11-23T10:05:00+19:00", afternoon),
  ("2025-11-23T09:35:00+18:30", afternoon),
  ("2025-11-21T15:06:00-23:59", afternoon),
  ("9999-12-31T23:59:59Z", 253_402_300_799),
]

@Suite("ExpenseDate")
struct ExpenseDateTests {
  @Test(arguments: parseCases)
  func parses(_ text: String, _ expected: TimeInterval) throws {
    let date = try #require(ExpenseDate.parse(text, timeZone: kyivWinter))
    #expect(abs(date.timeIntervalSince1970 - expected) < 0.001)
  }

  @Test(arguments: [
    "", "22.11.2025", "11/22/2025", "2025-11-31", "2025-02-29", "2025-13-01", "2025-00-10",
    "2025-11-22T24:00", "2025-11-22T15:60", "2025-11-22T15", "2025-11-22T15:05:61",
    "2025-11-22T15:05+02:", "2025-11-22T15:05+25:00", "2025-11-22T15:05:00.", "25-11-22",
    "2025-1-2", "2025-11-22T15:05 Z", "0000-01-01", "2025-11-22x", "２０２５-11-22",
    // Instants outside years 1–9999 in UTC.
    "9999-12-31T23:59:59-01:00", "0001-01-01T00:30:00+01:00",
  ])
  func refuses(_ text: String) {
    #expect(ExpenseDate.parse(text, timeZone: utc) == nil)
  }

  /// The first and last instants with a four-digit year read back as they are written.
  @Test func theYearEdgesRoundTrip() throws {
    for text in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
      let date = try #require(ExpenseDate.parse(text, timeZone: kyivWinter))
      #expect(ExpenseDate.iso8601(date) == text)
    }
  }

  @Test func writesISOWithTheZoneOffset() {
    let date = Date(timeIntervalSince1970: afternoon)
    #expect(ExpenseDate.iso8601(date) == "2025-11-22T15:05:00Z")
    #expect(ExpenseDate.iso8601(date, timeZone: kyivWinter) == "2025-11-22T17:05:00+02:00")
    #expect(ExpenseDate.iso8601(date, timeZone: newYork) == "2025-11-22T10:05:00-05:00")
    let india = TimeZone(secondsFromGMT: 5 * 3600 + 1800)!
    #expect(ExpenseDate.iso8601(date, timeZone: india) == "2025-11-22T20:35:00+05:30")
    #expect(ExpenseDate.inputValue(date, timeZone: newYork) == "2025-11-22T10:05")
    for zone in [utc, kyivWinter, newYork, india] {
      #expect(ExpenseDate.parse(ExpenseDate.iso8601(date, timeZone: zone), timeZone: utc) == date)
      #expect(
        ExpenseDate.parse(ExpenseDate.inputValue(date, timeZone: zone), timeZone: zone) == date)
    }
  }
}

@Suite("ExpenseMonth")
struct ExpenseMonthTests {
  @Test func readsAndWritesMonthFieldValues() throws {
    let month = try #require(ExpenseMonth("2025-11"))
    #expect(month.year == 2025 && month.month == 11)
    #expect(month.description == "2025-11")
    #expect(month.next?.description == "2025-12")
    #expect(month.next?.next?.description == "2026-01")
    #expect(ExpenseMonth("2025-01")?.previous?.description == "2024-12")
    #expect(ExpenseMonth(year: 1, month: 1)?.previous == nil)
    for bad in ["", "2025-13", "2025-00", "2025-1", "25-11", "2025/11", "2025-11-01", "abcd-ef"] {
      #expect(ExpenseMonth(bad) == nil, "\(bad)")
    }
    #expect(ExpenseMonth(year: 2025, month: 1)! < ExpenseMonth(year: 2025, month: 2)!)
    #expect(ExpenseMonth(year: 2024, month: 12)! < ExpenseMonth(year: 2025, month: 1)!)
    #expect(month.title(locale: .ukUA) == "листопад 2025")
  }

  @Test func rangeCoversTheMonthInTheZone() throws {
    let november = try #require(ExpenseMonth("2025-11"))
    let range = november.range(in: kyivWinter)
    // 2025-11-01 00:00 +02:00 (Kyiv is still on +02 after the October change) …
    #expect(range.lowerBound == Date(timeIntervalSince1970: 1_761_948_000))
    // … to 2025-12-01 00:00 +02:00.
    #expect(range.upperBound == Date(timeIntervalSince1970: 1_764_540_000))
    let lastMinute = Date(timeIntervalSince1970: 1_764_540_000 - 60)
    #expect(range.contains(lastMinute))
    #expect(ExpenseMonth(containing: lastMinute, timeZone: kyivWinter) == november)
    #expect(ExpenseMonth(containing: lastMinute, timeZone: utc).description == "2025-11")
    let firstOfDecemberKyiv = Date(timeIntervalSince1970: 1_764_540_000)
    #expect(!range.contains(firstOfDecemberKyiv))
    #expect(ExpenseMonth(containing: firstOfDecemberKyiv, timeZone: utc).description == "2025-11")
  }
}
