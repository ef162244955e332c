import BackofficeCore
import Foundation
import SQLKit

/// A saved marketing plan, as plain values: its name, what was picked (targets and package
/// ids, read against the current catalog) and the email details last typed on the review
/// step. `MarketingPlanQueries` is the only place with the `marketing_plans` table's SQL.
struct MarketingPlanRecord: Sendable, Equatable {
  var id: UUID
  /// The workspace the plan belongs to.
  var workspaceID: UUID
  var name: String
  /// `PlanSelection` encoded as JSON.
  var selectionJSON: String
  var recipient: String
  /// nil: the dated default subject.
  var subject: String?
  /// Set when the plan is stored.
  var createdAt: Date?
  var updatedAt: Date?
  /// One more on every change; see `RecordVersion`.
  var version: Int

  /// A new plan, not stored yet (`MarketingPlanQueries.create`).
  init(workspaceID: UUID, name: String, selection: PlanSelection, recipient: String = "") {
    id = UUID.random()
    self.workspaceID = workspaceID
    self.name = name
    selectionJSON = MarketingJSON.encode(selection)
    self.recipient = recipient
    subject = nil
    version = RecordVersion.first
  }

  /// The columns every read selects, as `init(_:)` reads them.
  static let columns =
    "id, workspace_id, name, selection_json, recipient, subject, created_at, updated_at, version"

  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    workspaceID = try row.decode(column: "workspace_id", as: UUID.self)
    name = try row.decode(column: "name", as: String.self)
    selectionJSON = try row.decode(column: "selection_json", as: String.self)
    recipient = try row.decode(column: "recipient", as: String.self)
    subject = try row.decode(column: "subject", as: String?.self)
    createdAt = try row.decode(column: "created_at", as: Date?.self)
    updatedAt = try row.decode(column: "updated_at", as: Date?.self)
    version = try row.decode(column: "version", as: Int.self)
  }

  var selection: PlanSelection {
    get { MarketingJSON.decodeSelection(selectionJSON) }
    set { selectionJSON = MarketingJSON.encode(newValue) }
  }

  /// The plan as a new row of `marketing_plans`: the table's one column list for writes (new
  /// plans, copies and restores).
  var newRow: NewRow {
    NewRow(
      table: MarketingPlanQueries.table,
      columns: [
        "id", "workspace_id", "name", "selection_json", "recipient", "subject", "created_at",
        "updated_at", "version",
      ],
      values: [
        id, workspaceID, name, selectionJSON, recipient, subject, createdAt, updatedAt, version,
      ])
  }
}
