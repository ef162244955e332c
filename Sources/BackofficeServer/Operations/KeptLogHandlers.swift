import Logging

/// A log handler factory that makes the handler for some labels once and hands out copies.
///
/// Vapor makes loggers of its own for every request: its `Request` and `Response` each hold a
/// storage that makes one (`codes.vapor.storage`), and the router's parameters another
/// (`codes.vapor.routingkit`). Each went through the factory, which made a new console handler
/// with its line format (five allocations); three per request cost more than the request's
/// routing. A handler is a value, so a copy of one made at start is what the factory would
/// make: each copy keeps its own level and metadata, and a change to one changes no other.
public enum KeptLogHandlers {
  /// The labels of the loggers Vapor makes for every request.
  public static let perRequestLabels = [
    "codes.vapor.storage", "codes.vapor.routingkit", "codes.vapor.request",
  ]

  /// `make`, but for `labels` a copy of the handler it made for that label at the start.
  public static func factory(
    keeping labels: [String] = perRequestLabels,
    _ make: @escaping @Sendable (String) -> any LogHandler
  ) -> @Sendable (String) -> any LogHandler {
    var kept: [String: any LogHandler] = [:]
    for label in labels { kept[label] = make(label) }
    let made = kept
    return { label in made[label] ?? make(label) }
  }
}
