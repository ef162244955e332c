import Foundation

/// Turns `Decimal` amounts into text for people (locale-aware) and for machines (plain
/// `"12.50"`), rounding half up (a trailing 5 goes away from zero).
///
/// Negative amounts carry an ASCII hyphen-minus ("-12,50 €", "-$12.50") so the text can be
/// copied into a spreadsheet; an amount that rounds to zero never shows a sign.
public enum MoneyFormat {
  /// `amount` in `currency` for `locale`: "$1,234.56", "1.234,56 €", "1 234,56 ₴", "¥1,235".
  ///
  /// Uses the currency's minor units (JPY 0, KWD 3, unknown codes 2). A currency without a
  /// short sign, or whose sign is a word such as "zł", is written after the number:
  /// "1,234.56 CHF", "1,234.56 zł".
  public static func currency(_ amount: Decimal, currency code: String, locale: BackofficeLocale)
    -> String
  {
    guard let digits = DecimalDigits(amount) else { return "\(amount)" }
    return currency(digits, currency: code, locale: locale)
  }

  /// The same for a stored amount, straight from its integer (no `Decimal` on the way).
  public static func currency(
    _ amount: MinorUnits, currency code: String, locale: BackofficeLocale
  ) -> String {
    let writer = AmountWriter(currency: code, locale: locale)
    return AmountWriter.text { writer.currency(amount, into: &$0) }
  }

  /// `amount` with exactly `fractionDigits` decimals and the locale's grouping, from its integer.
  public static func number(_ amount: MinorUnits, fractionDigits: Int, locale: BackofficeLocale)
    -> String
  {
    guard let stored = StoredDigits(amount.value, places: max(0, fractionDigits)) else {
      return number(
        DecimalDigits(minor: amount.value), fractionDigits: fractionDigits, locale: locale)
    }
    return (stored.negative ? "-" : "") + grouped(stored, locale: locale)
  }

  /// The API/CSV form of a stored amount: "12.50", "-0.10".
  public static func decimalString(_ amount: MinorUnits) -> String {
    AmountWriter.text { AmountWriter.decimal(amount, into: &$0) }
  }

  /// Decimals a stored amount has once trailing zeros go: 0, 1 or 2.
  public static func fractionDigitCount(_ amount: MinorUnits) -> Int {
    let magnitude = amount.value.magnitude
    return magnitude % 100 == 0 ? 0 : magnitude % 10 == 0 ? 1 : 2
  }

  private static func currency(
    _ amount: DecimalDigits, currency code: String, locale: BackofficeLocale
  ) -> String {
    let known = Currency.lookup(code)
    let digits = known?.minorUnits ?? 2
    let parts = amount.rounded(to: digits)
    return placed(
      grouped(parts, fractionDigits: digits, locale: locale), negative: parts.negative,
      currency: code, known: known, locale: locale)
  }

  /// `body` (the grouped digits) with its sign and the currency's sign or code in `locale`'s
  /// place for it.
  private static func placed(
    _ body: String, negative: Bool, currency code: String, known: Currency?,
    locale: BackofficeLocale
  ) -> String {
    let label = known?.symbol ?? code.trimmingCharacters(in: .whitespaces).uppercased()
    let sign = negative ? "-" : ""
    let space = "\u{00A0}"
    let isWord = known?.symbol.map { $0.allSatisfy(\.isLetter) } ?? true
    if isWord { return "\(sign)\(body)\(space)\(label)" }
    switch locale.currencyPlacement {
    case .prefix: return "\(sign)\(label)\(body)"
    case .prefixWithSpace: return "\(label)\(space)\(sign)\(body)"
    case .suffixWithSpace: return "\(sign)\(body)\(space)\(label)"
    }
  }

  /// `amount` with exactly `fractionDigits` decimals and the locale's grouping: "1 234,50".
  public static func number(_ amount: Decimal, fractionDigits: Int, locale: BackofficeLocale)
    -> String
  {
    guard let digits = DecimalDigits(amount) else { return "\(amount)" }
    return number(digits, fractionDigits: fractionDigits, locale: locale)
  }

  private static func number(
    _ amount: DecimalDigits, fractionDigits: Int, locale: BackofficeLocale
  ) -> String {
    let places = max(0, fractionDigits)
    let parts = amount.rounded(to: places)
    return (parts.negative ? "-" : "") + grouped(parts, fractionDigits: places, locale: locale)
  }

