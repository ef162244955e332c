import BackofficeCore
import Foundation
import GRDB
import Vapor

/// Product creation through the API on a SQLite file, as one closure on GRDB's writer
/// (`SQLiteStorage.write`), with kept statements: the same rows as `ProductStore.create` writes
/// (the counter, the product from the store's own row maker `newProduct`, the idempotency
/// answer and the purge of expired answers; the change-version trigger fires as for any
/// insert). A test creates through both paths and compares every column. Creations with a
/// photo take the store's path.
struct DirectProductCreation {
  var storage: SQLiteStorage
  var workspaceID: UUID
  var now: Date
  var account: AccountFormat
  /// The activity line of the creation (`ActivityLog.writes`), written in the same
  /// transaction: one turn at the writer for the whole creation.
  var activity: [ShortWrite]

  private enum Result: Sendable {
    case created(StoredAnswer)
    case found(IdempotencyRecord)
  }

  /// `ProductStore.newProduct`'s columns as one statement with numbered parameters.
  static let insertProduct = """
    INSERT INTO \(ProductStore.table) (\(ProductStore.productColumns.joined(separator: ", ")))
    VALUES (\(ProductStore.productColumns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
    """

  /// `IdempotencyRecord.newRow`'s columns as one statement with numbered parameters.
  static let insertAnswer = """
    INSERT INTO \(IdempotencyRecord.table) (\(IdempotencyRecord.rowColumns.joined(separator: ", ")))
    VALUES (\(IdempotencyRecord.rowColumns.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
    """

  private static func values(_ values: [(any Encodable & Sendable)?]) throws -> StatementArguments {
    try SQLiteStorage.arguments(optional: values)
  }

  private static func first(_ db: GRDB.Database, _ sql: String, _ arguments: StatementArguments)
    throws -> DirectRow?
  {
    try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments).map(DirectRow.init)
  }

  private static func run(_ db: GRDB.Database, _ sql: String, _ arguments: StatementArguments)
    throws
  {
    try db.cachedStatement(sql: sql).execute(arguments: arguments)
  }

  func perform(
    _ product: Product, key: String?, fingerprint: String, fallback store: IdempotencyStore
  ) async throws -> IdempotencyStore.Outcome {
    let (workspaceID, now, account) = (workspaceID, now, account)
    let activity = try ShortWrite.prepared(activity)
    let result: Result
    do {
      result = try await storage.write { db in
        if let key,
          let row = try Self.first(
            db,
            """
            SELECT \(IdempotencyRecord.columns) FROM idempotency_keys
            WHERE workspace_id = ?1 AND key = CAST(?2 AS TEXT)
            """, Self.values([workspaceID, key]))
        {
          return .found(try IdempotencyRecord(row, workspaceID: workspaceID, key: key))
        }
        try Self.run(
          db,
          """
          INSERT INTO product_counters (id, workspace_id, last_number, product_count)
          VALUES (?1, ?2, 0, 0) ON CONFLICT (workspace_id) DO NOTHING
          """, Self.values([UUID.random(), workspaceID]))
        guard
          let number = try Self.first(
            db,
            """
            UPDATE product_counters
            SET last_number = last_number + 1, product_count = product_count + 1
            WHERE workspace_id = ?1 RETURNING last_number
            """, Self.values([workspaceID])
          ).map({ try $0.decode(column: "last_number", as: Int.self) })
        else { throw Abort(.internalServerError, reason: "The product counter row is missing.") }
        // The store's row: its column list and values, sent with numbered parameters.
        let values = ProductStore.Values(product)
        let id = UUID.random()
        let stamp = Date()
        let newRow = ProductStore.newProduct(
          id: id, workspaceID: workspaceID, number: number, values, photoETag: nil,
          createdAt: stamp, updatedAt: stamp)
        try Self.run(db, Self.insertProduct, Self.values(newRow.values))
        try ShortWrite.run(activity, in: db)
        let row = ProductRow(new: id, number: number, values, photoETag: nil, at: stamp)
        var answer = StoredAnswer.product(row, account: account, status: .created)
        answer.location = Routes.apiProduct.href(id: id)
        if let key {
          let record = IdempotencyRecord(
            workspaceID: workspaceID, key: key, requestHash: fingerprint, answer: answer,
            createdAt: now)
          try Self.run(db, Self.insertAnswer, Self.values(record.newRow.values))
          try Self.run(
            db, "DELETE FROM idempotency_keys WHERE workspace_id = ?1 AND created_at < ?2",
            Self.values([workspaceID, now.addingTimeInterval(-IdempotencyKey.retention)]))
        }
        return .created(answer)
      }
    } catch {
      // Another server on the same file committed this key first: its answer is the answer.
      if let key, let found = try? await store.find(key) {
        return try store.replay(found, fingerprint: fingerprint)
      }
      throw error
    }
    switch result {
    case .created(let answer):
      return IdempotencyStore.Outcome(answer: answer, replayed: false)
    case .found(let stored):
      return try IdempotencyStore.replay(
        stored.answer, storedFor: stored.requestHash, fingerprint: fingerprint)
    }
  }
}
