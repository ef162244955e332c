import Foundation

/// A locale Backoffice can format for: separators, currency placement, date patterns and month
/// names, all from a small fixed table so Linux and macOS print exactly the same text.
///
/// Space grouping (uk-UA, fr-FR, pl-PL) is printed with U+00A0 NO-BREAK SPACE so an amount never
/// wraps across lines; parsing accepts an ASCII space, U+00A0 and U+202F alike.
public struct BackofficeLocale: Hashable, Sendable {
  /// Where the currency sign goes relative to the number.
  public enum CurrencyPlacement: String, Hashable, Sendable {
    /// "$1,234.56", "-$12.50"
    case prefix
    /// "€ 1.234,56", "€ -12,50"
    case prefixWithSpace
    /// "1.234,56 €", "-12,50 €"
    case suffixWithSpace
  }

  /// BCP 47 tag, e.g. "uk-UA".
  public let identifier: String
  /// Name in English, e.g. "Ukrainian (Ukraine)".
  public let englishName: String
  /// Name in the locale's own language, e.g. "Українська (Україна)".
  public let nativeName: String
  public let decimalSeparator: Character
  public let groupingSeparator: Character
  /// Integer digits needed before grouping starts: 2 means "1234" but "12 345" (es-ES, pl-PL).
  public let minimumGroupingDigits: Int
  /// ISO 4217 code suggested for a new account in this locale.
  public let defaultCurrency: String
  public let currencyPlacement: CurrencyPlacement
  /// Numeric date pattern (tokens: yyyy, M, MM, d, dd), e.g. "dd.MM.yyyy".
  public let datePattern: String
  /// Date-and-time pattern (adds H, HH, h, hh, mm, a), e.g. "dd.MM.yyyy, HH:mm".
  public let dateTimePattern: String
  /// Month and year heading (MMMM is the month name), e.g. "MMMM yyyy".
  public let monthYearPattern: String
  /// Twelve stand-alone month names, January first.
  public let monthNames: [String]

  /// Language part of the identifier, e.g. "uk".
  public var languageCode: String {
    String(identifier.prefix { $0 != "-" })
  }

  /// Label for pickers: "Deutsch (Deutschland) — German (Germany)", or just the English name
  /// when it is also the native one.
  public var displayName: String {
    englishName == nativeName ? englishName : "\(nativeName) — \(englishName)"
  }

}

extension BackofficeLocale {
  // Declared in an extension so the struct keeps its memberwise initialiser for the table.
  /// The exact supported locale for `identifier` ("de-DE", "de_de"), or nil.
  public init?(identifier: String) {
    // A stored setting is written exactly as the identifier: no need to normalize it.
    if let exact = Self.supported.first(where: { $0.identifier == identifier }) {
      self = exact
      return
    }
    let key = Self.normalized(identifier)
    guard let found = Self.supported.first(where: { $0.identifier.lowercased() == key }) else {
      return nil
    }
    self = found
  }

  /// The supported locale for `identifier`: exact match, else the first of the same language,
  /// else en-US. Use it to read a stored setting that may be stale.
  public static func resolve(_ identifier: String) -> BackofficeLocale {
    match(identifier) ?? .enUS
  }

  /// The best supported locale for an HTTP `Accept-Language` header, honouring q-values;
  /// a language-only match ("uk", "en-AU") picks the first supported locale of that language.
  /// Defaults to en-US.
  public static func bestMatch(acceptLanguage: String) -> BackofficeLocale {
    for tag in AcceptLanguage.preferred(acceptLanguage) {
      if let locale = match(tag) { return locale }
    }
    return .enUS
  }

  private static func match(_ identifier: String) -> BackofficeLocale? {
    if let exact = BackofficeLocale(identifier: identifier) { return exact }
    let language = String(normalized(identifier).prefix { $0 != "-" })
    guard !language.isEmpty else { return nil }
    return supported.first { $0.languageCode == language }
  }

  private static func normalized(_ identifier: String) -> String {
    identifier.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-")
      .lowercased()
  }
}

// MARK: - Dates

extension BackofficeLocale {
  /// The numeric date of `date` in `timeZone`, e.g. "22.11.2025".
  public func formatDate(_ date: Date, timeZone: TimeZone) -> String {
    Self.render(datePattern, Self.fields(of: date, in: timeZone), monthNames)
  }

