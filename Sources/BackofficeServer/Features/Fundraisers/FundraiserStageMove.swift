import BackofficeCore
import Fluent
import Foundation
import Vapor

/// Moving a fundraiser one step along active → closed → reported, or one step back; the page
/// and the API both move through here.
enum FundraiserStageMove {
  enum Outcome: Equatable {
    /// Moved: the fundraiser as saved.
    case moved(FundraiserRecord)
    /// Not one step from the current stage (or the same stage).
    case notAllowed(from: FundraiserStage)
    /// Changed since `expected`, or moved by someone else meanwhile.
    case changed
    /// Deleted meanwhile.
    case gone
  }

  /// Moves `record` to `target` if it still has version `expected` (any version when nil) and
  /// is still at the stage it was read at; two moves at once cannot both happen.
  ///
  /// Closing reads the jar one last time first, so the report starts from its final balance;
  /// a failed reading is stored like any other and does not stop the close (the last good one
  /// stands). Publishing the report switches the public page on (making its address the first
  /// time); taking it down leaves the page as it was.
  static func move(
    _ record: FundraiserRecord, to target: FundraiserStage, expected: Int?, req: Request
  ) async throws -> Outcome {
    let from = record.stage
    guard from.canMove(to: target) else { return .notAllowed(from: from) }
    if let expected, expected != record.version { return .changed }
    let app = req.application
    if target == .closed, from == .active, record.jarID != nil {
      do {
        try await JarRefresh.refresh(
          record, client: app.jarClient, on: req.db, now: app.clients.now)
      } catch {
        req.logger.report(error: error)
      }
    }
    let now = req.now
    let store = FundraiserStore(db: req.db, workspaceID: record.workspaceID)
    let saved = try await store.move(record, to: target, expected: expected) { record in
      switch (from, target) {
      case (.active, .closed): record.closedAt = now
      case (.closed, .active): record.closedAt = nil
      case (.closed, .reported):
        record.reportedAt = now
        if record.publicSlug == nil { record.publicSlug = PublicSlug.make() }
        record.isPublic = true
      case (.reported, .closed): record.reportedAt = nil
      default: break
      }
    }
    if let saved { return .moved(saved) }
    return try await store.find(record.id) == nil ? .gone : .changed
  }

  /// The flash after a move to `target` on the page.
  static func movedMessage(to target: FundraiserStage, from: FundraiserStage) -> String {
    switch (from, target) {
    case (.active, .closed): L("fundraisers.stage.flash.closed")
    case (.closed, .active): L("fundraisers.stage.flash.reopened")
    case (.closed, .reported): L("fundraisers.stage.flash.reported")
    default: L("fundraisers.stage.flash.report_taken_down")
    }
  }

  /// Why a move is refused: where it can go from here.
  static func notAllowedMessage(from: FundraiserStage, to target: FundraiserStage) -> String {
    L(
      "fundraisers.stage.not_allowed",
      [
        "from": from.displayName, "to": target.displayName,
        "allowed": from.next.map(\.displayName).joined(separator: ", "),
      ])
  }
}
