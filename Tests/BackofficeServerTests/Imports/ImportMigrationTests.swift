import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Testing

@testable import BackofficeServer

@Suite("Import storage")
struct ImportMigrationTests {
  static func indexes(on table: String, _ t: TestApp) async throws -> [String] {
    let sql = try t.db.sql()
    if isPostgresRun {
      return try await sql.raw(
        "SELECT indexname AS name FROM pg_indexes WHERE tablename = \(bind: table)"
      ).all().map { try $0.decode(column: "name", as: String.self) }
    }
    return try await sql.raw(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = \(bind: table)"
    ).all().map { try $0.decode(column: "name", as: String.self) }
  }

  /// Expenses written before the match key existed get theirs when M080 runs (more rows than
  /// one chunk of the fill), the same key a save would give them.
  @Test func expenseMatchKeysAreFilledForExistingRows() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let workspaceID = try await t.workspaceID(of: email)
      let expenses = (0..<1201).map { index in
        Expense(
          title: "Row \(index)", amount: Decimal(index + 1) / 4,
          category: ExpenseCategory.allCases[index % 6],
          date: index.isMultiple(of: 5) ? nil : t.clock.now.addingTimeInterval(Double(index)))
      }
      try await ExpenseStore(db: t.db, workspaceID: workspaceID).insertAll(
        expenses, now: t.clock.now)
      let expected = Dictionary(
        uniqueKeysWithValues: expenses.map { ($0.title, MatchKey.make($0.matchFields)) })

      try await t.applyAgain(M080_AddExpenseMatchKeys())

      let records = try await ExpenseTable.query(on: t.db).all()
      #expect(records.count == 1201)
      for record in records {
        #expect(record.matchKey == expected[record.title], "\(record.title)")
      }
      #expect(try await Self.indexes(on: "expenses", t).contains(M080_AddExpenseMatchKeys.index))
    }
  }

  @Test func adPaymentMatchKeysAreFilledForExistingEntries() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let userID = try #require(try await Accounts.all(on: t.db).first?.id)
      let workspaceID = try await t.workspaceID(ofUser: userID)
      let payments = [
        AdPayment(name: "Spring", url: "https://spring.example.com"),
        AdPayment(name: "Приклад", url: "https://приклад.укр/шлях"),
      ]
      for payment in payments {
        _ = try await AdPaymentStore(db: t.db, workspaceID: workspaceID).create(payment)
      }
      try await t.applyAgain(M081_AddAdPaymentMatchKeys())
      let entries = try await AdPaymentTable.query(on: t.db).all()
      for entry in entries {
        #expect(entry.matchKey == MatchKey.make(entry.payment.matchFields))
      }
      #expect(
        try await Self.indexes(on: "ad_payments", t).contains(M081_AddAdPaymentMatchKeys.index))
    }
  }

  /// Products saved before the match key existed get theirs when M091 runs (more rows than
  /// one chunk of the fill), the same key a save would give them.
  @Test func matchKeysAreFilledForExistingProducts() async throws {
    try await withApp { t in
      let client = t.client()
      let email = try await client.signUp()
      let store = ProductStore(
        db: t.db, workspaceID: try await t.workspaceID(of: email), viewerID: nil)
      for index in 0..<(MatchKeyBackfill.chunk + 7) {
        _ = try await store.create(
          Product(
            name: "Row \(index)", type: index.isMultiple(of: 2) ? "A" : "Б",
            price: ExpenseFixtures.decimal("\(index + 1).5"), tax: 18),
          photo: nil)
      }
      try await t.applyAgain(M091_AddProductMatchKeys())
      let records = try await ProductRecord.query(on: t.db).all()
      #expect(records.count == MatchKeyBackfill.chunk + 7)
      for record in records {
        #expect(record.matchKey == MatchKey.make(record.product.matchFields), "\(record.name)")
        #expect(record.version == RecordVersion.first)
      }
      #expect(
        try await Self.indexes(on: "products", t)
          .contains(M091_AddProductMatchKeys.index))
    }
  }

  @Test func importJobTablesRevertAndApplyAgain() async throws {
    try await withApp { t in
      let names = try await Self.indexes(on: "import_jobs", t)
      #expect(names.contains(M082_CreateImportJobs.oneRunning))
      let migration = M082_CreateImportJobs()
      try await t.db.withConnection { db in
        try await migration.revert(on: db)
        await #expect(throws: (any Error).self) {
          _ = try await ImportJobTable.query(on: db).count()
        }
        try await migration.prepare(on: db)
        #expect(try await ImportJobTable.query(on: db).count() == 0)
      }
    }
  }

  /// Keys are the SHA-256 of the length-prefixed fields: fields cannot run into each other.
  @Test func matchKeysKeepFieldsApart() {
    #expect(MatchKey.make(["ab", "c"]) != MatchKey.make(["a", "bc"]))
    #expect(MatchKey.make(["", "x"]) != MatchKey.make(["x", ""]))
    #expect(MatchKey.make(["a"]).count == 64)
    #expect(MatchKey.make(["a"]) == MatchKey.make(["a"]))
  }
}
