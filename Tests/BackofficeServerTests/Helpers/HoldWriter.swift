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
