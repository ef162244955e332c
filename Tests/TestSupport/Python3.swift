import Foundation

/// python3, which the tests use to read what the app writes with Python's own parsers (the
/// `.eml` files with its `email` package). It is part of the setup in README.md, so a machine
/// without it fails those tests with `Python3.Missing` rather than skipping them.
public enum Python3 {
  /// python3 is not on `PATH`.
  public struct Missing: Error, CustomStringConvertible {
    public let path: String

    public var description: String {
      "python3 is not on PATH (\(path)). The tests read the app's files with Python's own parsers;"
        + " install python3 (see README.md, \"Two commands\") and run them again."
    }
  }

  /// python3 ran but exited with another status than 0.
  public struct Failed: Error, CustomStringConvertible {
    public let status: Int32
    public let errorOutput: String

    public var description: String { "python3 exited with \(status): \(errorOutput)" }
  }

  /// The first executable `python3` on `PATH`.
  public static func executable() throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("python3")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw Missing(path: path)
  }

  /// Runs `python3 -c script arguments…` and answers what it printed.
  public static func run(_ script: String, arguments: [String] = []) throws -> Data {
    let process = Process()
    process.executableURL = try executable()
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Standard output is read to its end before standard error; the scripts print little to the
    // latter, so neither pipe fills while the other is waited on.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failed(
        status: process.terminationStatus, errorOutput: String(decoding: errorData, as: UTF8.self))
    }
    return data
  }
}
