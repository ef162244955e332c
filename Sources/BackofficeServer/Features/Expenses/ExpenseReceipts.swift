import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The receipt photos of one workspace's expenses: stored as uploaded (JPEG or PNG, within the
/// photo size limit), listed without their bytes, and found only through an expense of the same
/// workspace. A receipt is hidden from the fundraiser's public report until it is marked public.
struct ExpenseReceipts: Sendable {
  /// Most receipts one expense keeps.
  static let maxPerExpense = 10

  let db: any Database
  let workspaceID: UUID

  /// A receipt as pages and the API name it: everything but the bytes.
  struct Ref: Sendable, Equatable {
    var id: UUID
    var expenseID: UUID
    var isPublic: Bool
    var mime: String
    var width: Int
    var height: Int
    var etag: String
    var position: Int

    /// The owner's address of the picture, with its version so browsers may keep it.
    var href: String {
      Routes.expenseReceipt.href(["expenseID": expenseID.uuidString, "receiptID": id.uuidString])
        + "?v=" + PhotoResponse.version(etag)
    }
  }

  /// Runs `change` on the expense's receipts in the transaction that gives `record` its new
  /// version (from `expected`, any version when nil) and `now` as its change time; false when
  /// the expense was changed or deleted since, and then nothing is written.
  func change(
    of record: ExpenseRecord, expected: Int?, now: Date,
    _ change: @escaping @Sendable (ExpenseReceipts) async throws -> Void
  ) async throws -> Bool {
    let workspaceID = workspaceID
    return try await record.write(expected: expected, on: db) { db in
      try await change(ExpenseReceipts(db: db, workspaceID: workspaceID))
      record.updatedAt = now
      try await record.save(on: db)
    }
  }

  /// The receipts of each of `expenseIDs` (of this workspace), in their order; expenses with
  /// none are absent.
  func refs(for expenseIDs: [UUID]) async throws -> [UUID: [Ref]] {
    guard !expenseIDs.isEmpty else { return [:] }
    var refs: [UUID: [Ref]] = [:]
    for start in stride(from: 0, to: expenseIDs.count, by: 500) {
      let chunk = Array(expenseIDs[start..<min(start + 500, expenseIDs.count)])
      let rows = try await ExpenseReceiptRecord.query(on: db)
        .filter(\.$workspaceID == workspaceID).filter(\.$expenseID ~~ chunk)
        .field(\.$id).field(\.$expenseID).field(\.$isPublic).field(\.$mime).field(\.$width)
        .field(\.$height).field(\.$etag).field(\.$position)
        .sort(\.$position).sort(\.$id).all()
      for row in rows {
        guard let id = row.id else { continue }
        refs[row.expenseID, default: []].append(
          Ref(
            id: id, expenseID: row.expenseID, isPublic: row.isPublic, mime: row.mime,
            width: row.width, height: row.height, etag: row.etag, position: row.position))
      }
    }
    return refs
  }

  /// The receipts of one expense, in order.
  func refs(of expenseID: UUID) async throws -> [Ref] {
    try await refs(for: [expenseID])[expenseID] ?? []
  }

  /// The receipt `id` of the expense `expenseID`, bytes included; nil for another workspace's
  /// receipt, another expense's or an unknown id.
  func receipt(_ id: UUID, of expenseID: UUID) async throws -> ExpenseReceiptRecord? {
    try await ExpenseReceiptRecord.query(on: db)
      .filter(\.$id == id).filter(\.$expenseID == expenseID)
      .filter(\.$workspaceID == workspaceID).first()
  }

  /// More receipts than an expense keeps: thrown by `add` inside the saving transaction, so
  /// nothing of that save stays.
  struct LimitReached: Error {
    static var message: String {
      L("expenses.form.receipts_too_many", ["count": String(ExpenseReceipts.maxPerExpense)])
    }
  }

