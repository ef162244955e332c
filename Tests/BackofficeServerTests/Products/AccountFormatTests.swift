import BackofficeCore
import Testing

@testable import BackofficeServer

@Suite("Products: account formats")
struct AccountFormatTests {
  private func written(_ writer: AmountWriter, _ minor: Int64) -> [UInt8] {
    var out: [UInt8] = []
    writer.currency(MinorUnits(minor), into: &out)
    writer.percent(MinorUnits(minor), into: &out)
    return out
  }

  /// A format is worked out once and kept; the kept one writes exactly what one worked out
  /// afresh writes, in every locale.
  @Test func aKeptFormatWritesWhatAFreshOneWrites() {
    let kept = AccountFormat.KeptFormats(atMost: 1_000)
    for locale in BackofficeLocale.supported {
      for currency in ["USD", "EUR", "UAH", "JPY", "KWD", "CHF", "XYZ"] {
        #expect(!kept.keeps(locale: locale, currency: currency))
        _ = kept.format(locale: locale, currency: currency)
        #expect(kept.keeps(locale: locale, currency: currency))
        let again = kept.format(locale: locale, currency: currency)
        let fresh = AccountFormat(working: locale, currency: currency)
        for minor: Int64 in [0, 5, -1_234_567, 169_492, Int64.max] {
          #expect(written(again.amounts, minor) == written(fresh.amounts, minor))
          #expect(written(again.jsonAmounts, minor) == written(fresh.jsonAmounts, minor))
        }
        #expect(again.locale == locale && again.currency == currency)
      }
    }
    #expect(kept.count == BackofficeLocale.supported.count * 7)
  }

  /// Past its bound nothing more is kept, and a format is still worked out right.
  @Test func theKeptFormatsAreBounded() {
    let kept = AccountFormat.KeptFormats(atMost: 8)
    for index in 0..<20 {
      let code = "Q\(index)"
      let format = kept.format(locale: .deDE, currency: code)
      #expect(kept.keeps(locale: .deDE, currency: code) == (index < 8))
      #expect(
        written(format.amounts, 123_456)
          == written(AmountWriter(currency: code, locale: .deDE), 123_456))
    }
    #expect(kept.count == 8)
  }
}
