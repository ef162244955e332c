import Foundation

@testable import BackofficeServer

extension SQLiteStorage {
  /// Holds the writer connection, as a long transaction would, until the returned function is
  /// called; returns once the hold has begun on GRDB's writer.
  func holdWriterForTest() async -> @Sendable () -> Void {
    await heldWriterForTest().release
  }

  /// `holdWriterForTest()`, with the hold itself, so a test can run statements in it from a
  /// task that does not hold it.
  func heldWriterForTest() async -> (writer: HeldWriter, release: @Sendable () -> Void) {
    let (entered, enteredGo) = AsyncStream<HeldWriter>.makeStream()
    let (release, releaseGo) = AsyncStream<Void>.makeStream()
    Task {
      try await holdingWriter { held in
        // Runs once GRDB's writer has begun the hold.
        try await held.run { _ in }
        enteredGo.yield(held)
        for await _ in release { break }
      }
    }
    var writer: HeldWriter?
    for await held in entered {
      writer = held
      break
    }
    return (writer!, { releaseGo.yield() })
  }
}

/// `test` with a `SQLiteStorage` on a file of its own in a temporary folder (opened as the
/// server opens its file) holding one table, `items (name TEXT NOT NULL UNIQUE)`.
func withItemsStorage(
  busyTimeoutMilliseconds: Int = 5_000, _ test: (SQLiteStorage) async throws -> Void
) async throws {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("storage-\(UUID.random().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  let storage = try SQLiteStorage.open(
    path: folder.appendingPathComponent("db.sqlite").path,
    busyTimeoutMilliseconds: busyTimeoutMilliseconds)
  defer { storage.close() }
  try await storage.writer.write { db in
    try db.execute(sql: "CREATE TABLE items (name TEXT NOT NULL UNIQUE)")
  }
  try await test(storage)
}
