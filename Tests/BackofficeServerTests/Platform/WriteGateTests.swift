import NIOConcurrencyHelpers
import Testing

@testable import BackofficeServer

@Suite("SQLite write gate")
struct WriteGateTests {
  @Test func oneWriteAtATimeInTheOrderTheyCame() async throws {
    let gate = WriteGate()
    let inside = NIOLockedValueBox((now: 0, most: 0, order: [Int]()))
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<40 {
        group.addTask {
          try await gate.run {
            inside.withLockedValue {
              $0.now += 1
              $0.most = max($0.most, $0.now)
              $0.order.append(index)
            }
            // Give the others every chance to get in while this one is inside.
            for _ in 0..<3 { await Task.yield() }
            inside.withLockedValue { $0.now -= 1 }
          }
        }
      }
      try await group.waitForAll()
    }
    let seen = inside.withLockedValue { $0 }
    #expect(seen.most == 1)
    #expect(seen.order.count == 40)
  }

  @Test func aFailedWriteLetsTheNextIn() async throws {
    let gate = WriteGate()
    struct Failed: Error {}
    await #expect(throws: Failed.self) { try await gate.run { throw Failed() } }
    #expect(try await gate.run { 42 } == 42)
  }

  @Test func onlySQLiteHasAGate() async throws {
    try await withApp { t in
      #expect((t.app.writeGate != nil) == !isPostgresRun)
    }
  }
}
