import Foundation
import Logging
import NIOConcurrencyHelpers

/// `LOG_FORMAT=json`: one JSON object per line on standard output, for log shippers (Loki,
/// Vector, journald's JSON fields): `time` (UTC, milliseconds), `level`, `label`, `message`,
/// then every metadata field at the top level. Numbers stay numbers; everything else is a
/// string. swift-log has no such handler and none is in reach, so this is the small one here.
public struct JSONLogHandler: LogHandler {
  public var logLevel: Logger.Level
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?
  private let label: String
  private let output: Output

  /// Where lines go; one lock, so lines from different threads never interleave.
  public final class Output: Sendable {
    private let write: @Sendable (String) -> Void
    private let lock = NIOLock()

    public init(_ write: @escaping @Sendable (String) -> Void) { self.write = write }

    public static let standardOutput = Output { line in
      FileHandle.standardOutput.write(Data(line.utf8))
    }

    func emit(_ line: String) { lock.withLock { write(line) } }
  }

  public init(
    label: String, level: Logger.Level, output: Output = .standardOutput,
    metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
  ) {
    self.label = label
    self.logLevel = level
    self.output = output
    self.metadataProvider = metadataProvider
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var fields = self.metadata
    if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
    if let explicit = event.metadata { fields.merge(explicit) { _, new in new } }
    var text = "{\"time\":\"\(Self.timestamp(Date()))\",\"level\":\"\(event.level.rawValue)\""
    text += ",\"label\":" + Self.quoted(label) + ",\"message\":" + Self.quoted("\(event.message)")
    for (key, value) in fields.sorted(by: { $0.key < $1.key })
    where !["time", "level", "label", "message"].contains(key) {
      text += "," + Self.quoted(key) + ":" + Self.json(value)
    }
    output.emit(text + "}\n")
  }

  static func json(_ value: Logger.Metadata.Value) -> String {
    switch value {
    case .string(let text): return quoted(text)
    case .stringConvertible(let value):
      switch value {
      case let number as Int: return String(number)
      case let number as Int64: return String(number)
      case let number as UInt: return String(number)
      case let number as Double where number.isFinite: return String(number)
      case let flag as Bool: return flag ? "true" : "false"
      default: return quoted(value.description)
      }
    case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
    case .dictionary(let values):
      let pairs = values.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + json($0.value) }
      return "{" + pairs.joined(separator: ",") + "}"
    }
  }

  /// A JSON string literal: quotes, backslashes and control characters escaped.
  static func quoted(_ text: String) -> String {
    var result = "\""
    result.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
        result += String(format: "\\u%04x", scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// `2026-11-27T06:34:45.123Z`.
  static func timestamp(_ date: Date) -> String {
    date.formatted(
      Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
  }
}

/// The log's form, from `LOG_FORMAT`.
public enum LogFormat: String, Sendable {
  case text, json

  public static func from(_ environment: [String: String]) throws -> LogFormat {
    guard let raw = environment["LOG_FORMAT"]?.trimmingCharacters(in: .whitespaces),
      !raw.isEmpty
    else { return .text }
    guard let format = LogFormat(rawValue: raw.lowercased()) else {
      throw ConfigError(problems: ["LOG_FORMAT must be text or json, not \"\(raw)\"."])
    }
    return format
  }
}
