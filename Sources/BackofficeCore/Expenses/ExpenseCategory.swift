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

  /// The category named `text`, ignoring case and surrounding spaces ("food", " Food ").
  public init?(label text: String) {
    let key = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == key }) else {
      return nil
    }
    self = match
  }

  /// "Personal, Hobby, Transport, Food, Insurance or Savings", for messages.
  static var choices: String {
    let labels = allCases.map(\.rawValue)
    return labels.dropLast().joined(separator: ", ") + " or " + (labels.last ?? "")
  }
}
