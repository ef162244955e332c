import BackofficeCore
import Fluent
import Foundation
import SQLKit
import Testing

@testable import BackofficeServer

/// The fundraiser store holds one column list per table (`newRow` of `FundraiserRecord`,
/// `FundraiserPhotoRecord`, `FundraiserShareImageRecord` and `JarSnapshotRecord`): a column a
/// migration adds and the store does not write (or one it writes that no migration made) fails
/// here, on the database the suite runs on. Its writes date rows themselves.
@Suite("Fundraiser store", .ukrainian)
struct FundraiserStoreTests {
  private static func columnList(_ text: String) -> Set<String> {
    Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
  }

  @Test func newRowsWriteEveryColumnOfTheirTable() async throws {
    try await withApp { t in
      let id = UUID.random()
      let now = Date()
      let campaign = Campaign(purpose: "Дрон", template: .blueLinear)
      let rows: [(NewRow, reads: String)] = [
        (FundraiserRecord(workspaceID: id, campaign: campaign).newRow, FundraiserRecord.columns),
        (
          FundraiserPhotoRecord(
            id: id, workspaceID: id, fundraiserID: id, data: Data([1]), mime: "image/png",
            width: 1, height: 1, etag: "e", createdAt: now
          ).newRow, FundraiserPhotoRecord.columns
        ),
        (
          FundraiserShareImageRecord(
            id: id, fundraiserID: id, data: Data([1]), etag: "e", updatedAt: now
          ).newRow, FundraiserShareImageRecord.columns
        ),
        (
          JarSnapshotRecord(
            fundraiserID: id, jarID: try #require(JarID(rawValue: "StubJar001")), takenAt: now,
            result: .failure(.timeout)
          ).newRow, JarSnapshotRecord.columns
        ),
      ]
      for (row, reads) in rows {
        let expected = try await tableColumns(row.table, on: t.db)
        #expect(!expected.isEmpty, "\(row.table) has no columns")
        #expect(Set(row.columns) == expected, "\(row.table)")
        #expect(row.columns.count == row.values.count, "\(row.table)")
        // What reads select is what a new row writes.
        #expect(Self.columnList(reads) == expected, "\(row.table) reads")
      }
    }
  }

  /// An edit, a stage move and the public page's switch each date the row; the edit and the
  /// move move its version on, the switch does not (it is not an edit).
  @Test func updatesSetUpdatedAtAndEditsMoveTheVersion() async throws {
    try await withFundraiserApp { t in
      let client = t.client()
      try await client.signUp()
      let id = try await client.addFundraiser(purpose: "Перший")
      let long = Date(timeIntervalSince1970: 1_600_000_000)
      func age() async throws -> FundraiserRecord {
        let row = try #require(await FundraiserTable.find(id, on: t.db))
        row.updatedAt = long
        try await row.save(on: t.db)
        return try #require(await FundraiserTable.stored(id, on: t.db))
      }
      let created = try #require(await FundraiserTable.stored(id, on: t.db))
      #expect(created.createdAt != nil && created.updatedAt == created.createdAt)
      let store = FundraiserStore(db: t.db, workspaceID: created.workspaceID)

      var record = try await age()
      let changed = Campaign(purpose: "Другий", template: .blueLinear)
      let saved = try #require(
        await store.update(record, to: changed, photo: nil, expected: record.version))
      #expect(saved.purpose == "Другий")
      #expect(saved.version == record.version + 1)
      #expect(try #require(saved.updatedAt) > long)
      #expect(try await FundraiserTable.stored(id, on: t.db) == saved)
      #expect(
        try await store.update(record, to: changed, photo: nil, expected: record.version) == nil,
        "a stale version writes nothing")

      record = try await age()
      let moved = try #require(
        await store.move(record, to: .closed, expected: record.version) { $0.closedAt = long })
      #expect(moved.stage == .closed && moved.closedAt == long)
      #expect(moved.version == record.version + 1)
      #expect(try #require(moved.updatedAt) > long)

      record = try await age()
      let opened = try await store.setPublic(record, true)
      #expect(opened.isPublic && opened.publicSlug != nil)
      #expect(opened.version == record.version)
      let stored = try #require(await FundraiserTable.stored(id, on: t.db))
      #expect(stored.isPublic && stored.publicSlug == opened.publicSlug)
      #expect(try #require(stored.updatedAt) > long)
      #expect(stored.version == record.version)
    }
  }
}
