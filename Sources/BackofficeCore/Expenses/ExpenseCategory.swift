import Foundation

/// The six expense categories, in the order people see them; the raw value is the label.
public enum ExpenseCategory: String, CaseIterable, Codable, Hashable, Sendable {
  case personal = "Personal"
  case hobby = "Hobby"
  case transport = "Transport"
  case food = "Food"
  case insurance = "Insurance"
  case savings = "Savings"

  /// Preselected in a new expense.
  public static let `default` = ExpenseCategory.personal

  /// The category named `text`, ignoring case and surrounding spaces ("food", " Food "): its
  /// label, or its name in any interface language ("Їжа"), whatever the account's language.
  public init?(label text: String) {
    let key = Self.normalized(text)
    guard let match = Self.byName[key] else { return nil }
    self = match
  }

  /// The name people see, in the interface language ("Food", "Їжа"). The raw value stays the
  /// label that is stored and that the API speaks.
  public var displayName: String {
    switch self {
    case .personal: L("expenses.category.personal")
    case .hobby: L("expenses.category.hobby")
    case .transport: L("expenses.category.transport")
    case .food: L("expenses.category.food")
    case .insurance: L("expenses.category.insurance")
    case .savings: L("expenses.category.savings")
    }
  }

  /// "Personal, Hobby, Transport, Food, Insurance or Savings" in the interface language, for
  /// messages.
  public static var choices: String {
    let names = allCases.map(\.displayName)
    return L(
      "expenses.category.choices",
      ["first": names.dropLast().joined(separator: ", "), "last": names.last ?? ""])
  }

  /// The Ukrainian names, kept here as well as in the catalogue so a Ukrainian file or request
  /// is read the same whatever the catalogue says.
  private static let ukrainianNames: [ExpenseCategory: String] = [
    .personal: "Особисте", .hobby: "Хобі", .transport: "Транспорт", .food: "Їжа",
    .insurance: "Страхування", .savings: "Заощадження",
  ]

  /// Every accepted name, normalised: the labels first, then the Ukrainian names and the name
  /// in every interface language. Built once, for all languages at a time, so it does not
  /// depend on the language of whoever asks first.
  private static let byName: [String: ExpenseCategory] = {
    var table: [String: ExpenseCategory] = [:]
    func add(_ name: String, _ category: ExpenseCategory) {
      let key = normalized(name)
      if !key.isEmpty, table[key] == nil { table[key] = category }
    }
    for category in allCases { add(category.rawValue, category) }
    for category in allCases { add(ukrainianNames[category] ?? "", category) }
    for language in UILanguage.allCases {
      UILanguage.$current.withValue(language) {
        for category in allCases { add(category.displayName, category) }
      }
    }
    return table
  }()

  private static func normalized(_ text: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }
}
