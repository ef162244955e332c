import Foundation

/// A valid expense: a short title, a positive amount with at most two decimals, a category and
/// an optional date and time. Build one from input with `ExpenseDraft.validate`.
public struct Expense: Hashable, Sendable {
  /// Longest title, in characters (what a person counts, not bytes).
  public static let maxTitleLength = 15
  /// Most decimals an amount may have.
  public static let maxFractionDigits = 2

  public var title: String
  public var amount: Decimal
  public var category: ExpenseCategory
  public var date: Date?

  /// Stores the values as given; for values read back from storage, which were validated when
  /// they were saved.
  public init(title: String, amount: Decimal, category: ExpenseCategory, date: Date? = nil) {
    self.title = title
    self.amount = amount
    self.category = category
    self.date = date
  }

  /// The title as it will be stored: line breaks become spaces, surrounding spaces go, and
  /// anything past 15 characters is cut off — the original app cut typing at 15 characters
  /// rather than refusing, and Backoffice does the same for forms, the API and imports.
  /// Other control characters (NUL, escape codes) are dropped: nobody types them, and some
  /// databases cannot store NUL.
  public static func normalizedTitle(_ text: String) -> String {
    let flat = String(
      text.map { $0.isNewline || $0 == "\t" ? " " : $0 }.filter { !isControl($0) })
    let trimmed = flat.trimmingCharacters(in: .whitespaces)
    return String(trimmed.prefix(maxTitleLength)).trimmingCharacters(in: .whitespaces)
  }

  static func isControl(_ character: Character) -> Bool {
    character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control }
  }
}

/// The messages for every field that is wrong, keyed like the form and the API (`title`,
/// `amount`, `category`, `date`).
public struct ExpenseValidationErrors: Error, Hashable, Sendable {
  public var title: String?
  public var amount: String?
  public var category: String?
  public var date: String?

  public init(
    title: String? = nil, amount: String? = nil, category: String? = nil, date: String? = nil
  ) {
    self.title = title
    self.amount = amount
    self.category = category
    self.date = date
  }

  public var isEmpty: Bool { fields.isEmpty }

  /// Field name → message, for the API error envelope.
  public var fields: [String: String] {
    var result: [String: String] = [:]
    for (key, message) in ordered { result[key] = message }
    return result
  }

  /// The messages in form order.
  public var messages: [String] { ordered.map(\.1) }

  private var ordered: [(String, String)] {
    [("title", title), ("amount", amount), ("category", category), ("date", date)]
      .compactMap { key, message in message.map { (key, $0) } }
  }
}

/// How the amount text is written.
public enum AmountSyntax: Hashable, Sendable {
  /// Typed by a person in a form: the locale's decimal separator, or the other one when it is
  /// unambiguous; no grouping (see `AmountTyping`).
  case typed(BackofficeLocale)
  /// The API and CSV form: "12.50", dot only.
  case decimalString
}

/// An expense exactly as it arrived from a form, the API or a CSV row: every field is text.
public struct ExpenseDraft: Hashable, Sendable {
  public var title: String
  public var amount: String
  /// A category label; empty means the default (Personal).
  public var category: String
  /// ISO 8601 date or date-time (see `ExpenseDate`); empty means no date.
  public var date: String
  /// Set for a form whose "Date (optional)" switch is on: an empty date is then an error
  /// rather than "no date".
  public var dateRequired = false

  public init(
    title: String = "", amount: String = "",
    category: String = ExpenseCategory.default.rawValue, date: String = ""
  ) {
    self.title = title
    self.amount = amount
    self.category = category
    self.date = date
  }

  /// The edit form pre-filled from `expense`: amount with two decimals in the locale's style
  /// ("12,50"), date as a `datetime-local` value in `timeZone`.
  public init(
    editing expense: Expense, locale: BackofficeLocale, timeZone: TimeZone,
    maxFractionDigits: Int = Expense.maxFractionDigits
  ) {
    title = expense.title
    amount = MoneyFormat.editable(
      expense.amount, fractionDigits: AmountTyping.clamp(maxFractionDigits), locale: locale)
    category = expense.category.rawValue
    date = expense.date.map { ExpenseDate.inputValue($0, timeZone: timeZone) } ?? ""
  }

  /// Validates a form typed in `locale`; dates without an offset are read in `timeZone`.
  /// `maxFractionDigits` can lower the two-decimal limit for a currency such as JPY.
  public func validate(
    locale: BackofficeLocale, timeZone: TimeZone = ExpenseDate.utc,
    maxFractionDigits: Int = Expense.maxFractionDigits
  ) -> Result<Expense, ExpenseValidationErrors> {
    validate(amountSyntax: .typed(locale), timeZone: timeZone, maxFractionDigits: maxFractionDigits)
  }

