import Foundation
import GRDB
import SQLiteKit
import Testing

@testable import BackofficeServer

/// The short ways of reading and binding SQLite values give exactly what SQLiteKit's coders
/// give, value for value, and leave everything else (and every refusal) to them.
@Suite("SQLite values without the generic coders")
struct DirectRowCodingTests {
  static let values: [SQLiteData] = [
    .text("plain"), .text(""), .text("3F2504E0-4F89-41D3-9A0C-0305E82C3301"),
    .text("3f2504e0-4f89-41d3-9a0c-0305e82c3301"), .text("3F2504E0-4F89-41D3-9A0C-0305E82C330"),
    .text("2026-11-27T10:00:00Z"), .text("12"), .integer(0), .integer(1), .integer(2),
    .integer(-7), .integer(Int.max), .float(0), .float(1_764_237_600.123456789), .float(-1.5),
    .null, .blob(ByteBuffer(bytes: [1, 2, 3])),
  ]

  private func agree<D: Decodable & Equatable>(_ type: D.Type) {
    for value in Self.values {
      let generic = try? DirectRow.decoder.decode(D.self, from: value)
      let row = DirectRow(names: ["c"], values: [value])
      let short = try? row.decode(column: "c", as: D.self)
      #expect(short == generic, "\(D.self) from \(value)")
      // A value the short way takes is one the generic way takes alike.
      if let known = DirectRow.known(value, as: D.self) {
        #expect(known == generic, "\(D.self) from \(value)")
      }
    }
  }

  @Test func readingAgreesWithSQLiteKit() {
    agree(String.self)
    agree(String?.self)
    agree(UUID.self)
    agree(UUID?.self)
    agree(Int.self)
    agree(Int?.self)
    agree(Int64.self)
    agree(Int64?.self)
    agree(Bool.self)
    agree(Bool?.self)
    agree(Date.self)
    agree(Date?.self)
    agree(Double.self)
    agree(Double?.self)
  }

  @Test func theShortWayIsTakenForTheCommonKinds() {
    #expect(DirectRow.known(.text("a"), as: String.self) == "a")
    #expect(DirectRow.known(.null, as: String?.self) == .some(nil))
    #expect(DirectRow.known(.integer(1), as: Bool.self) == true)
    #expect(DirectRow.known(.integer(2), as: Bool.self) == nil)
    #expect(DirectRow.known(.text("x"), as: UUID.self) == nil)
  }

  @Test func bindingAgreesWithSQLiteKit() throws {
    let id = UUID.random()
    let values: [any Encodable] = [
      "text", "", id, 42, Int64(-9), true, false, Date(timeIntervalSince1970: 1_764_237_600.25),
      2.5, UUID?.some(id), UUID?.none, String?.none, String?.some("x"), Data([1, 2]),
      ["a": 1],
    ]
    for value in values {
      let generic = DatabaseValue(try DirectRow.encoder.encode(value))
      #expect(try SQLiteStorage.value(value) == generic, "\(value)")
    }
    #expect(try SQLiteStorage.value(id) == id.uuidString.databaseValue)
  }
}
