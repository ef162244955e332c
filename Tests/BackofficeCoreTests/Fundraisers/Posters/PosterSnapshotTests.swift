import Foundation
import Testing

@testable import BackofficeCore

/// Every template in every format, compared byte for byte with `__Snapshots__/`.
///
/// A missing snapshot is recorded (and the test fails on CI, where `CI` is set, so a forgotten
/// file cannot pass unnoticed). `RECORD_SNAPSHOTS=1 swift test` re-records all of them after a
/// deliberate design change; look at the SVGs before committing them.
@Suite("Poster snapshots")
struct PosterSnapshotTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("__Snapshots__")

  @Test(
    "template × format matches its snapshot",
    arguments: PosterTemplate.allCases, PosterFormat.allCases)
  func snapshot(template: PosterTemplate, format: PosterFormat) throws {
    let svg = PosterRenderer.render(
      PosterFixtures.snapshotInput, template: template, format: format,
      options: PosterRenderOptions(embedFont: false))
    let name =
      String(template.number).leftPadded(to: 2) + "-\(template.name)-\(format.rawValue).svg"
    let url = Self.directory.appendingPathComponent(name)
    let environment = ProcessInfo.processInfo.environment
    let exists = FileManager.default.fileExists(atPath: url.path)

    if environment["RECORD_SNAPSHOTS"] == "1" || !exists {
      try FileManager.default.createDirectory(
        at: Self.directory, withIntermediateDirectories: true)
      try Data(svg.utf8).write(to: url)
      if !exists, environment["CI"] != nil {
        Issue.record("Snapshot \(name) was missing; recorded it. Commit it after reviewing.")
      }
      return
    }

    let expected = try String(contentsOf: url, encoding: .utf8)
    if expected != svg {
      let received = FileManager.default.temporaryDirectory.appendingPathComponent(name)
      try? Data(svg.utf8).write(to: received)
      let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
      let actualLines = svg.split(separator: "\n", omittingEmptySubsequences: false)
      let index =
        zip(expectedLines, actualLines).enumerated().first { $0.element.0 != $0.element.1 }?
        .offset ?? min(expectedLines.count, actualLines.count)
      Issue.record(
        """
        \(name) differs from its snapshot at line \(index + 1) (received: \(received.path)).
        expected: \(index < expectedLines.count ? String(expectedLines[index]) : "<end>")
        received: \(index < actualLines.count ? String(actualLines[index]) : "<end>")
        """)
    }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
