import Foundation
import Testing

/// Compares `text` with the file `name` in the `__Snapshots__` folder next to `filePath`.
///
/// A missing snapshot is recorded, and under CI (where `CI` is set) the test fails as well, so a
/// forgotten file cannot pass unnoticed. `RECORD_SNAPSHOTS=1 swift test` records them all anew
/// after a deliberate change; read the diff before committing it.
func assertSnapshot(
  _ text: String, named name: String, filePath: StaticString = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let directory = URL(fileURLWithPath: "\(filePath)").deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__")
  let url = directory.appendingPathComponent(name)
  let environment = ProcessInfo.processInfo.environment
  let exists = FileManager.default.fileExists(atPath: url.path)
  if environment["RECORD_SNAPSHOTS"] == "1" || !exists {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
    if !exists, environment["CI"] != nil {
      Issue.record(
        "Snapshot \(name) was missing; recorded it. Commit it after reviewing.",
        sourceLocation: sourceLocation)
    }
    return
  }
  let expected = try String(contentsOf: url, encoding: .utf8)
  guard expected != text else { return }
  let received = FileManager.default.temporaryDirectory.appendingPathComponent(name)
  try? Data(text.utf8).write(to: received)
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let actualLines = text.split(separator: "\n", omittingEmptySubsequences: false)
  let index =
    zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    ?? min(expectedLines.count, actualLines.count)
  Issue.record(
    """
    \(name) differs from its snapshot at line \(index + 1) (received: \(received.path)).
    expected: \(index < expectedLines.count ? String(expectedLines[index]) : "<end>")
    received: \(index < actualLines.count ? String(actualLines[index]) : "<end>")
    """, sourceLocation: sourceLocation)
}

/// Puts each tag on a line of its own, so a snapshot diff points at the element that changed.
func readableHTML(_ html: String) -> String {
  html.replacingOccurrences(of: "><", with: ">\n<")
}
