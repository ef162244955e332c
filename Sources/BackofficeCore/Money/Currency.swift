import Foundation

/// An ISO 4217 currency that people pay with: its code, how many minor-unit digits it has
/// and, for the common ones, a symbol.
///
/// The built-in list holds the active circulating codes; fund codes (`BOV`, `CLF`, `USN`, …),
/// precious metals and testing codes (`XAU`, `XTS`, `XXX`, …) are left out because nobody
/// records an expense in them.
public struct Currency: Hashable, Sendable, Codable {
  /// Upper-case three-letter code, e.g. "EUR".
  public let code: String
  /// Digits after the decimal separator: JPY 0, EUR 2, KWD 3.
  public let minorUnits: Int
  /// A short sign such as "$" or "₴", or nil when the code itself is written.
  public let symbol: String?

  public init(code: String, minorUnits: Int, symbol: String? = nil) {
    self.code = code
    self.minorUnits = minorUnits
    self.symbol = symbol
  }

  /// The currency for `code` (case and surrounding spaces ignored), or nil if it is not an
  /// active ISO 4217 code.
  public static func lookup(_ code: String) -> Currency? {
    // Codes are stored as they are looked up: the common case needs no trimming.
    if let found = byCode[code] { return found }
    let key = code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
    guard key.utf8.count == 3 else { return nil }
    return byCode[key]
  }

  /// True when `code` is an active ISO 4217 code (case-insensitive).
  public static func isValid(_ code: String) -> Bool { lookup(code) != nil }

  /// Minor-unit digits for `code`; 2 for unknown codes, like most currencies.
  public static func minorUnits(for code: String) -> Int { lookup(code)?.minorUnits ?? 2 }

  /// Every supported currency, sorted by code (for a settings picker).
  public static let all: [Currency] = {
    let zero: Set<String> = [
      "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND",
      "VUV", "XAF", "XOF", "XPF",
    ]
    let three: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
    return activeCodes.split(separator: " ").map { raw in
      let code = String(raw)
      let units = zero.contains(code) ? 0 : (three.contains(code) ? 3 : 2)
      return Currency(code: code, minorUnits: units, symbol: symbols[code])
    }
  }()

  private static let byCode: [String: Currency] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.code, $0) })

  // Active circulating ISO 4217 codes as of 2025, alphabetical.
  private static let activeCodes = """
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN \
    BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD \
    FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY \
    KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP \
    MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR \
    RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT \
    TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER \
    ZAR ZMW ZWG
    """

  // Symbols that are unambiguous on their own. Dollars other than USD carry a prefix so a
  // reader never confuses them; currencies without an entry are written with their code.
  private static let symbols: [String: String] = [
    "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "UAH": "₴", "PLN": "zł", "INR": "₹",
    "KRW": "₩", "CNY": "CN¥", "ILS": "₪", "VND": "₫", "NGN": "₦", "PHP": "₱", "TRY": "₺",
    "KZT": "₸", "GEL": "₾", "THB": "฿", "CAD": "CA$", "AUD": "A$", "NZD": "NZ$", "HKD": "HK$",
    "MXN": "MX$", "BRL": "R$", "TWD": "NT$", "CZK": "Kč", "HUF": "Ft", "RUB": "₽",
  ]
}