  /// Adds `photos` after the expense's receipts, public or not; the caller has checked that
  /// the expense is this workspace's. Run inside the transaction that claimed the expense's
  /// version (which holds its row), the count it checks afterwards is the count: two saves at
  /// once cannot take an expense past `maxPerExpense` (`LimitReached`).
  @discardableResult
  func add(_ photos: [CheckedPhoto], isPublic: Bool, to expenseID: UUID, now: Date)
    async throws -> [UUID]
  {
    guard !photos.isEmpty else { return [] }
    let last = try await ExpenseReceiptRecord.query(on: db)
      .filter(\.$expenseID == expenseID).filter(\.$workspaceID == workspaceID)
      .max(\.$position)
    var position = (last ?? -1) + 1
    var records: [ExpenseReceiptRecord] = []
    // A receipt can go on a public page: the camera's notes (where it was taken) never do.
    for photo in photos.map(\.withoutMetadata) {
      let record = ExpenseReceiptRecord()
      record.id = UUID.random()
      record.workspaceID = workspaceID
      record.expenseID = expenseID
      record.data = photo.data
      record.mime = photo.info.kind.mimeType
      record.width = photo.info.dimensions.width
      record.height = photo.info.dimensions.height
      record.etag = photo.sha256
      record.isPublic = isPublic
      record.position = position
      record.createdAt = now
      position += 1
      records.append(record)
    }
    // One row at a time: a receipt can be megabytes, well past what one statement should carry.
    try await BulkInsert.insert(records, on: db, batch: 1)
    guard try await count(of: expenseID) <= Self.maxPerExpense else { throw LimitReached() }
    return records.compactMap(\.id)
  }

  /// Marks exactly the receipts in `publicIDs` of the expense public and the others hidden.
  func setPublic(_ publicIDs: Set<UUID>, of expenseID: UUID) async throws {
    let scoped = ExpenseReceiptRecord.query(on: db)
      .filter(\.$expenseID == expenseID).filter(\.$workspaceID == workspaceID)
    try await scoped.copy().set(\.$isPublic, to: false).update()
    if !publicIDs.isEmpty {
      try await scoped.copy().filter(\.$id ~~ Array(publicIDs)).set(\.$isPublic, to: true)
        .update()
    }
  }

  /// Marks one receipt of the expense public or hidden (another's id changes nothing).
  func setPublic(_ id: UUID, of expenseID: UUID, isPublic: Bool) async throws {
    try await ExpenseReceiptRecord.query(on: db)
      .filter(\.$id == id).filter(\.$expenseID == expenseID)
      .filter(\.$workspaceID == workspaceID)
      .set(\.$isPublic, to: isPublic).update()
  }

  /// Removes the receipts in `ids` of the expense (others' ids are ignored).
  func remove(_ ids: Set<UUID>, of expenseID: UUID) async throws {
    guard !ids.isEmpty else { return }
    try await ExpenseReceiptRecord.query(on: db)
      .filter(\.$expenseID == expenseID).filter(\.$workspaceID == workspaceID)
      .filter(\.$id ~~ Array(ids)).delete()
  }

  /// How many receipts the expense has.
  func count(of expenseID: UUID) async throws -> Int {
    try await ExpenseReceiptRecord.query(on: db)
      .filter(\.$expenseID == expenseID).filter(\.$workspaceID == workspaceID).count()
  }

  func receiptExists(_ id: UUID, of expenseID: UUID) async throws -> Bool {
    try await ExpenseReceiptRecord.query(on: db)
      .filter(\.$id == id).filter(\.$expenseID == expenseID)
      .filter(\.$workspaceID == workspaceID).count() > 0
  }
}

extension ExpenseReceiptRecord {
  /// The picture as an answer: its type, an ETag from its SHA-256, kept for a year when the
  /// address carries its version.
  func response(_ req: Request) -> Response {
    PhotoResponse.make(data: data, mime: mime, sha256: etag, request: req)
  }
}
