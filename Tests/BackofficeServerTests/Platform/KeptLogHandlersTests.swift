import Logging
import NIOConcurrencyHelpers
import Testing

@testable import BackofficeServer

/// The loggers Vapor makes for every request get a copy of a handler made at start; a copy
/// must behave as a new handler would.
@Suite("Kept log handlers")
struct KeptLogHandlersTests {
  /// Counts the handlers `make` was asked for, by label.
  final class Made: Sendable {
    let labels = NIOLockedValueBox<[String]>([])
    func make(_ label: String) -> any LogHandler {
      labels.withLockedValue { $0.append(label) }
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = .notice
      return handler
    }
  }

  @Test func aKeptLabelIsMadeOnceAndOtherLabelsEveryTime() {
    let made = Made()
    let factory = KeptLogHandlers.factory { made.make($0) }
    #expect(made.labels.withLockedValue { $0 } == KeptLogHandlers.perRequestLabels)
    for _ in 0..<3 {
      for label in KeptLogHandlers.perRequestLabels { _ = factory(label) }
      _ = factory("backoffice.other")
    }
    #expect(
      made.labels.withLockedValue { $0 }
        == KeptLogHandlers.perRequestLabels
        + ["backoffice.other", "backoffice.other", "backoffice.other"])
  }

  @Test func eachCopyKeepsItsOwnLevelAndMetadata() {
    let made = Made()
    let factory = KeptLogHandlers.factory { made.make($0) }
    var first = Logger(label: "codes.vapor.storage", factory: factory)
    first.logLevel = .trace
    first[metadataKey: "request-id"] = "1"
    let second = Logger(label: "codes.vapor.storage", factory: factory)
    #expect(second.logLevel == .notice)
    #expect(second[metadataKey: "request-id"] == nil)
    #expect(first.logLevel == .trace && first[metadataKey: "request-id"] == "1")
  }
}
