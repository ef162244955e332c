import Foundation
import GRDB
import NIOConcurrencyHelpers
import SQLKit

extension ProductStore {
  /// What a page statement's SQL depends on; its values are bound.
  fileprivate struct PageShape: Hashable {
    var whole: Bool
    var sort: Sort
    var typeKey: Bool
    var prefix: Bool
    var upper: Bool
  }

  /// The SQL of `pageStatement` for SQLite, written once for each shape (4 orders by 7 kinds
  /// of filter, 28 at most): building and serializing the statement cost more than a
  /// dozen allocations on every listing.
  private static let sqlitePages = NIOLockedValueBox<[PageShape: String]>([:])

  /// `pageStatement` for the SQLite file: its kept SQL and its arguments, bound in the order
  /// its placeholders come (the total's, the page's conditions, the page, the reader, the
  /// account). A test compares each shape's page with the one the statement itself reads.
  func sqlitePage(_ filter: Filter, per: Int, offset: Int) throws
    -> (String, StatementArguments)
  {
    let terms = Terms(filter)
    let shape = PageShape(
      whole: filter.isWholeCatalog, sort: filter.sort, typeKey: terms.typeKey != nil,
      prefix: terms.prefix != nil, upper: terms.upper != nil)
    let sql: String
    if let kept = Self.sqlitePages.withLockedValue({ $0[shape] }) {
      sql = kept
    } else {
      var serializer = SQLSerializer(database: try self.sql)
      Self.pageStatement(
        conditions: conditions(filter), whole: shape.whole, sort: filter.sort,
        workspaceID: workspaceID, viewerID: viewerID, per: per, offset: offset
      ).serialize(to: &serializer)
      sql = serializer.sql
      Self.sqlitePages.withLockedValue { $0[shape] = sql }
    }
    let workspace = UUIDText.uppercased(workspaceID).databaseValue
    var values: [DatabaseValue] = []
    values.reserveCapacity(12)
    func addConditions() {
      values.append(workspace)
      for term in [terms.typeKey, terms.prefix, terms.upper] {
        if let term { values.append(term.databaseValue) }
      }
    }
    if shape.whole { values.append(workspace) } else { addConditions() }
    addConditions()
    values += [
      per.databaseValue, offset.databaseValue, UUIDText.uppercased(viewerID).databaseValue,
      workspace,
    ]
    return (sql, StatementArguments(values.lazy.map { $0 as (any DatabaseValueConvertible)? }))
  }
}
