import BackofficeCore
import FluentKit
import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import Testing

@testable import BackofficeServer

/// Long work runs on the background threads, awaits there, keeps its task's values, and hands
/// its value or its error back to the caller, which goes on where it was.
@Suite("Background work")
struct BackgroundWorkTests {
  struct Refused: Error {}

  @Test func workRunsOnTheBackgroundThreadsAndComesBack() async throws {
    #expect(!BackgroundWork.isCurrent)
    let seen = try await BackgroundWork.shared.run {
      var seen = [BackgroundWork.isCurrent]
      // Still there after awaiting something that resumes elsewhere.
      try await Task.sleep(for: .milliseconds(1))
      seen.append(BackgroundWork.isCurrent)
      seen.append(MultiThreadedEventLoopGroup.currentEventLoop == nil)
      return seen
    }
    #expect(seen == [true, true, true])
    #expect(!BackgroundWork.isCurrent)
  }

  @Test func theTaskKeepsItsValuesAndErrorsComeBack() async throws {
    let language = try await UILanguage.$current.withValue(.uk) {
      try await BackgroundWork.shared.run { UILanguage.current }
    }
    #expect(language == .uk)
    await #expect(throws: Refused.self) {
      try await BackgroundWork.shared.run { () async throws -> Int in throw Refused() }
    }
  }

  /// The model layer's `async` calls reach the database through its futures; the rows are
  /// still handed over on the background threads when asked for from there (a backup decodes
  /// tens of thousands).
  @Test func modelRowsAreHandedOverWhereTheyWereAskedFor() async throws {
    try await withApp { t in
      // PostgreSQL's driver hands rows over on its connection's event loop (docs/platform.md).
      guard !isPostgresRun else { return }
      try await t.client().signUp()
      let db = t.db
      let query = MembershipTable.query(on: db).field(\.$id).query
      let seen = NIOLockedValueBox<[Bool]>([])
      try await BackgroundWork.shared.run {
        try await db.execute(query: query) { _ in
          seen.withLockedValue { $0.append(BackgroundWork.isCurrent) }
        }.get()
        // And through the model layer's own calls.
        #expect(try await MembershipTable.query(on: db).count() == 1)
        #expect(BackgroundWork.isCurrent)
      }
      try await db.execute(query: query) { _ in
        seen.withLockedValue { $0.append(BackgroundWork.isCurrent) }
      }.get()
      #expect(seen.withLockedValue { $0 } == [true, false])
    }
  }

  /// The backup download, the CSV exports and the Swipe list answer as before from there.
  @Test func longAnswersStillAnswer() async throws {
    try await withApp { t in
      let client = t.client()
      try await client.signUp()
      let token = try await client.createToken()
      try await client.createProduct(token: token, name: "Lamp")
      for path in [
        "/settings/backup", "/products/export.csv", "/expenses/export.csv",
        "/ad-payments/export.csv", "/api/public/get",
      ] {
        let response = try await client.get(path)
        #expect(response.status == .ok, "\(path)")
      }
      #expect(try await client.get("/settings/backup").body.contains("Lamp"))
      #expect(try await client.get("/products/export.csv").body.contains("Lamp"))
      #expect(try await client.get("/api/public/get").body.contains("Lamp"))
    }
  }
}