  /// Date and time of `date` in `timeZone`, e.g. "11/22/2025, 3:05 PM".
  public func formatDateTime(_ date: Date, timeZone: TimeZone) -> String {
    Self.render(dateTimePattern, Self.fields(of: date, in: timeZone), monthNames)
  }

  /// A calendar day given as numbers (no time zone involved), e.g. "22/11/2025".
  public func formatDate(year: Int, month: Int, day: Int) -> String {
    Self.render(datePattern, DateFields(year: year, month: month, day: day), monthNames)
  }

  /// Stand-alone name of `month` (1–12), e.g. "listopad"; empty outside 1–12.
  public func monthName(_ month: Int) -> String {
    (1...12).contains(month) ? monthNames[month - 1] : ""
  }

  /// Heading for a month, e.g. "November 2025", "2025年11月".
  public func formatMonth(year: Int, month: Int) -> String {
    Self.render(monthYearPattern, DateFields(year: year, month: month, day: 1), monthNames)
  }

  struct DateFields {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
  }

  static func fields(of date: Date, in timeZone: TimeZone) -> DateFields {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    return DateFields(
      year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1,
      hour: parts.hour ?? 0, minute: parts.minute ?? 0)
  }

  /// Expands the pattern letters y, M, d, H, h, m, a; every other character is copied.
  static func render(_ pattern: String, _ fields: DateFields, _ months: [String]) -> String {
    func padded(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var output = ""
    var characters = Array(pattern)[...]
    while let letter = characters.first {
      let run = characters.prefix { $0 == letter }.count
      characters = characters.dropFirst(run)
      switch letter {
      case "y": output += padded(fields.year, run)
      case "M" where run >= 3:
        output += (1...12).contains(fields.month) ? months[fields.month - 1] : ""
      case "M": output += padded(fields.month, run)
      case "d": output += padded(fields.day, run)
      case "H": output += padded(fields.hour, run)
      case "h": output += padded(fields.hour % 12 == 0 ? 12 : fields.hour % 12, run)
      case "m": output += padded(fields.minute, run)
      case "a": output += fields.hour < 12 ? "AM" : "PM"
      default: output += String(repeating: letter, count: run)
      }
    }
    return output
  }
}

// MARK: - The table

extension BackofficeLocale {
  private static let nbsp: Character = "\u{00A0}"

  public static let enUS = BackofficeLocale(
    identifier: "en-US", englishName: "English (United States)",
    nativeName: "English (United States)", decimalSeparator: ".", groupingSeparator: ",",
    minimumGroupingDigits: 1, defaultCurrency: "USD", currencyPlacement: .prefix,
    datePattern: "MM/dd/yyyy", dateTimePattern: "MM/dd/yyyy, h:mm a",
    monthYearPattern: "MMMM yyyy", monthNames: englishMonths)

  public static let enGB = BackofficeLocale(
    identifier: "en-GB", englishName: "English (United Kingdom)",
    nativeName: "English (United Kingdom)", decimalSeparator: ".", groupingSeparator: ",",
    minimumGroupingDigits: 1, defaultCurrency: "GBP", currencyPlacement: .prefix,
    datePattern: "dd/MM/yyyy", dateTimePattern: "dd/MM/yyyy, HH:mm",
    monthYearPattern: "MMMM yyyy", monthNames: englishMonths)

  public static let ukUA = BackofficeLocale(
    identifier: "uk-UA", englishName: "Ukrainian (Ukraine)", nativeName: "Українська (Україна)",
    decimalSeparator: ",", groupingSeparator: nbsp, minimumGroupingDigits: 1,
    defaultCurrency: "UAH", currencyPlacement: .suffixWithSpace,
    datePattern: "dd.MM.yyyy", dateTimePattern: "dd.MM.yyyy, HH:mm",
    monthYearPattern: "MMMM yyyy",
    monthNames: [
      "січень", "лютий", "березень", "квітень", "травень", "червень", "липень", "серпень",
      "вересень", "жовтень", "листопад", "грудень",
    ])

