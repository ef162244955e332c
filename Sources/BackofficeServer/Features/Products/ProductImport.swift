import BackofficeCore
import Fluent
import Foundation
import SQLKit

/// The valid rows of a products CSV file as an import job stores and writes them.
struct ProductImportRows: ImportRows {
  /// One row in the job's JSON: exact values, nothing left to parse or round.
  struct Stored: Codable, Sendable {
    var name: String
    var type: String
    /// Hundredths, as the products table keeps them.
    var price: Int64
    var tax: Int64
  }

  let products: [Product]
  let keys: [String]

  init(_ products: [Product]) {
    self.products = products
    keys = products.map { MatchKey.make($0.matchFields) }
  }

  init(json: String) throws {
    let stored = try JSONDecoder().decode([Stored].self, from: Data(json.utf8))
    self.init(
      stored.map { row in
        Product(
          name: row.name, type: row.type, price: MinorUnits(row.price).decimal,
          tax: MinorUnits(row.tax).decimal)
      })
  }

  /// The JSON a job keeps for `products`.
  static func json(_ products: [Product]) throws -> String {
    let stored = try products.map { product in
      guard let price = MinorUnits(exactly: product.price)?.value,
        let tax = MinorUnits(exactly: product.tax)?.value
      else { throw ProductImportError.notExact }
      return Stored(name: product.name, type: product.type, price: price, tax: tax)
    }
    return String(decoding: try JSONEncoder().encode(stored), as: UTF8.self)
  }

  func present(_ keys: Set<String>, workspaceID: UUID, on db: any Database) async throws
    -> [String: Int]
  {
    try await ProductStore(db: db, workspaceID: workspaceID, viewerID: nil).matchCounts(keys)
  }

  /// The rows as `ProductStore.newProduct` makes them (search keys, match key, first
  /// version). Their numbers are given in `beforeInsert`, under the write lock.
  func prepare(_ positions: [Int], workspaceID: UUID, start: Date) throws -> PreparedInsert {
    try PreparedInsert(
      positions.map { position in
        let created = start.addingTimeInterval(Double(position) / 1000)
        return ProductStore.newProduct(
          id: UUID.random(), workspaceID: workspaceID, number: 0,
          ProductStore.Values(products[position]), photoETag: nil, createdAt: created,
          updatedAt: created)
      })
  }

  /// Takes the account's next numbers for the batch's rows, in file order, and counts them as
  /// the account's products: one statement on the counter row inside the batch's transaction,
  /// which holds that row until it commits (on SQLite it holds the whole database from its
  /// start), so a product created meanwhile (a form, the API, another server) waits and gets
  /// a number after them.
  func beforeInsert(_ insert: PreparedInsert, workspaceID: UUID, on db: any Database) async throws
    -> PreparedInsert
  {
    guard !insert.rows.isEmpty else { return insert }
    let numbers = try await ProductStore(db: db, workspaceID: workspaceID, viewerID: nil)
      .reserveNumbers(insert.rows.count)
    return try insert.setting("number", to: numbers.map { SQLBind($0) })
  }
}

enum ProductImportError: Error {
  /// Cannot happen for validated rows: their prices and taxes have at most two decimals.
  case notExact
}