  /// Validates every field and reports all problems at once.
  public func validate(
    amountSyntax: AmountSyntax, timeZone: TimeZone = ExpenseDate.utc,
    maxFractionDigits: Int = Expense.maxFractionDigits
  ) -> Result<Expense, ExpenseValidationErrors> {
    var errors = ExpenseValidationErrors()
    let places = AmountTyping.clamp(maxFractionDigits)

    let title = Expense.normalizedTitle(self.title)
    if title.isEmpty { errors.title = ExpenseMessages.titleMissing }

    var amount: Decimal?
    switch Self.amount(self.amount, syntax: amountSyntax, places: places) {
    case .success(let value): amount = value
    case .failure(let message): errors.amount = message.text
    }

    let categoryText = category.trimmingCharacters(in: .whitespacesAndNewlines)
    let category =
      categoryText.isEmpty ? ExpenseCategory.default : ExpenseCategory(label: categoryText)
    if category == nil { errors.category = ExpenseMessages.categoryUnknown }

    var date: Date?
    let dateText = self.date.trimmingCharacters(in: .whitespacesAndNewlines)
    if !dateText.isEmpty {
      date = ExpenseDate.parse(dateText, timeZone: timeZone)
      if date == nil { errors.date = ExpenseMessages.dateInvalid }
    } else if dateRequired {
      errors.date = ExpenseMessages.dateMissing
    }

    guard errors.isEmpty, let amount, let category else { return .failure(errors) }
    return .success(Expense(title: title, amount: amount, category: category, date: date))
  }

  private struct Message: Error { let text: String }

  private static func halfWidth(_ scalar: Unicode.Scalar) -> Character {
    switch scalar.value {
    case 0xFF10...0xFF19, 0xFF0C, 0xFF0E:
      return Character(Unicode.Scalar(UInt8(scalar.value - 0xFEE0)))
    default: return Character(scalar)
    }
  }

  private static func amount(
    _ raw: String, syntax: AmountSyntax, places: Int
  ) -> Result<Decimal, Message> {
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !text.isEmpty else { return .failure(Message(text: ExpenseMessages.amountMissing)) }
    let value: Decimal
    let example: String
    switch syntax {
    case .typed(let locale):
      example = ExpenseMessages.example(locale: locale, places: places)
      do {
        value = try AmountParser.parse(text, locale: locale, maxFractionDigits: places)
      } catch {
        return .failure(Message(text: error.message))
      }
      // The field follows the keystroke rule, so no thousands separators even where the
      // parser would read them; full-width digits from a Japanese keyboard are fine.
      let ascii = String(text.unicodeScalars.map(Self.halfWidth))
      guard AmountTyping.accepts(ascii, locale: locale, maxFractionDigits: places) else {
        return .failure(Message(text: ExpenseMessages.noGrouping(example: example)))
      }
    case .decimalString:
      example = ExpenseMessages.example(locale: .enUS, places: places)
      guard let parsed = AmountParser.parseStrictDecimalString(text) else {
        return .failure(Message(text: ExpenseMessages.notDecimalString(example: example)))
      }
      guard DecimalMath.fractionDigitCount(parsed) <= places else {
        return .failure(Message(text: ExpenseMessages.tooManyDecimals(places, example: example)))
      }
      guard parsed < ExpenseMessages.limit else {
        return .failure(Message(text: ExpenseMessages.tooLarge))
      }
      value = parsed
    }
    guard value > 0 else {
      return .failure(Message(text: ExpenseMessages.notPositive(example: example)))
    }
    return .success(value)
  }
}

/// The messages of the expense rules, in one place, in the interface language. The public ones
/// are also shown by the browser (the server hands them over), so both sides say the same thing.
public enum ExpenseMessages {
  public static var titleMissing: String { L("expenses.validation.title_missing") }
  public static var amountMissing: String { L("expenses.validation.amount_missing") }
  /// The green footer under a title or amount that is filled in.
  public static var approved: String { L("expenses.validation.approved") }
  public static var categoryUnknown: String {
    L("expenses.validation.category_unknown", ["choices": ExpenseCategory.choices])
  }
  public static var dateInvalid: String { L("expenses.validation.date_invalid") }
  /// The form's "Date (optional)" switch is on but no date was picked.
  public static var dateMissing: String {
    L("expenses.validation.date_missing", ["switch": dateSwitch])
  }
  /// The label of the form's switch for a date.
  public static var dateSwitch: String { L("expenses.form.has_date") }
  public static var monthInvalid: String { L("expenses.validation.month_invalid") }
  public static var dayInvalid: String { L("expenses.validation.day_invalid") }
  public static var rangeReversed: String { L("expenses.validation.range_reversed") }
  public static var monthAndRange: String { L("expenses.validation.month_and_range") }
  static var tooLarge: String {
    L("money.amount.too_large", ["digits": String(AmountParser.maxIntegerDigits)])
  }
  /// Amounts must stay below 10^15, the parser's limit for typed amounts.
  static let limit = Decimal(sign: .plus, exponent: AmountParser.maxIntegerDigits, significand: 1)

  static func example(locale: BackofficeLocale, places: Int) -> String {
    let value = places == 0 ? Decimal(12) : Decimal(125) / 10
    return MoneyFormat.editable(value, fractionDigits: places, locale: locale)
  }

  static func notPositive(example: String) -> String {
    L("expenses.validation.not_positive", ["example": example])
  }

  static func noGrouping(example: String) -> String {
    L("expenses.validation.no_grouping", ["example": example])
  }

  static func notDecimalString(example: String) -> String {
    L("expenses.validation.not_decimal_string", ["example": example])
  }

  static func tooManyDecimals(_ places: Int, example: String) -> String {
    guard places > 0 else { return L("expenses.validation.whole_number", ["example": example]) }
    return L("expenses.validation.too_many_decimals", count: places, ["example": example])
  }
}
