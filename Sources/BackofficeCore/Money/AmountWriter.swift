import Foundation

/// Stored amounts (hundredths) written as UTF-8 bytes in one locale and currency, with the
/// locale's separators and the currency's sign worked out once: a listing writes a price and a
/// tax rate for every row. `MoneyFormat.currency(_: MinorUnits, …)`, `MoneyFormat.number(_:
/// MinorUnits, …)`, `MoneyFormat.decimalString(_: MinorUnits)` and `ProductFormat.percent(_:
/// MinorUnits, …)` are these bytes as a string; `MinorUnitsFormatTests` holds them to the
/// `Decimal` path's text in every locale and currency.
public struct AmountWriter: Sendable {
  public let locale: BackofficeLocale
  /// The currency's decimals (JPY 0, KWD 3, unknown codes 2).
  let places: Int
  let grouping: [UInt8]
  let decimal: [UInt8]
  /// Before the sign ("€ " in `prefixWithSpace`).
  let head: [UInt8]
  /// Between the sign and the digits ("$" in `prefix`).
  let lead: [UInt8]
  /// After the digits (" €", " CHF", " zł").
  let tail: [UInt8]
  /// After a percentage's digits: "%", " %" (de, es) or a narrow no-break space and "%" (fr).
  let percentSign: [UInt8]

  public init(currency code: String, locale: BackofficeLocale) {
    self.locale = locale
    let known = Currency.lookup(code)
    // Every known currency has 0 to 4 decimals; the clamp keeps the arithmetic in range.
    places = min(max(known?.minorUnits ?? 2, 0), 9)
    grouping = Array(locale.groupingSeparator.utf8)
    decimal = Array(locale.decimalSeparator.utf8)
    let label = Array(
      (known?.symbol ?? code.trimmingCharacters(in: .whitespaces).uppercased()).utf8)
    let space = Array("\u{00A0}".utf8)
    let isWord = known?.symbol.map { $0.allSatisfy(\.isLetter) } ?? true
    switch isWord ? .suffixWithSpace : locale.currencyPlacement {
    case .prefix: (head, lead, tail) = ([], label, [])
    case .prefixWithSpace: (head, lead, tail) = (label + space, [], [])
    case .suffixWithSpace: (head, lead, tail) = ([], [], space + label)
    }
    percentSign = Array((Self.percentSeparator(locale) + "%").utf8)
  }

  private init(_ other: AmountWriter, pieces transform: ([UInt8]) -> [UInt8]) {
    locale = other.locale
    places = other.places
    grouping = transform(other.grouping)
    decimal = transform(other.decimal)
    head = transform(other.head)
    lead = transform(other.lead)
    tail = transform(other.tail)
    percentSign = transform(other.percentSign)
  }

  /// The same writer with its separators and signs passed through `transform` (a JSON
  /// string's escaping): digits and the minus sign never need it.
  public func mappingPieces(_ transform: ([UInt8]) -> [UInt8]) -> AmountWriter {
    AmountWriter(self, pieces: transform)
  }

  /// "$1,694.92", "1 694,92 ₴", "-€ 12,50" — `MoneyFormat.currency`.
  public func currency(_ amount: MinorUnits, into out: inout [UInt8]) {
    // `places` is at most 9, which `StoredDigits` always takes.
    guard let stored = StoredDigits(amount.value, places: places) else { return }
    out.append(contentsOf: head)
    if stored.negative { out.append(UInt8(ascii: "-")) }
    out.append(contentsOf: lead)
    grouped(stored, into: &out)
    out.append(contentsOf: tail)
  }

  /// A tax rate with as many decimals as it has: "18%", "12,5 %" — `ProductFormat.percent`.
  public func percent(_ value: MinorUnits, into out: inout [UInt8]) {
    number(value, fractionDigits: MoneyFormat.fractionDigitCount(value), into: &out)
    out.append(contentsOf: percentSign)
  }

  /// `amount` with exactly `fractionDigits` decimals (0 to 9) and the locale's grouping.
  public func number(_ amount: MinorUnits, fractionDigits: Int, into out: inout [UInt8]) {
    guard let stored = StoredDigits(amount.value, places: fractionDigits) else { return }
    if stored.negative { out.append(UInt8(ascii: "-")) }
    grouped(stored, into: &out)
  }

  /// The API/CSV form: "12.50", "-0.10" — `MoneyFormat.decimalString`.
  public static func decimal(_ amount: MinorUnits, into out: inout [UInt8]) {
    let magnitude = amount.value.magnitude
    if amount.value < 0 { out.append(UInt8(ascii: "-")) }
    digits(magnitude / 100, into: &out)
    out.append(UInt8(ascii: "."))
    out.append(UInt8(48 + magnitude % 100 / 10))
    out.append(UInt8(48 + magnitude % 10))
  }

  /// A whole number as JSON and CSV write it: "-12", "1005".
  public static func integer(_ value: Int, into out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    digits(UInt64(value.magnitude), into: &out)
  }

  /// A whole number's digits, most significant first.
  static func digits(_ value: UInt64, into out: inout [UInt8]) {
    var divisor: UInt64 = 1
    while divisor <= value / 10 { divisor *= 10 }
    var remaining = value
    while divisor > 0 {
      out.append(UInt8(48 + remaining / divisor))
      remaining %= divisor
      divisor /= 10
    }
  }

  private func grouped(_ amount: StoredDigits, into out: inout [UInt8]) {
    Self.grouped(
      amount, grouping: grouping, decimal: decimal,
      minimumGroupingDigits: locale.minimumGroupingDigits, into: &out)
  }

  /// The digits of `amount` with a locale's grouping and decimal separator.
  static func grouped(
    _ amount: StoredDigits, grouping: [UInt8], decimal: [UInt8], minimumGroupingDigits: Int,
    into out: inout [UInt8]
  ) {
    var count = 1
    var divisor: UInt64 = 1
    while divisor <= amount.whole / 10 {
      divisor *= 10
      count += 1
    }
    let groups = count >= 3 + minimumGroupingDigits
    var remaining = amount.whole
    for index in 0..<count {
      if groups && index > 0 && (count - index) % 3 == 0 { out.append(contentsOf: grouping) }
      out.append(UInt8(48 + remaining / divisor))
      remaining %= divisor
      divisor /= 10
    }
    if amount.places > 0 {
      out.append(contentsOf: decimal)
      var place = StoredDigits.power(amount.places - 1)
      var fraction = amount.fraction
      for _ in 0..<amount.places {
        out.append(UInt8(48 + fraction / place))
        fraction %= place
        place /= 10
      }
    }
  }

  /// CLDR's percent patterns: German and Spanish put a no-break space before the sign, French a
  /// narrow no-break space; the other supported languages write it right after the number.
  static func percentSeparator(_ locale: BackofficeLocale) -> String {
    let language = locale.identifier.utf8.prefix { $0 != UInt8(ascii: "-") }
    if language.elementsEqual("de".utf8) || language.elementsEqual("es".utf8) {
      return "\u{00A0}"
    }
    if language.elementsEqual("fr".utf8) { return "\u{202F}" }
    return ""
  }

  /// The bytes `write` appends, as a string.
  public static func text(_ write: (inout [UInt8]) -> Void) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(32)
    write(&out)
    return String(decoding: out, as: UTF8.self)
  }
}
