import Fluent
import Foundation
import SQLKit
import Testing
import Vapor

@testable import BackofficeServer

@Suite("Record versions: If-Match, the claim and the migration")
struct RecordVersionTests {
  @Test func ifMatchReadsStrongTagsStarAndNothing() {
    func parse(_ values: [String]) -> IfMatch {
      var headers = HTTPHeaders()
      for value in values { headers.add(name: .ifMatch, value: value) }
      return IfMatch(headers)
    }
    #expect(parse([]) == .absent)
    #expect(parse(["*"]) == .any)
    #expect(parse([" * "]) == .any)
    #expect(parse([#""3""#]) == .tags(["3"]))
    #expect(parse([#""3", "4""#, #""7""#]) == .tags(["3", "4", "7"]))
    // Weak tags never match a write (strong comparison); malformed members are skipped.
    #expect(parse([#"W/"3", 5, "6""#]) == .tags(["6"]))
    #expect(parse(["3"]) == .tags([]))
    #expect(parse([""]) == .tags([]))
    #expect(parse([#""unterminated"#]) == .tags([]))
  }

  @Test func ifMatchNamesTheVersionAWriteMustFind() throws {
    #expect(try IfMatch.absent.expectedVersion(current: 4, record: "It") == nil)
    #expect(try IfMatch.any.expectedVersion(current: 4, record: "It") == nil)
    #expect(try IfMatch.tags(["3", "4"]).expectedVersion(current: 4, record: "It") == 4)
    #expect {
      try IfMatch.tags(["3"]).expectedVersion(current: 4, record: "The product")
    } throws: { error in
      let api = error as? APIError
      return api?.status == .preconditionFailed && api?.code == "precondition_failed"
        && api?.message.hasPrefix("The product was changed") == true
    }
  }

  @Test func aFormVersionIsAPositiveNumber() {
    #expect(VersionField.parse("3") == 3)
    #expect(VersionField.parse(" 12 ") == 12)
    #expect(VersionField.parse(nil) == nil)
    #expect(VersionField.parse("") == nil)
    #expect(VersionField.parse("0") == nil)
    #expect(VersionField.parse("-1") == nil)
    #expect(VersionField.parse("x") == nil)
  }

  /// The claim is one statement: of two writers holding the same version, one gets it.
  @Test func ofTwoClaimsOnOneVersionExactlyOneWins() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addAdPayment(
        name: "Claimed", url: "https://claim.example.com", db: t.db)
      let entry = try #require(try await AdPaymentTable.find(id, on: t.db))
      let owner = entry.workspaceID
      for round in 0..<5 {
        let expected = RecordVersion.first + round
        let results = try await withThrowingTaskGroup(of: Int?.self) { group in
          for _ in 0..<2 {
            group.addTask {
              try await t.db.transaction { db in
                try await RecordVersion.claim(
                  AdPaymentTable.schema, id: id, workspaceID: owner, expected: expected, on: db)
              }
            }
          }
          return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.compactMap { $0 } == [expected + 1], "round \(round): \(results)")
      }
      // Another account's id is never claimed, whatever the version.
      #expect(
        try await RecordVersion.claim(
          AdPaymentTable.schema, id: id, workspaceID: UUID(), expected: nil, on: t.db) == nil)
    }
  }

  @Test func existingRowsStartAtOneAndTheMigrationReverts() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addAdPayment(
        name: "Before", url: "https://before.example.com", db: t.db)
      // One connection for the schema changes and the reads after them: another SQLite
      // connection of the pool may still hold the schema from before.
      try await t.db.withConnection { db in
        let migration = M070_AddRecordVersions()
        try await migration.revert(on: db)
        let sql = try db.sql()
        await #expect(throws: (any Error).self) {
          try await sql.raw("SELECT version FROM ad_payments").run()
        }
        try await migration.prepare(on: db)
        #expect(try await AdPaymentTable.find(id, on: db)?.version == 1)
        for table in M070_AddRecordVersions.tables {
          let rows = try await sql.raw(
            "SELECT COUNT(*) AS n FROM \(ident: table) WHERE version <> 1"
          ).first()
          #expect(try rows?.decode(column: "n", as: Int.self) == 0, "\(table)")
        }
      }
    }
  }
}