  /// A whole count with the locale's grouping: "1,005" (en-US), "1 005" (uk-UA), "1005" where
  /// the locale groups only from five digits (es-ES).
  public static func count(_ value: Int, locale: BackofficeLocale) -> String {
    number(
      DecimalDigits(minor: Int64(clamping: value), scale: 0), fractionDigits: 0, locale: locale)
  }

  /// The API/CSV form: dot decimal, no grouping, exactly `fractionDigits` decimals: "12.50",
  /// "-0.10", "1234.00".
  public static func decimalString(_ amount: Decimal, fractionDigits: Int = 2) -> String {
    let places = max(0, fractionDigits)
    guard let parts = DecimalDigits(amount)?.rounded(to: places) else { return "\(amount)" }
    var text = (parts.negative ? "-" : "") + parts.integerText
    if places > 0 { text += "." + parts.fractionText(minimum: places) }
    return text
  }

  /// The amount as typed into an edit field in `locale`: fixed decimals, no grouping, the
  /// locale's decimal separator ("12,50" in de-DE, "12.50" in en-US).
  public static func editable(_ amount: Decimal, fractionDigits: Int = 2, locale: BackofficeLocale)
    -> String
  {
    let plain = decimalString(amount, fractionDigits: fractionDigits)
    return String(plain.map { $0 == "." ? locale.decimalSeparator : $0 })
  }

  private static func grouped(
    _ parts: DecimalDigits, fractionDigits: Int, locale: BackofficeLocale
  ) -> String {
    // Digits are ASCII; the separators may not be (a no-break space), so they go in as UTF-8.
    let integer = parts.integer.isEmpty ? [0] : parts.integer
    var body: [UInt8] = []
    body.reserveCapacity(integer.count + integer.count / 3 * 3 + fractionDigits + 3)
    let groups = integer.count >= 3 + locale.minimumGroupingDigits
    for (index, digit) in integer.enumerated() {
      let remaining = integer.count - index
      if groups && index > 0 && remaining % 3 == 0 {
        body.append(contentsOf: locale.groupingSeparator.utf8)
      }
      body.append(digit + 48)
    }
    if fractionDigits > 0 {
      body.append(contentsOf: locale.decimalSeparator.utf8)
      for index in 0..<max(fractionDigits, parts.fraction.count) {
        body.append((index < parts.fraction.count ? parts.fraction[index] : 0) + 48)
      }
    }
    return String(decoding: body, as: UTF8.self)
  }

  /// `grouped` for a stored amount's digits, written from its integers.
  private static func grouped(_ amount: StoredDigits, locale: BackofficeLocale) -> String {
    AmountWriter.text {
      AmountWriter.grouped(
        amount, grouping: Array(locale.groupingSeparator.utf8),
        decimal: Array(locale.decimalSeparator.utf8),
        minimumGroupingDigits: locale.minimumGroupingDigits, into: &$0)
    }
  }
}

/// A stored amount (hundredths) rounded to `places` decimals, half away from zero, as two
/// integers: what the listing formats for every row, without `Decimal` or digit arrays.
struct StoredDigits {
  /// Set only when the rounded amount is not zero (zero never shows a sign).
  var negative: Bool
  var whole: UInt64
  /// The `places` decimals as an integer (`5` with 3 places is ".005").
  var fraction: UInt64
  var places: Int

  /// Nil beyond 9 places (the digit-array path takes those).
  init?(_ minor: Int64, places: Int) {
    let scale = MinorUnits.fractionDigits
    guard (0...9).contains(places) else { return nil }
    var magnitude = minor.magnitude
    if places < scale {
      let divisor = Self.power(scale - places)
      magnitude = magnitude / divisor + (magnitude % divisor * 2 >= divisor ? 1 : 0)
      let unit = Self.power(places)
      whole = magnitude / unit
      fraction = magnitude % unit
    } else {
      let unit = Self.power(scale)
      whole = magnitude / unit
      fraction = magnitude % unit * Self.power(places - scale)
    }
    negative = minor < 0 && magnitude != 0
    self.places = places
  }

  static func power(_ exponent: Int) -> UInt64 {
    var value: UInt64 = 1
    for _ in 0..<max(0, exponent) { value *= 10 }
    return value
  }
}
