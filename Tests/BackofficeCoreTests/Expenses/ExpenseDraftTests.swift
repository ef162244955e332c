import Foundation
import Testing

@testable import BackofficeCore

private let utc = TimeZone(secondsFromGMT: 0)!
private let kyivWinter = TimeZone(secondsFromGMT: 2 * 3600)!

private func dec(_ text: String) -> Decimal {
  AmountParser.parseStrictDecimalString(text) ?? .nan
}

/// A form as typed, the locale, and what must come out: the stored title and amount, or the
/// message shown under the failing field.
struct DraftCase: CustomTestStringConvertible, Sendable {
  var title = "Coffee"
  var amount = "12,50"
  var locale = "de-DE"
  var places = 2
  var expectedTitle: String? = nil
  var expectedAmount: String? = nil
  var titleError: String? = nil
  var amountError: String? = nil

  var testDescription: String { "\(locale) “\(title)” “\(amount)”" }
}

private let draftCases: [DraftCase] = [
  // Amounts typed in each locale.
  DraftCase(amount: "12,50", locale: "de-DE", expectedAmount: "12.5"),
  DraftCase(amount: "12.5", locale: "de-DE", expectedAmount: "12.5"),
  DraftCase(amount: "12,5", locale: "en-US", expectedAmount: "12.5"),
  DraftCase(amount: "12.50", locale: "en-US", expectedAmount: "12.5"),
  DraftCase(amount: "0,01", locale: "uk-UA", expectedAmount: "0.01"),
  DraftCase(amount: " 7 ", locale: "fr-FR", expectedAmount: "7"),
  DraftCase(amount: "12,", locale: "fr-FR", expectedAmount: "12"),
  DraftCase(amount: "１２，５", locale: "ja-JP", expectedAmount: "12.5"),
  DraftCase(amount: "1234", locale: "ja-JP", places: 0, expectedAmount: "1234"),
  DraftCase(amount: "999999999999999,99", locale: "uk-UA", expectedAmount: "999999999999999.99"),
  // Amount refusals with the parser's or the rule's message.
  DraftCase(amount: "", locale: "en-US", amountError: "Amount must be filled!"),
  DraftCase(amount: "   ", locale: "uk-UA", amountError: "Amount must be filled!"),
  DraftCase(amount: "0", locale: "en-US", amountError: "Amount must be more than 0, e.g. 12.50."),
  DraftCase(
    amount: "0,00", locale: "uk-UA", amountError: "Amount must be more than 0, e.g. 12,50."),
  DraftCase(
    amount: "-5", locale: "en-US",
    amountError: "The amount cannot be negative; enter it without a minus sign, e.g. 12.50."),
  DraftCase(amount: "12,555", locale: "de-DE", amountError: ambiguous("12555", "12,50")),
  DraftCase(amount: "12.345", locale: "en-US", amountError: ambiguous("12345", "12.50")),
  DraftCase(amount: "12.345", locale: "fr-FR", amountError: ambiguous("12345", "12,50")),
  DraftCase(amount: "12.345", locale: "uk-UA", amountError: ambiguous("12345", "12,50")),
  DraftCase(
    amount: "1234,555", locale: "de-DE", amountError: "Use at most 2 decimals, e.g. 12,50."),
  DraftCase(
    amount: "1.234,56", locale: "de-DE",
    amountError: "Type the amount without thousands separators or spaces, e.g. 12,50."),
  DraftCase(
    amount: "1,234.56", locale: "en-US",
    amountError: "Type the amount without thousands separators or spaces, e.g. 12.50."),
  DraftCase(
    amount: "15 000", locale: "uk-UA",
    amountError: "Type the amount without thousands separators or spaces, e.g. 12,50."),
  DraftCase(
    amount: "15\u{202F}000", locale: "fr-FR",
    amountError: "Type the amount without thousands separators or spaces, e.g. 12,50."),
  DraftCase(
    amount: "12.345", locale: "ja-JP", places: 0,
    amountError: "Type the amount without thousands separators or spaces, e.g. 12."),
  DraftCase(
    amount: "12.5", locale: "ja-JP", places: 0,
    amountError: "Use a whole number without decimals, e.g. 12."),
  DraftCase(
    amount: "abc", locale: "fr-FR",
    amountError: "“a” is not allowed: use digits and “,” for decimals, e.g. 12,50."),
  DraftCase(
    amount: "12,5,0", locale: "de-DE",
    amountError: "Use only one decimal separator “,”, e.g. 12,50."),
  // Titles: trimmed, cut to 15 characters, required.
  DraftCase(title: "  Coffee  ", expectedTitle: "Coffee"),
  DraftCase(title: "Exactly fifteen", expectedTitle: "Exactly fifteen"),
  DraftCase(title: "Sixteen letters!", expectedTitle: "Sixteen letters"),
  DraftCase(title: "   Groceries at the market", expectedTitle: "Groceries at th"),
  DraftCase(title: "Fourteen chars  and more", expectedTitle: "Fourteen chars"),
  DraftCase(title: "Line\nbreak", expectedTitle: "Line break"),
  DraftCase(title: "Кава з друзями!!", expectedTitle: "Кава з друзями!"),
  DraftCase(title: "🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦", expectedTitle: "🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦🇺🇦"),
  DraftCase(title: "", titleError: "Title must be filled!"),
  DraftCase(title: " \t ", titleError: "Title must be filled!"),
]

private func ambiguous(_ digits: String, _ example: String) -> String {
  "It is unclear whether the separator groups thousands or starts 3 decimals: write "
    + "\(digits) without a separator, or use at most 2 decimals, e.g. \(example)."
}

