import Fluent
import Foundation

@testable import BackofficeServer

/// The `expenses` table as tests read and write it behind the app's back (the app itself goes
/// through `ExpenseStore`).
final class ExpenseTable: Model, @unchecked Sendable {
  static let schema = "expenses"

  @ID(key: .id) var id: UUID?
  /// The workspace the record belongs to.
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "title") var title: String
  /// `SearchNormalizer.normalize(title)`, what the text filter looks in.
  @Field(key: "title_key") var titleKey: String
  @Field(key: "amount_cents") var amountCents: Int64
  /// The category label, e.g. "Food".
  @Field(key: "category") var category: String
  /// When the money was spent (UTC); nil for an undated expense.
  @OptionalField(key: "spent_at") var spentAt: Date?
  /// `MatchKey.make(expense.matchFields)`: how an import finds the rows the account already has.
  @Field(key: "match_key") var matchKey: String
  @Field(key: "created_at") var createdAt: Date
  @Field(key: "updated_at") var updatedAt: Date
  /// Set while a deleted expense can still be restored; see `ExpenseStore.undoWindow`.
  @OptionalField(key: "deleted_at") var deletedAt: Date?
  /// One more on every change; see `RecordVersion`.
  @Field(key: "version") var version: Int
  /// The fundraiser (of the same workspace) the money was spent for; nil for most expenses.
  @OptionalField(key: "fundraiser_id") var fundraiserID: UUID?

  init() {}
}

/// The `expense_receipts` table, for tests (the app goes through `ExpenseReceipts`).
final class ExpenseReceiptTable: Model, @unchecked Sendable {
  static let schema = "expense_receipts"

  @ID(key: .id) var id: UUID?
  @Field(key: "workspace_id") var workspaceID: UUID
  @Field(key: "expense_id") var expenseID: UUID
  @Field(key: "data") var data: Data
  @Field(key: "mime") var mime: String
  @Field(key: "width") var width: Int
  @Field(key: "height") var height: Int
  /// Hex SHA-256 of the bytes.
  @Field(key: "etag") var etag: String
  @Field(key: "is_public") var isPublic: Bool
  /// Order among the expense's receipts, from 0.
  @Field(key: "position") var position: Int
  @Field(key: "created_at") var createdAt: Date

  init() {}
}
