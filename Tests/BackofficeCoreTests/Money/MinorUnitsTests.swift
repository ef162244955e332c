import Foundation
import Testing

@testable import BackofficeCore

private func dec(_ text: String) -> Decimal {
  Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}

@Suite("Minor units")
struct MinorUnitsTests {
  @Test(
    "to units, exactly",
    arguments: [
      (Int64(0), "0"), (1, "0.01"), (1205, "12.05"), (1_500_050, "15000.5"), (-250, "-2.5"),
      (Int64.max, "92233720368547758.07"), (Int64.min, "-92233720368547758.08"),
    ])
  func toUnits(minor: Int64, expected: String) {
    #expect(MinorUnits(minor).decimal == dec(expected))
  }

  @Test func exactlyRefusesWhatItCannotHold() {
    #expect(MinorUnits(exactly: dec("12.5"))?.value == 1250)
    #expect(MinorUnits(exactly: dec("0.01"))?.value == 1)
    #expect(MinorUnits(exactly: dec("-2.5"))?.value == -250)
    #expect(MinorUnits(exactly: dec("0.001")) == nil)
    #expect(MinorUnits(exactly: dec("92233720368547758.08")) == nil)
    #expect(MinorUnits(exactly: .nan) == nil)
  }

  @Test func roundingGoesHalfAwayFromZero() {
    #expect(MinorUnits(rounding: dec("15000.5"))?.value == 1_500_050)
    #expect(MinorUnits(rounding: dec("0.005"))?.value == 1)
    #expect(MinorUnits(rounding: dec("0.004"))?.value == 0)
    #expect(MinorUnits(rounding: dec("-0.005"))?.value == -1)
    #expect(MinorUnits(rounding: .nan) == nil)
    #expect(MinorUnits(rounding: dec("1e30")) == nil)
  }

  /// Database sums of hundredths may pass 64 bits; read back exactly.
  @Test func digitsFromADatabaseSum() {
    #expect(MinorUnits.decimal(digits: "123456789012345678") == dec("1234567890123456.78"))
    #expect(MinorUnits.decimal(digits: "9999999999999999999999") == dec("99999999999999999999.99"))
    #expect(MinorUnits.decimal(digits: "-5") == dec("-0.05"))
    #expect(MinorUnits.decimal(digits: "0") == 0)
    for bad in ["", "-", "12.5", "1e5", " 1", "+1", "１"] {
      #expect(MinorUnits.decimal(digits: bad) == nil, "\(bad)")
    }
  }
}