@Suite("ExpenseDraft")
struct ExpenseDraftTests {
  @Test(arguments: draftCases)
  func validatesTitleAndAmount(_ row: DraftCase) throws {
    let locale = try #require(BackofficeLocale(identifier: row.locale))
    let draft = ExpenseDraft(title: row.title, amount: row.amount)
    switch draft.validate(locale: locale, maxFractionDigits: row.places) {
    case .success(let expense):
      #expect(row.titleError == nil && row.amountError == nil, "accepted \(expense)")
      if let title = row.expectedTitle { #expect(expense.title == title) }
      if let amount = row.expectedAmount { #expect(expense.amount == dec(amount)) }
      #expect(expense.category == .personal)
      #expect(expense.date == nil)
    case .failure(let errors):
      #expect(errors.title == row.titleError)
      #expect(errors.amount == row.amountError)
      #expect(row.titleError != nil || row.amountError != nil, "refused \(errors)")
    }
  }

  @Test(arguments: [
    ("", ExpenseCategory.personal), ("Personal", .personal), ("hobby", .hobby),
    (" Transport ", .transport), ("FOOD", .food), ("Insurance", .insurance),
    ("savings", .savings),
  ])
  func categories(_ text: String, _ expected: ExpenseCategory) throws {
    let draft = ExpenseDraft(title: "Bus", amount: "2", category: text)
    #expect(try draft.validate(locale: .enUS).get().category == expected)
  }

  @Test func categoriesAreTheSixOfTheOriginalInOrder() {
    #expect(
      ExpenseCategory.allCases.map(\.rawValue) == [
        "Personal", "Hobby", "Transport", "Food", "Insurance", "Savings",
      ])
    #expect(ExpenseCategory.default == .personal)
    #expect(ExpenseDraft().category == "Personal")
  }

  @Test func datesAreReadInTheAccountTimeZone() throws {
    let local = ExpenseDraft(title: "Taxi", amount: "9", date: "2025-11-22T15:05")
    let expense = try local.validate(locale: .ukUA, timeZone: kyivWinter).get()
    #expect(expense.date == Date(timeIntervalSince1970: 1_763_816_700))  // 13:05 UTC
    let withOffset = ExpenseDraft(title: "Taxi", amount: "9", date: "2025-11-22T15:05:00Z")
    #expect(
      try withOffset.validate(locale: .ukUA, timeZone: kyivWinter).get().date
        == Date(timeIntervalSince1970: 1_763_823_900))
    let blank = ExpenseDraft(title: "Taxi", amount: "9", date: "  ")
    #expect(try blank.validate(locale: .ukUA).get().date == nil)
  }

  @Test func reportsEveryFieldAtOnce() {
    let draft = ExpenseDraft(title: " ", amount: "", category: "Groceries", date: "22.11.2025")
    guard case .failure(let errors) = draft.validate(locale: .enUS) else {
      Issue.record("an empty form was accepted")
      return
    }
    #expect(
      errors.fields == [
        "title": "Title must be filled!",
        "amount": "Amount must be filled!",
        "category": "Choose a category: Personal, Hobby, Transport, Food, Insurance or Savings.",
        "date": "Enter the date as 2025-11-22 or 2025-11-22T15:05, or leave it empty.",
      ])
    #expect(errors.messages.first == "Title must be filled!")
    #expect(errors.messages.count == 4)
    #expect(!errors.isEmpty)
    #expect(ExpenseValidationErrors().isEmpty)
  }

  @Test func editFormShowsTwoDecimalsInTheLocaleStyle() throws {
    let date = Date(timeIntervalSince1970: 1_763_823_900)  // 2025-11-22 15:05 UTC
    let expense = Expense(title: "Lunch", amount: dec("12.5"), category: .food, date: date)
    let german = ExpenseDraft(editing: expense, locale: .deDE, timeZone: kyivWinter)
    #expect(
      german
        == ExpenseDraft(
          title: "Lunch", amount: "12,50", category: "Food", date: "2025-11-22T17:05"))
    #expect(ExpenseDraft(editing: expense, locale: .enUS, timeZone: utc).amount == "12.50")
    let yen = ExpenseDraft(editing: expense, locale: .jaJP, timeZone: utc, maxFractionDigits: 0)
    #expect(yen.amount == "13")
    // What the edit form shows validates back to the same expense.
    #expect(try german.validate(locale: .deDE, timeZone: kyivWinter).get() == expense)
  }

  @Test(arguments: [
    ("12.50", "12.5"), ("0.01", "0.01"), ("12", "12"), ("12.500", "12.5"), (" 3.10 ", "3.1"),
  ])
  func apiAmounts(_ text: String, _ expected: String) throws {
    let draft = ExpenseDraft(title: "API", amount: text)
    #expect(try draft.validate(amountSyntax: .decimalString).get().amount == dec(expected))
  }

  @Test(arguments: [
    ("", "Amount must be filled!"),
    ("12,50", "Amount must be a number with a dot before the decimals, e.g. 12.50."),
    ("1,234.50", "Amount must be a number with a dot before the decimals, e.g. 12.50."),
    ("1e3", "Amount must be a number with a dot before the decimals, e.g. 12.50."),
    ("12.555", "Amount can have at most 2 decimals, e.g. 12.50."),
    ("0", "Amount must be more than 0, e.g. 12.50."),
    ("-4.00", "Amount must be more than 0, e.g. 12.50."),
    ("1000000000000000", ExpenseMessages.tooLarge),
  ])
  func apiAmountErrors(_ text: String, _ message: String) {
    let draft = ExpenseDraft(title: "API", amount: text)
    guard case .failure(let errors) = draft.validate(amountSyntax: .decimalString) else {
      Issue.record("\(text) was accepted")
      return
    }
    #expect(errors.amount == message)
  }
}
