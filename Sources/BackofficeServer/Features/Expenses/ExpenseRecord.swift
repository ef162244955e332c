import BackofficeCore
import Foundation
import SQLKit
import Vapor

/// One stored expense, as plain values. The amount is kept exactly as whole hundredths of the
/// workspace's currency (`amount_cents`), so sums are integer sums on SQLite and PostgreSQL
/// alike. `ExpenseStore` is the only place with the `expenses` table's SQL.
///
/// The timestamps are set by the store from the app's clock, so the list order and the undo
/// window behave the same in tests as in use.
struct ExpenseRecord: Sendable, Equatable {
  static let table = "expenses"

  var id: UUID
  /// The workspace the record belongs to.
  var workspaceID: UUID
  var title: String
  /// `SearchNormalizer.normalize(title)`, what the text filter looks in.
  var titleKey: String
  var amountCents: Int64
  /// The category label, e.g. "Food".
  var category: String
  /// When the money was spent (UTC); nil for an undated expense.
  var spentAt: Date?
  /// `MatchKey.make(expense.matchFields)`: how an import finds the rows the account already has.
  var matchKey: String
  var createdAt: Date
  var updatedAt: Date
  /// Set while a deleted expense can still be restored; see `ExpenseStore.undoWindow`.
  var deletedAt: Date?
  /// One more on every change; see `RecordVersion`.
  var version: Int
  /// The fundraiser (of the same workspace) the money was spent for; nil for most expenses.
  var fundraiserID: UUID?

  /// A new expense of `workspaceID`, not stored yet, with its id and first version. `matchKey`,
  /// when the caller has it already (an import worked it out for every row), saves working it
  /// out again.
  init(
    id: UUID = UUID.random(), workspaceID: UUID, _ expense: Expense, matchKey: String? = nil,
    fundraiserID: UUID? = nil, createdAt: Date, updatedAt: Date? = nil,
    version: Int = RecordVersion.first
  ) throws {
    self.id = id
    self.workspaceID = workspaceID
    title = ""
    titleKey = ""
    amountCents = 0
    category = ""
    self.matchKey = ""
    self.createdAt = createdAt
    self.updatedAt = updatedAt ?? createdAt
    self.version = version
    self.fundraiserID = fundraiserID
    try set(expense, matchKey: matchKey)
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns = """
    id, workspace_id, title, title_key, amount_cents, category, spent_at, match_key, \
    created_at, updated_at, deleted_at, version, fundraiser_id
    """

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    workspaceID = try row.decode(column: "workspace_id", as: UUID.self)
    title = try row.decode(column: "title", as: String.self)
    titleKey = try row.decode(column: "title_key", as: String.self)
    amountCents = try row.decode(column: "amount_cents", as: Int64.self)
    category = try row.decode(column: "category", as: String.self)
    spentAt = try row.decode(column: "spent_at", as: Date?.self)
    matchKey = try row.decode(column: "match_key", as: String.self)
    createdAt = try row.decode(column: "created_at", as: Date.self)
    updatedAt = try row.decode(column: "updated_at", as: Date.self)
    deletedAt = try row.decode(column: "deleted_at", as: Date?.self)
    version = try row.decode(column: "version", as: Int.self)
    fundraiserID = try row.decode(column: "fundraiser_id", as: UUID?.self)
  }

  /// The stored values as Core's expense.
  var expense: Expense {
    Expense(
      title: title, amount: MinorUnits(amountCents).decimal,
      category: ExpenseCategory(rawValue: category) ?? .default, date: spentAt)
  }

  /// Sets the expense's values and the keys derived from them. An amount that is not a whole
  /// number of hundredths is refused (422), and nothing changes.
  mutating func set(_ expense: Expense, matchKey: String? = nil) throws {
    guard let cents = MinorUnits(exactly: expense.amount)?.value else {
      throw Abort(.unprocessableEntity, reason: L("expenses.validation.not_exact"))
    }
    title = expense.title
    titleKey = SearchNormalizer.normalize(expense.title)
    amountCents = cents
    category = expense.category.rawValue
    spentAt = expense.date
    self.matchKey = matchKey ?? MatchKey.make(expense.matchFields)
  }

  /// The expense as a new row of `expenses`: the table's one column list for writes (the
  /// forms, the API, imports and restores).
  var newRow: NewRow {
    NewRow(
      table: Self.table,
      columns: [
        "id", "workspace_id", "title", "title_key", "amount_cents", "category", "spent_at",
        "match_key", "created_at", "updated_at", "deleted_at", "version", "fundraiser_id",
      ],
      values: [
        id, workspaceID, title, titleKey, amountCents, category, spentAt, matchKey, createdAt,
        updatedAt, deletedAt, version, fundraiserID,
      ])
  }
}

/// A photo of an expense's receipt, stored as uploaded. `isPublic` puts it on the public report
/// of the expense's fundraiser; hidden by default, since receipts can carry personal data.
/// `ExpenseReceipts` is the only place with the `expense_receipts` table's SQL.
struct ExpenseReceipt: Sendable {
  static let table = "expense_receipts"

  var id: UUID
  var workspaceID: UUID
  var expenseID: UUID
  var data: Data
  var mime: String
  var width: Int
  var height: Int
  /// Hex SHA-256 of the bytes.
  var etag: String
  var isPublic: Bool
  /// Order among the expense's receipts, from 0.
  var position: Int
  var createdAt: Date

  /// A new receipt of `expenseID` from a checked photo (its camera notes taken off first by the
  /// caller), not stored yet.
  init(
    workspaceID: UUID, expenseID: UUID, photo: CheckedPhoto, isPublic: Bool, position: Int,
    createdAt: Date
  ) {
    id = UUID.random()
    self.workspaceID = workspaceID
    self.expenseID = expenseID
    data = photo.data
    mime = photo.info.kind.mimeType
    width = photo.info.dimensions.width
    height = photo.info.dimensions.height
    etag = photo.sha256
    self.isPublic = isPublic
    self.position = position
    self.createdAt = createdAt
  }

  /// The columns a read with the bytes selects, as `init(_:)` reads them.
  static let columns = """
    id, workspace_id, expense_id, data, mime, width, height, etag, is_public, position, \
    created_at
    """

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    workspaceID = try row.decode(column: "workspace_id", as: UUID.self)
    expenseID = try row.decode(column: "expense_id", as: UUID.self)
    data = try row.decode(column: "data", as: Data.self)
    mime = try row.decode(column: "mime", as: String.self)
    width = try row.decode(column: "width", as: Int.self)
    height = try row.decode(column: "height", as: Int.self)
    etag = try row.decode(column: "etag", as: String.self)
    isPublic = try row.decode(column: "is_public", as: Bool.self)
    position = try row.decode(column: "position", as: Int.self)
    createdAt = try row.decode(column: "created_at", as: Date.self)
  }

  /// The receipt as a new row of `expense_receipts`: the table's one column list for writes.
  var newRow: NewRow {
    NewRow(
      table: Self.table,
      columns: [
        "id", "workspace_id", "expense_id", "data", "mime", "width", "height", "etag",
        "is_public", "position", "created_at",
      ],
      values: [
        id, workspaceID, expenseID, data, mime, width, height, etag, isPublic, position,
        createdAt,
      ])
  }

  /// The picture as an answer: its type, an ETag from its SHA-256, kept for a year when the
  /// address carries its version.
  func response(_ req: Request) -> Response {
    PhotoResponse.make(data: data, mime: mime, sha256: etag, request: req)
  }
}
