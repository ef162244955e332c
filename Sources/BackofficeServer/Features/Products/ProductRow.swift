import BackofficeCore
import Foundation
import GRDB
import SQLKit
import SQLiteKit

/// A stored product as every read gives it: the columns `ProductStore.columns` selects and the
/// reader's favourite mark, decoded once into plain values. It is the product record: pages,
/// both APIs, the CSV export and the backup read it, and `ProductStore` is the only place that
/// reads or writes its table.
struct ProductRow: Sendable, Equatable {
  var id: UUID
  var number: Int
  var name: String
  var type: String
  var priceMinor: Int64
  var taxMinor: Int64
  var photoETag: String?
  var createdAt: Date?
  var updatedAt: Date?
  var version: Int
  var favorite: Bool

  init(
    id: UUID, number: Int, name: String, type: String, priceMinor: Int64, taxMinor: Int64,
    photoETag: String?, createdAt: Date?, updatedAt: Date?, version: Int, favorite: Bool
  ) {
    self.id = id
    self.number = number
    self.name = name
    self.type = type
    self.priceMinor = priceMinor
    self.taxMinor = taxMinor
    self.photoETag = photoETag
    self.createdAt = createdAt
    self.updatedAt = updatedAt
    self.version = version
    self.favorite = favorite
  }

  /// What the product says, with its amounts exact again.
  var product: Product {
    Product(
      name: name, type: type, price: MinorUnits(priceMinor).decimal,
      tax: MinorUnits(taxMinor).decimal)
  }

  /// From a row of any database, by column name.
  init(_ row: any SQLRow) throws {
    id = try row.decode(column: "id", as: UUID.self)
    number = try row.decode(column: "number", as: Int.self)
    name = try row.decode(column: "name", as: String.self)
    type = try row.decode(column: "type", as: String.self)
    priceMinor = try row.decode(column: "price_minor", as: Int64.self)
    taxMinor = try row.decode(column: "tax_minor", as: Int64.self)
    photoETag = try row.decode(column: "photo_etag", as: String?.self)
    createdAt = try row.decode(column: "created_at", as: Date?.self)
    updatedAt = try row.decode(column: "updated_at", as: Date?.self)
    version = try row.decode(column: "version", as: Int.self)
    favorite = try row.decode(column: "favorite", as: Int.self) == 1
  }

  /// From SQLite's values, by position (`ProductStore.columns`, then `favorite`), without the
  /// model layer's conversions.
  init(_ row: Row) throws {
    // Read from the statement's columns with GRDB's typed decoding (no `DatabaseValue` in
    // between, whose generic conversion cost more than the rest of the row).
    id = try Self.uuid(row, 0)
    number = try row.decode(Int.self, atIndex: 1)
    name = try row.decode(String.self, atIndex: 2)
    type = try row.decode(String.self, atIndex: 4)
    priceMinor = try row.decode(Int64.self, atIndex: 6)
    taxMinor = try row.decode(Int64.self, atIndex: 7)
    photoETag = try row.decode(String?.self, atIndex: 8)
    createdAt = try row.decode(Double?.self, atIndex: 9).map(DirectRow.date)
    updatedAt = try row.decode(Double?.self, atIndex: 10).map(DirectRow.date)
    version = try row.decode(Int.self, atIndex: 11)
    favorite = try row.decode(Int.self, atIndex: 12) == 1
  }

  /// The rows of a product statement (and the first row's `total`, its fourteenth column),
  /// read at once on a reader of the SQLite file with a kept statement.
  static func readNow(
    _ sql: String, _ binds: [any Encodable], withTotal: Bool, on storage: SQLiteStorage
  ) throws -> ([ProductRow], total: Int?) {
    try readNow(sql, try SQLiteStorage.arguments(binds), withTotal: withTotal, on: storage)
  }

  /// The same with its arguments already bound as SQLite keeps them.
  static func readNow(
    _ sql: String, _ arguments: StatementArguments, withTotal: Bool, on storage: SQLiteStorage
  ) throws -> ([ProductRow], total: Int?) {
    try storage.readNow { db in
      let statement = try db.cachedStatement(sql: sql)
      let cursor = try Row.fetchCursor(statement, arguments: arguments)
      var items: [ProductRow] = []
      var total: Int?
      while let row = try cursor.next() {
        items.append(try ProductRow(row))
        if withTotal, total == nil { total = try row.decode(Int.self, atIndex: 13) }
      }
      return (items, total)
    }
  }

  /// Ids are kept as their text (as the model layer writes them), parsed from the column's
  /// bytes as GRDB lends them (from a statement's row, SQLite's own, with no `String` made:
  /// a page of twenty made twenty), without Foundation's parser; anything else is read by the
  /// model layer's rules.
  private static func uuid(_ row: Row, _ index: Int) throws -> UUID {
    let parsed = try? row.withUnsafeData(atIndex: index) { data -> UUID? in
      data?.withUnsafeBytes { UUIDText.parse($0.bindMemory(to: UInt8.self)) } ?? nil
    }
    if let parsed { return parsed }
    let value: DatabaseValue = row[index]
    return try DirectRow.decoder.decode(UUID.self, from: SQLiteData(value))
  }
}