  public static let deDE = BackofficeLocale(
    identifier: "de-DE", englishName: "German (Germany)", nativeName: "Deutsch (Deutschland)",
    decimalSeparator: ",", groupingSeparator: ".", minimumGroupingDigits: 1,
    defaultCurrency: "EUR", currencyPlacement: .suffixWithSpace,
    datePattern: "dd.MM.yyyy", dateTimePattern: "dd.MM.yyyy, HH:mm",
    monthYearPattern: "MMMM yyyy",
    monthNames: [
      "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
      "Oktober", "November", "Dezember",
    ])

  public static let frFR = BackofficeLocale(
    identifier: "fr-FR", englishName: "French (France)", nativeName: "Français (France)",
    decimalSeparator: ",", groupingSeparator: nbsp, minimumGroupingDigits: 1,
    defaultCurrency: "EUR", currencyPlacement: .suffixWithSpace,
    datePattern: "dd/MM/yyyy", dateTimePattern: "dd/MM/yyyy HH:mm",
    monthYearPattern: "MMMM yyyy",
    monthNames: [
      "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
      "octobre", "novembre", "décembre",
    ])

  public static let jaJP = BackofficeLocale(
    identifier: "ja-JP", englishName: "Japanese (Japan)", nativeName: "日本語 (日本)",
    decimalSeparator: ".", groupingSeparator: ",", minimumGroupingDigits: 1,
    defaultCurrency: "JPY", currencyPlacement: .prefix,
    datePattern: "yyyy/MM/dd", dateTimePattern: "yyyy/MM/dd HH:mm",
    monthYearPattern: "yyyy年MMMM",
    monthNames: (1...12).map { "\($0)月" })

  public static let esES = BackofficeLocale(
    identifier: "es-ES", englishName: "Spanish (Spain)", nativeName: "Español (España)",
    decimalSeparator: ",", groupingSeparator: ".", minimumGroupingDigits: 2,
    defaultCurrency: "EUR", currencyPlacement: .suffixWithSpace,
    datePattern: "dd/MM/yyyy", dateTimePattern: "dd/MM/yyyy, HH:mm",
    monthYearPattern: "MMMM yyyy",
    monthNames: [
      "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
      "octubre", "noviembre", "diciembre",
    ])

  public static let itIT = BackofficeLocale(
    identifier: "it-IT", englishName: "Italian (Italy)", nativeName: "Italiano (Italia)",
    decimalSeparator: ",", groupingSeparator: ".", minimumGroupingDigits: 1,
    defaultCurrency: "EUR", currencyPlacement: .suffixWithSpace,
    datePattern: "dd/MM/yyyy", dateTimePattern: "dd/MM/yyyy, HH:mm",
    monthYearPattern: "MMMM yyyy",
    monthNames: [
      "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
      "settembre", "ottobre", "novembre", "dicembre",
    ])

  public static let plPL = BackofficeLocale(
    identifier: "pl-PL", englishName: "Polish (Poland)", nativeName: "Polski (Polska)",
    decimalSeparator: ",", groupingSeparator: nbsp, minimumGroupingDigits: 2,
    defaultCurrency: "PLN", currencyPlacement: .suffixWithSpace,
    datePattern: "dd.MM.yyyy", dateTimePattern: "dd.MM.yyyy, HH:mm",
    monthYearPattern: "MMMM yyyy",
    monthNames: [
      "styczeń", "luty", "marzec", "kwiecień", "maj", "czerwiec", "lipiec", "sierpień",
      "wrzesień", "październik", "listopad", "grudzień",
    ])

  public static let nlNL = BackofficeLocale(
    identifier: "nl-NL", englishName: "Dutch (Netherlands)", nativeName: "Nederlands (Nederland)",
    decimalSeparator: ",", groupingSeparator: ".", minimumGroupingDigits: 1,
    defaultCurrency: "EUR", currencyPlacement: .prefixWithSpace,
    datePattern: "dd-MM-yyyy", dateTimePattern: "dd-MM-yyyy HH:mm",
    monthYearPattern: "MMMM yyyy",
    monthNames: [
      "januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september",
      "oktober", "november", "december",
    ])

  /// Every supported locale; the first of each language is its fallback (en-US before en-GB).
  public static let supported: [BackofficeLocale] = [
    enUS, enGB, ukUA, deDE, frFR, jaJP, esES, itIT, plPL, nlNL,
  ]

  private static let englishMonths = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
  ]
}
